"""Package layout that pyproject.toml alone cannot express: top-level resources/ installs as `studio_resources`."""

from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["studio", "studio.*"]) + ["studio_resources"],
    package_dir={"studio_resources": "resources"},
    package_data={"studio_resources": ["**/*"]},
    exclude_package_data={"studio_resources": ["**/__pycache__/*"]},
)
