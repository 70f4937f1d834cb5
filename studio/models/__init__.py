"""Pydantic contracts shared by every layer (events, browser records, project records)."""
