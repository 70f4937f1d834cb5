"""The pilot file protocol (seed 003): an AI reads observation.json and writes action.json; every action on the page
goes through the race preflight, so a blocked action reports its facts in the next observation."""
