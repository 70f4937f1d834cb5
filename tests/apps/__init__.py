"""Fixture apps of shapes the studio has never seen, each with seeded faults that can be switched on at runtime.

Every app is served by `tests.app_thread.AppThread` and used as `with ListApp() as app: app.base_url`; faults are
switched with `app.set_faults({...})` (or `faults=` at construction) and realised server-side, by serving different
HTML or JavaScript, so nothing in the page names them. `FAULTS` and `FAULT_DESCRIPTIONS` in each module list them.
"""
