"""The project file: one SQLite `.studio` file per project holding sessions, evidence and results."""

from studio.store.errors import (
    DamagedProjectError,
    ForeignFileError,
    NewerProjectError,
    ProjectAccessError,
    ProjectError,
    ProjectExistsError,
    EmptyProjectError,
    ProjectInUseError,
    ProjectNotFoundError,
    ProjectReadOnlyError,
    ProjectUpgradeError,
    SaveAsError,
    UnsupportedProjectError,
)
from studio.store.project import ProjectFile
from studio.store.recorder import ProjectRecorder
from studio.store.schema import APPLICATION_ID, PROJECT_SUFFIX, SchemaVersion

__all__ = [
    "APPLICATION_ID",
    "PROJECT_SUFFIX",
    "DamagedProjectError",
    "ForeignFileError",
    "NewerProjectError",
    "ProjectAccessError",
    "ProjectError",
    "ProjectExistsError",
    "ProjectFile",
    "EmptyProjectError",
    "ProjectInUseError",
    "ProjectNotFoundError",
    "ProjectReadOnlyError",
    "ProjectRecorder",
    "ProjectUpgradeError",
    "SaveAsError",
    "SchemaVersion",
    "UnsupportedProjectError",
]
