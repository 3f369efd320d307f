"""3-D and spatial vector algebra (the former module ``spatial.vectors``, now a package)."""

from .plucker import *  # noqa: F403
from .plucker import __all__ as __all__
from .plucker import _as_plucker as _as_plucker
from .plucker import _crm as _crm
