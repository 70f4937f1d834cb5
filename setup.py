"""Package layout that pyproject.toml alone cannot express: top-level resources/ installs as `studio_resources`."""

from setuptools import find_namespace_packages, find_packages, setup

# Every folder under resources/ is a (namespace) package of its own, so its files install as package data
# without setuptools warning that data folders are missing from `packages`.
resource_packages = ["studio_resources"] + [
    f"studio_resources.{name}" for name in find_namespace_packages(where="resources", exclude=["*__pycache__*"])
]

setup(
    packages=find_packages(include=["studio", "studio.*"]) + resource_packages,
    package_dir={"studio_resources": "resources"},
    package_data={name: ["*"] for name in resource_packages},
    exclude_package_data={"": ["__pycache__/*", "*.pyc"]},
)
