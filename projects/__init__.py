"""Sample projects (the demo app's project.yaml and its goal scenarios), installed as `studio_resources.projects`."""
