"""Compact representations and axial screws (Featherstone App. A.3–A.5).

Dense 6x6 matrices waste most of their arithmetic on the known structure of Plücker transforms
and inertias.  App. A.3 stores each quantity by its independent numbers (Table A.3) and gives
the formulae and costs of the operations on them (Table A.4); App. A.4 makes transforms about
one coordinate axis cheaper still (Table A.5); App. A.5 collects the tricks behind the counts
(rotation products, rotating general and symmetric matrices).

* :mod:`~spatial.compact.forms`: ``(E, r)``, ``(m, h, lt(I))``, ``(lt(M), H, lt(I))``, their
  dense forms and the operations of Table A.4;
* :mod:`~spatial.compact.screws`: axial screw transforms of vectors and of rigid-body and
  articulated-body inertias (with Table A.5's special cases for ``Iᵃ``);
* :mod:`~spatial.compact.counts`: the costs, counted by running the same formulae on symbols
  (:mod:`spatial.symbolic`) and set beside the book's figures;
* :mod:`~spatial.compact.kernels`: the unvalidated formulae themselves.

Every result equals the dense computation (``spatial.transform_inertia`` and friends) to
round-off; the dense functions are what the algorithms use, since NumPy's batched 6x6 products
cost fewer Python calls than these element-by-element formulae.
"""

from .counts import BOOK, dense_operation_counts, operation_counts
from .forms import (
    ArticulatedInertia,
    RigidInertia,
    Transform,
    compact_abi,
    compact_rbi,
    compact_transform,
    compose,
    dense_abi,
    dense_rbi,
    dense_transform,
    inv_transform_force,
    inv_transform_motion,
    inv_transform_rbi,
    inverse,
    rbi_sum,
    rbi_times_motion,
    transform_abi,
    transform_force,
    transform_motion,
    transform_rbi,
)
from .screws import (
    AxialScrew,
    axial_screw,
    screw_abi,
    screw_abi_revolute_xy,
    screw_abi_revolute_z,
    screw_force,
    screw_motion,
    screw_rbi,
    screw_transform,
)

__all__ = [
    "Transform",
    "RigidInertia",
    "ArticulatedInertia",
    "compact_transform",
    "dense_transform",
    "compact_rbi",
    "dense_rbi",
    "compact_abi",
    "dense_abi",
    "transform_motion",
    "inv_transform_motion",
    "transform_force",
    "inv_transform_force",
    "compose",
    "inverse",
    "rbi_times_motion",
    "rbi_sum",
    "transform_rbi",
    "inv_transform_rbi",
    "transform_abi",
    "AxialScrew",
    "axial_screw",
    "screw_transform",
    "screw_motion",
    "screw_force",
    "screw_rbi",
    "screw_abi",
    "screw_abi_revolute_z",
    "screw_abi_revolute_xy",
    "BOOK",
    "operation_counts",
    "dense_operation_counts",
]
