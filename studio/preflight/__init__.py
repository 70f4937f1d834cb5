"""Playground preflight (seed 000): a bounded, browser-first look at an app before any test-case work."""
