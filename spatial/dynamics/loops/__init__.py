"""Closed-loop systems: a spanning tree plus loop joints (Featherstone ch. 8).

A closed-loop mechanism is described as a kinematic tree (its *spanning tree*, with variables
``q``) plus *loop joints* that close the loops (:meth:`spatial.Model.add_loop_joint`).  Each
loop joint ``k`` constrains the relative motion of its successor body ``s(k)`` and predecessor
body ``p(k)``: ``Tᵀ (v_s - v_p) = 0`` with ``T`` the joint's constraint-force subspace
(eqs. 8.7–8.9).  Collected over all loops and differentiated, the constraints read
``K q̈ = k`` (eqs. 8.4, 8.17); the loop joints push on the tree with ``τ^c = Kᵀ λ`` (eq. 8.5).
The tree's own ``H`` and ``C`` come from the tree algorithms called on
:meth:`spatial.Model.spanning_tree` (given the model itself, they refuse its loop joints).

The chapter, one module per idea:

* :mod:`.constraints` — the implicit form: :func:`loop_jcalc` (Table 8.1),
  :func:`loop_position_errors`, :func:`loop_constraints` (``K``, ``k`` and Baumgarte's
  ``k_stab``, §8.3, Table 8.4), :func:`loop_bias_force` (Tables 8.2–8.3) and
  :class:`LoopConstraintWarning` for states that violate the loops;
* :mod:`.forward` — :func:`loop_forward_dynamics` by the methods of §8.5 (and §8.9's cluster
  by cluster variant), :func:`loop_joint_forces` (§8.4);
* :mod:`.explicit` — the explicit form ``q̈ = G ÿ + g``: :func:`G_and_g` by complete
  pivoting (§8.8), :class:`LoopClosure`, :func:`reduced_forward_dynamics` (eq. 8.45);
* :mod:`.closures` — loop closure functions ``q = γ(y)`` (§8.11): :func:`newton_closure` for any
  mechanism, :func:`four_bar_closure`, :func:`crank_slider_closure`, :func:`fig_8_3_closure`;
* :mod:`.analysis` — :func:`mobility` and overconstraint (§8.10), :func:`loop_clusters`,
  :func:`cluster_blocks` and the block-by-block :func:`G_and_g_by_cluster` (§8.9);
* :mod:`.inverse` — :func:`loop_inverse_dynamics` with actuator assignment (§8.12);
* :mod:`.sparse_method` — :func:`sparse_system`, :func:`sparse_matrix_method` (§8.13, eq. 8.64),
  loaded on first use because it needs ``scipy.sparse``;

Simulating either form is the package's one loop, :func:`spatial.simulate`: a ``Model`` with
loop joints in the implicit form (each stage solves :func:`loop_forward_dynamics`; the whole
trajectory is then checked once by :func:`check_loop_trajectory`), or
``spatial.systems.ClosureSystem(model, closure)`` in the explicit form.

Conventions (``spatial.__doc__`` and the tree contract): ``q`` has shape ``(..., nq)``, ``qd``,
``qdd``, ``tau`` ``(..., nv)``; leading batch dimensions broadcast and go through the same code.
Loop ``l`` (0-based, the book's ``k = N_B + 1 + l``) owns ``n^c_l = 6 - n_k`` consecutive rows of
``K``, ``k``, ``δ`` and ``λ``.  Spatial quantities of the loops are in base coordinates, as in
Table 8.4.
"""

from __future__ import annotations

import importlib

from .analysis import G_and_g_by_cluster, Mobility, cluster_blocks, loop_clusters, mobility
from .closures import crank_slider_closure, fig_8_3_closure, four_bar_closure, newton_closure
from .constraints import (
    POSITION_TOL,
    VELOCITY_TOL,
    LoopConstraintWarning,
    check_loop_trajectory,
    loop_bias_force,
    loop_constraints,
    loop_jcalc,
    loop_position_errors,
)
from .explicit import G_and_g, LoopClosure, reduced_forward_dynamics
from .forward import METHODS, loop_forward_dynamics, loop_joint_forces
from .inverse import loop_inverse_dynamics

# The sparse matrix method needs scipy.sparse, which ``import spatial`` must not load: its names
# resolve on first access (PEP 562).
_LAZY = {
    "SparseSystem": "sparse_method",
    "sparse_system": "sparse_method",
    "sparse_matrix_method": "sparse_method",
}


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "METHODS",
    "LoopConstraintWarning",
    "POSITION_TOL",
    "VELOCITY_TOL",
    "loop_jcalc",
    "loop_position_errors",
    "loop_constraints",
    "loop_bias_force",
    "loop_forward_dynamics",
    "loop_joint_forces",
    "check_loop_trajectory",
    "G_and_g",
    "G_and_g_by_cluster",
    "LoopClosure",
    "newton_closure",
    "four_bar_closure",
    "crank_slider_closure",
    "fig_8_3_closure",
    "reduced_forward_dynamics",
    "Mobility",
    "mobility",
    "loop_clusters",
    "cluster_blocks",
    "loop_inverse_dynamics",
    "SparseSystem",
    "sparse_system",
    "sparse_matrix_method",
]
