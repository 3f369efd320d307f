"""URDF robot descriptions in and out: real robots as kinematic trees (Featherstone §4.1–4.2).

URDF (the Unified Robot Description Format) describes a robot as links joined by joints, which
is the tree of Featherstone's §4.1 with the data of Table 4.3 written in XML.  What is where:

* :mod:`.read` — :func:`load_urdf` (XML text or file → :class:`UrdfModel`, a
  :class:`~spatial.model.Model` that keeps the file's link and joint names; impossible link
  inertias refused, or repaired with ``inertia="repair"`` and an :class:`InertiaRepairWarning`);
* :mod:`.write` — :func:`to_urdf` (model → XML text).

Only the standard library's :mod:`xml.etree` is used.  Real robot descriptions come from the
optional ``robots`` extra (``pip install "spatial-rbd[robots]"``), which also installs MuJoCo
as an independent engine the tests compare with.
"""

from .read import SUPPORTED_JOINT_TYPES, InertiaRepairWarning, UrdfModel, load_urdf
from .write import to_urdf

__all__ = [
    "load_urdf",
    "to_urdf",
    "UrdfModel",
    "SUPPORTED_JOINT_TYPES",
    "InertiaRepairWarning",
]
