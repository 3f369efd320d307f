"""Ready-made kinematic trees (the former module ``spatial.builders``, now a package)."""

from .mechanisms import *  # noqa: F403
from .mechanisms import __all__ as __all__
