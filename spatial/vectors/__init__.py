"""3-D and spatial (6-D) vector algebra in Plücker coordinates (Featherstone ch. 2, App. A).

Conventions (see ``spatial.__doc__``): spatial vectors are arrays of shape ``(..., 6)`` with the
angular part first, motion ``v = [ω; v_O]``, force ``f = [n_O; f]``.  A Plücker transform
``X = X_BA`` ("B from A") maps motion-vector coordinates from frame A to frame B and is built as
``X_BA = rot(E) @ xlt(r)``, where ``E`` maps 3-D coordinates from A to B and ``r`` is B's origin
expressed in A (Featherstone eq. 2.24, Table 2.2).  Every function accepts leading batch
dimensions and broadcasts over them.

What is where:

* :mod:`.vec3` — the 3-D cross-product matrix: :func:`skew`, :func:`unskew` (eq. 2.23);
* :mod:`.plucker` — coordinate rotations and Plücker transforms: :func:`rx`, :func:`ry`,
  :func:`rz`, :func:`rot`, :func:`xlt`, :func:`rotx`, :func:`roty`, :func:`rotz`, :func:`plux`,
  :func:`unplux`, :func:`pluho`, the inverse :func:`xinv`, the force transform :func:`xstar`
  and :func:`XtoV` (§2.8, Tables 2.2 and A.2);
* :mod:`.apply` — transforms applied without inversion: :func:`inv_motion`,
  :func:`apply_force`, :func:`inv_force`, :func:`transform_inertia`,
  :func:`inv_transform_inertia`, and :func:`transform_dyadic` for the four kinds of spatial
  dyadic (eqs. 2.25–2.26, 2.66, Tables 2.5 and A.4);
* :mod:`.factored` — unvalidated kernels for the recursive algorithms: a transform kept as its
  factors ``rot(E) xlt(r)`` and applied by Table A.4's formulas (``X v``, ``Xᵀ f``, ``Xᵀ I X``
  of a rigid-body inertia in compact form); not re-exported here;
* :mod:`.cross` — spatial cross products: :func:`crm`, :func:`crf`, :func:`cross_motion`,
  :func:`cross_force` (§2.9, eqs. 2.31–2.34);
* :mod:`.points` — body-fixed points: :func:`transform_point`, :func:`point_velocity`,
  :func:`point_acceleration`, :func:`point_force` (§2.5, §2.11);
* :mod:`.layout` — :func:`swap_linear_angular`, the angular-first / linear-first permutation
  for ArtiSynth formulas (ArtiSynth §0.1).

Every name is importable from ``spatial.vectors`` (and the public ones from ``spatial``).
"""

from .apply import (
    apply_force,
    inv_force,
    inv_motion,
    inv_transform_inertia,
    transform_dyadic,
    transform_inertia,
)
from .cross import _crm as _crm  # private, imported by other modules of the package
from .cross import _cross_force as _cross_force  # private core (no validation), as _crm
from .cross import crf, crm, cross_force, cross_motion
from .layout import swap_linear_angular
from .plucker import (
    XtoV,
    pluho,
    plux,
    rot,
    rotx,
    roty,
    rotz,
    rx,
    ry,
    rz,
    unplux,
    xinv,
    xlt,
    xstar,
)
from .plucker import _as_plucker as _as_plucker  # private, as _crm
from .points import point_acceleration, point_force, point_velocity, transform_point
from .vec3 import _unskew as _unskew  # private core (no validation), as _crm
from .vec3 import skew, unskew

__all__ = [
    "skew",
    "unskew",
    "rx",
    "ry",
    "rz",
    "rot",
    "xlt",
    "rotx",
    "roty",
    "rotz",
    "plux",
    "unplux",
    "pluho",
    "xinv",
    "xstar",
    "inv_motion",
    "apply_force",
    "inv_force",
    "transform_inertia",
    "inv_transform_inertia",
    "transform_dyadic",
    "crm",
    "crf",
    "cross_motion",
    "cross_force",
    "XtoV",
    "transform_point",
    "point_velocity",
    "point_acceleration",
    "point_force",
    "swap_linear_angular",
]

# Names the single module ``spatial.vectors`` imported from elsewhere: kept importable from
# here so that old code keeps working; they are documented where they are defined.
from .._validate import as_array as as_array  # noqa: E402
from .._validate import as_scalar_array as as_scalar_array  # noqa: E402
from .._validate import require_rotation as require_rotation  # noqa: E402
