"""Race preflight (seed 001): refs, snapshots, DOM exploration, fact-reporting actions and locator synthesis."""
