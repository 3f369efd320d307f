"""Closed-loop systems (Featherstone ch. 8); the implementation is in :mod:`.constraints`."""

from .constraints import *  # noqa: F403
from .constraints import METHODS, __all__  # noqa: F401
