"""Parameterizations of 3-D rotation (the former module ``spatial.rotations``, now a package)."""

from .quaternions import *  # noqa: F403
from .quaternions import __all__ as __all__
