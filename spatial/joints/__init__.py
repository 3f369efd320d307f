"""The joint library (the former module ``spatial.joints``, now a package)."""

from .base import *  # noqa: F403
from .base import __all__ as __all__
