"""The steps of packaging/build_bundle.py: freeze the studio, draw its icons, and pack the folder for each OS."""
