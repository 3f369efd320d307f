"""Dynamics of kinematic trees: inverse dynamics, the joint-space inertia matrix, forward dynamics.

* :mod:`.rnea` — the recursive Newton–Euler algorithm (Featherstone ch. 5, Tables 5.1–5.2);
* :mod:`.crba` — the joint-space inertia matrix by the composite-rigid-body algorithm, ``H q̈``
  without ``H``, and a Coriolis matrix with ``Ḣ = C + Cᵀ`` (ch. 6, Tables 6.1–6.2);
* :mod:`.sparse` — sparse ``LᵀL``/``LᵀDL`` factorization and back-substitution exploiting
  branch-induced sparsity, and forward dynamics by the inertia-matrix method (§6.4–6.5,
  Tables 6.3–6.6);
* :mod:`.aba` — the articulated-body algorithm (ch. 7).
* :mod:`.handles` — articulated bodies with several handles: projection and assembly (§7.5);
* :mod:`.hybrid` — hybrid dynamics, by the modified CRBA and the articulated-body method
  (§9.1–9.2, Tables 9.1–9.3);
* :mod:`.floating` — floating-base ABA, RNEA/CRBA, inverse dynamics, momentum and centroidal
  quantities (§9.3–9.5, Tables 9.4–9.6, Examples 9.3–9.4);
* :mod:`.gears` — gear constraints and reflected rotor inertias (§9.6, Example 9.5);
* :mod:`.equivalence` — dynamically equivalent inertia changes (§9.7, Table 9.7).
* :mod:`.loops` — closed loops: loop constraints ``K q̈ = k`` with Baumgarte stabilization,
  forward and inverse dynamics, loop clusters, loop closure functions, the sparse matrix method
  (ch. 8).

``sparse_matrix_method`` needs ``scipy.sparse`` and is loaded on first access (PEP 562), so that
``import spatial`` stays light.
"""

import importlib

from .aba import aba, articulated_inertia
from .crba import coriolis_matrix, crba, inertia_product
from .equivalence import (
    apply_inertia_delta,
    axial_delta,
    best_match,
    prismatic_delta,
    revolute_delta,
    simplify_inertias,
    spherical_delta,
)
from .floating import (
    Centroidal,
    FloatingBaseEquation,
    centroidal_momentum,
    centroidal_momentum_matrix,
    floating_aba,
    floating_coefficients,
    floating_forward_dynamics,
    floating_inverse_dynamics,
    floating_jacobian,
    floating_momentum,
)
from .gears import (
    aba_with_rotors,
    crba_with_rotors,
    gear_matrix,
    geared_forward_dynamics,
    geared_inverse_dynamics,
    reflected_inertia,
)
from .handles import assemble_handles, handle_inverse_inertia
from .hybrid import hybrid_dynamics, hybrid_inertia, hybrid_parent
from .loops import (
    G_and_g,
    LoopClosure,
    LoopConstraintWarning,
    loop_bias_force,
    loop_constraints,
    loop_forward_dynamics,
    loop_inverse_dynamics,
    loop_joint_forces,
    loop_position_errors,
    newton_closure,
    reduced_forward_dynamics,
)
from .rnea import bias_force, joint_forces, rnea, rnea_3d
from .sparse import (
    forward_dynamics,
    ltdl,
    ltdl_solve,
    ltl,
    ltl_solve,
    mul_H,
    mul_L,
    mul_Lt,
    operation_counts,
    solve_L,
    solve_Lt,
    sparsity_sums,
)

__all__ = [
    "aba",
    "articulated_inertia",
    "bias_force",
    "coriolis_matrix",
    "crba",
    "forward_dynamics",
    "inertia_product",
    "joint_forces",
    "ltdl",
    "ltdl_solve",
    "ltl",
    "ltl_solve",
    "mul_H",
    "mul_L",
    "mul_Lt",
    "operation_counts",
    "rnea",
    "rnea_3d",
    "solve_L",
    "solve_Lt",
    "sparsity_sums",
    # hybrid dynamics, floating bases, gears, dynamic equivalence, handles (§7.5, ch. 9)
    "Centroidal",
    "FloatingBaseEquation",
    "aba_with_rotors",
    "apply_inertia_delta",
    "assemble_handles",
    "axial_delta",
    "best_match",
    "centroidal_momentum",
    "centroidal_momentum_matrix",
    "crba_with_rotors",
    "floating_aba",
    "floating_coefficients",
    "floating_forward_dynamics",
    "floating_inverse_dynamics",
    "floating_jacobian",
    "floating_momentum",
    "gear_matrix",
    "geared_forward_dynamics",
    "geared_inverse_dynamics",
    "handle_inverse_inertia",
    "hybrid_dynamics",
    "hybrid_inertia",
    "hybrid_parent",
    "prismatic_delta",
    "reflected_inertia",
    "revolute_delta",
    "simplify_inertias",
    "spherical_delta",
    # closed loops (ch. 8)
    "G_and_g",
    "LoopClosure",
    "LoopConstraintWarning",
    "loop_bias_force",
    "loop_constraints",
    "loop_forward_dynamics",
    "loop_inverse_dynamics",
    "loop_joint_forces",
    "loop_position_errors",
    "newton_closure",
    "reduced_forward_dynamics",
    "sparse_matrix_method",
]


def __getattr__(name: str):
    if name == "sparse_matrix_method":
        return importlib.import_module(".loops", __name__).sparse_matrix_method
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
