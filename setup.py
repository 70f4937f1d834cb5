"""Package layout that pyproject.toml alone cannot express: folders outside `studio/` install as package data.

- resources/ (page scripts, the demo app, icons, stylesheet) installs as the package `studio_resources`;
- projects/ (the sample projects: the demo's project.yaml and its shipped goal scenarios) as
  `studio_resources.projects`, so `studio bench scenarios` and anyone else find them in an installed wheel too.

They stay where they are in the repository (the README's commands and the tests name them there); studio.resources
finds them through the import system, in a checkout (editable install) and in a wheel alike.
"""

from setuptools import find_namespace_packages, find_packages, setup

# Every folder under resources/ is a (namespace) package of its own, so its files install as package data
# without setuptools warning that data folders are missing from `packages`.
resource_packages = ["studio_resources"] + [
    f"studio_resources.{name}" for name in find_namespace_packages(where="resources", exclude=["*__pycache__*"])
]
# Folders under projects/ are named like projects ("demo-fintech"), not like packages: one package, its files by glob.
SAMPLE_PROJECTS = "studio_resources.projects"

setup(
    packages=find_packages(include=["studio", "studio.*"]) + resource_packages + [SAMPLE_PROJECTS],
    package_dir={"studio_resources": "resources", SAMPLE_PROJECTS: "projects"},
    package_data={**{name: ["*"] for name in resource_packages}, SAMPLE_PROJECTS: ["*.md", "**/*.yaml"]},
    exclude_package_data={"": ["__pycache__/*", "*.pyc"]},
)
