"""Preflight Studio: explore a web app with an agent in one live browser and turn it into tests."""

__version__ = "0.1.0"
