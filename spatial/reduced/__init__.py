"""REDMAX: reduced-coordinate dynamics assembled from maximal coordinates (Sueda part 2).

Sueda's REDMAX writes the equations of motion of a kinematic tree in its joint (reduced)
coordinates by mapping them onto the bodies' own Newton–Euler equations (maximal coordinates)
through the Jacobian ``J_mr`` (``φ = J_mr q̇``, eq. 2.1):

* :mod:`~spatial.reduced.jacobian` — ``J_mr`` and ``J̇_mr`` filled over the tree (§2.1–2.2,
  Algs. 1–2);
* :mod:`~spatial.reduced.maximal_terms` — the block-diagonal maximal mass matrix ``M_m`` and
  the maximal force ``f_m`` of the free bodies (eq. 1.21);
* :mod:`~spatial.reduced.redmax` — ``M_r = J_mrᵀ M_m J_mr``, ``f_r`` and ``q̈ = M_r⁻¹ f_r``
  (eq. 2.18);
* :mod:`~spatial.reduced.implicit` — joint springs and dampers with the linearly implicit
  Euler step (§2.5, eqs. 2.72–2.78) and hyper-reduced coordinates ``q = J_rR y`` (§2.6);
* :mod:`~spatial.reduced.deformable` — a mass-spring body whose nodes are free or ride on
  the bodies, coupled through the block Jacobian ``J_MR`` (§2.7, eqs. 2.84–2.92);
* :mod:`~spatial.reduced.products` — ``J_mr x``, ``J̇_mr x`` and ``J_mrᵀ y`` in ``O(n)``
  without forming the Jacobian (§2.10, Algs. 5–6);
* :mod:`~spatial.reduced.inverse_inertia` — ``M_r⁻¹ x`` in ``O(n)`` and ``M_r⁻¹`` in
  ``O(n²)`` by recursive forward dynamics, with the implicit-step preconditioner (§2.13,
  Alg. 10);
* :mod:`~spatial.reduced.constraints` — maximal and reduced constraint rows, bilateral and
  unilateral, with the hinge point constraint of eq. 2.94 (§2.8, eqs. 2.93–2.97, 2.102, 2.104),
  and a model's loop joints as such constraints (:func:`loop_point_constraints`);
* :mod:`~spatial.reduced.constrained` — the KKT systems at the acceleration and velocity levels
  with stabilization, prescribed-acceleration rows (hybrid dynamics) and inequalities as a QP
  (§2.8–2.9, eqs. 2.98–2.107);
* :mod:`~spatial.reduced.recursive` — recursive hybrid dynamics in adjoint notation, the
  Delassus matrix column by column and the dual constrained problem (§2.12, Alg. 9,
  eqs. 2.121–2.127);
* :mod:`~spatial.reduced.staggered` — staggered projections for frictional contact (§2.11,
  Alg. 7, eqs. 2.113–2.114);
* :mod:`~spatial.reduced.bisp` — BISP for joint friction, with the joint reaction forces of the
  maximal equations and external constraints (§2.11, Alg. 8, eqs. 2.115–2.120).

The results equal Featherstone's ``crba``, ``τ - bias_force`` and ``aba``; REDMAX costs
``O(n²)`` to assemble and ``O(n³)`` to solve, which is the price of its simplicity.  The
products, the inverse inertia and Alg. 9 recover ``O(n)`` per vector.  The last four modules
use :mod:`spatial.solvers` (SciPy) and load on first use of one of their names.
"""

from __future__ import annotations

import importlib

from .constraints import (
    ConstraintRows,
    JointConstraint,
    JointLimit,
    PointConstraint,
    PointContact,
    constraint_rows,
    hinge_directions,
    loop_point_constraints,
    maximal_constraint_jacobian,
)
from .deformable import (
    ParticleSystem,
    coupled_energy,
    coupled_force,
    coupled_forward_dynamics,
    coupled_jacobian,
    coupled_jacobian_dot,
    coupled_mass_matrix,
)
from .implicit import (
    hyper_reduced_force,
    hyper_reduced_forward_dynamics,
    hyper_reduced_jacobian,
    hyper_reduced_jacobian_dot,
    hyper_reduced_mass_matrix,
    redmax_step,
)
from .inverse_inertia import (
    InertiaFactor,
    inverse_inertia,
    inverse_inertia_factor,
    inverse_inertia_product,
)
from .jacobian import redmax_jacobian, redmax_jacobian_dot
from .maximal_terms import maximal_bias, maximal_mass_matrix
from .products import jacobian_dot_product, jacobian_product, jacobian_transpose_product
from .redmax import redmax_force, redmax_forward_dynamics, redmax_mass_matrix

# The constrained, recursive and staggered solvers use spatial.solvers, which needs SciPy; the
# light ``import spatial`` must not load it, so their names resolve on first access (PEP 562).
_LAZY = {
    "KKTSolution": "constrained",
    "constrained_forward_dynamics": "constrained",
    "constrained_step": "constrained",
    "recursive_hybrid_dynamics": "recursive",
    "delassus_matrix": "recursive",
    "dual_forward_dynamics": "recursive",
    "JointFriction": "bisp",
    "revolute_friction": "bisp",
    "StaggeredResult": "staggered",
    "joint_reaction_forces": "bisp",
    "staggered_step": "staggered",
    "bisp_step": "bisp",
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = getattr(importlib.import_module(f".{module}", __name__), name)  # cache it
    return globals()[name]


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = [
    "redmax_jacobian",
    "redmax_jacobian_dot",
    "maximal_mass_matrix",
    "maximal_bias",
    "redmax_mass_matrix",
    "redmax_force",
    "redmax_forward_dynamics",
    "redmax_step",
    "hyper_reduced_jacobian",
    "hyper_reduced_jacobian_dot",
    "hyper_reduced_mass_matrix",
    "hyper_reduced_force",
    "hyper_reduced_forward_dynamics",
    "ParticleSystem",
    "coupled_jacobian",
    "coupled_jacobian_dot",
    "coupled_mass_matrix",
    "coupled_force",
    "coupled_forward_dynamics",
    "coupled_energy",
    "jacobian_product",
    "jacobian_dot_product",
    "jacobian_transpose_product",
    "InertiaFactor",
    "inverse_inertia_factor",
    "inverse_inertia_product",
    "inverse_inertia",
    "hinge_directions",
    "PointConstraint",
    "PointContact",
    "JointConstraint",
    "JointLimit",
    "ConstraintRows",
    "KKTSolution",
    "maximal_constraint_jacobian",
    "constraint_rows",
    "loop_point_constraints",
    "constrained_forward_dynamics",
    "constrained_step",
    "recursive_hybrid_dynamics",
    "delassus_matrix",
    "dual_forward_dynamics",
    "JointFriction",
    "revolute_friction",
    "StaggeredResult",
    "joint_reaction_forces",
    "staggered_step",
    "bisp_step",
]
