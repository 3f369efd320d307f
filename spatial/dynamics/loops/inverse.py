"""Inverse dynamics of a closed-loop system with a choice of actuators (§8.12).

For a tree a motion ``(q, q̇, q̈)`` fixes the joint forces (the RNEA).  Closing loops removes
that uniqueness: the loop joints absorb any generalized force of the form ``Kᵀλ``.  Projecting
the equation of motion on the allowed motions — multiplying by ``Gᵀ`` with ``K G = 0`` — keeps
only what the actuators must supply:

1. compute the tree's inverse dynamics ``τ_ID = ID(q, q̇, q̈)``, with any active loop-joint
   forces entering as external forces (§8.6);
2. the forces ``τ`` that produce the motion satisfy ``Gᵀ τ = Gᵀ τ_ID`` (eq. 8.62): ``n - r``
   equations for ``n`` unknowns;
3. only the actuated freedoms ``u`` carry force, so with ``G_u`` the rows of ``G`` of those
   freedoms, ``G_uᵀ u = Gᵀ τ_ID`` (eq. 8.63).

The rank of ``G_u`` classifies the actuation: below the mobility ``n - r`` the system is
*underactuated* (or the actuators sit at a singular configuration for them), above it
*redundantly actuated* (infinitely many ``u``; the minimum-norm one on request), and equal to it
*properly actuated* (one ``u``).  :func:`loop_inverse_dynamics` implements the three cases.
"""

from __future__ import annotations

import numpy as np

from ..._batched import T as _T
from ..._batched import mv as _mv
from ...model import Model
from ..rnea import rnea
from .analysis import _rank, _uniform_rank
from .constraints import _CONSISTENCY_TOL, _constraints, _external_forces
from .explicit import _check_independent

__all__ = ["loop_inverse_dynamics"]


def loop_inverse_dynamics(
    model: Model,
    q,
    qd,
    qdd,
    actuated,
    tau_loop=None,
    f_ext=None,
    allow_redundant: bool = False,
    tol: float = 1e-9,
) -> np.ndarray:
    """Actuator forces that produce a given motion of a closed-loop system (§8.12).

    The tree's inverse dynamics ``τ_ID = ID(q, q̇, q̈)`` (RNEA with the active loop-joint forces
    as external forces, §8.6) fixes only ``Gᵀ τ = Gᵀ τ_ID`` (eq. 8.62): the loops can absorb any
    force in ``range(Kᵀ)``.  With the actuated freedoms ``u`` and the rows ``G_u`` of ``G``
    that belong to them, the actuator forces solve ``G_uᵀ u = Gᵀ τ_ID`` (eq. 8.63).  ``G`` is
    any basis of the null space of ``K`` (the equation does not depend on the basis).

    * ``rank(G_u) < n - r``: **underactuated**, the actuators cannot produce every motion —
      ``ValueError`` (also when there are enough actuators but the configuration is singular
      for them, like a crank at a dead-centre, §8.10);
    * ``p > rank(G_u) = n - r``: **redundantly actuated**, infinitely many ``u`` work —
      ``ValueError`` unless ``allow_redundant``, then the minimum-norm ``u``;
    * ``p = rank(G_u) = n - r``: properly actuated, ``u = G_u⁻ᵀ Gᵀ τ_ID``.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd, qdd : array_like, shape (..., nv)
        A motion that satisfies the loop constraints: ``K q̇ = 0`` and ``K q̈ = k``.
    actuated : sequence of int
        Velocity variables (tree-joint freedoms) that have actuators.
    tau_loop, f_ext : optional
        Known active loop-joint forces and external forces (as :func:`loop_bias_force`).
    allow_redundant : bool
        Return the minimum-norm forces of a redundantly actuated system instead of raising.
    tol : float
        Relative tolerance of the rank decisions.

    Returns
    -------
    tau : ndarray, shape (..., nv)
        Actuator forces in the actuated entries, zero elsewhere.

    Raises
    ------
    ValueError
        If an input is invalid, the motion violates the loop constraints (relative residual
        above 1e-6), the system is underactuated, or redundantly actuated without
        ``allow_redundant``.
    """
    q, qd, qdd, _ = model.check_state(q, qd, qdd)
    actuated = _check_independent(actuated, model.nv, "actuated")
    K, k, _ = _constraints(model, q, qd, None)
    for residual, scale, what in (
        (_mv(K, qd), np.abs(K).max(initial=0.0) * np.abs(qd).max(initial=0.0), "K q̇ = 0"),
        (
            _mv(K, qdd) - k,
            np.abs(K).max(initial=0.0) * np.abs(qdd).max(initial=0.0) + np.abs(k).max(initial=0.0),
            "K q̈ = k",
        ),
    ):
        if np.abs(residual).max(initial=0.0) > _CONSISTENCY_TOL * max(scale, 1e-300):
            raise ValueError(
                f"loop_inverse_dynamics: the motion violates the loop constraints ({what} has "
                f"residual {np.abs(residual).max():.3g}); q, q̇, q̈ must satisfy them (§8.12)"
            )
    f_x = _external_forces(model, q, tau_loop, f_ext)
    tau_id = rnea(model.spanning_tree(), q, qd, qdd, f_x)  # the spanning tree's ID
    r = _uniform_rank(K, tol, "K")
    G = _T(np.linalg.svd(K)[2][..., r:, :])  # a basis of null(K), (..., n, n - r)
    m = model.nv - r
    G_u = G[..., list(actuated), :]
    rank_u = _rank(G_u, tol) if m else np.zeros(G_u.shape[:-2], dtype=int)
    if np.any(rank_u < m):
        why = (
            "these actuators are at a configuration singularity, where their motion does not "
            "determine the mechanism's (Featherstone §8.10)"
            if len(actuated) >= m
            else "most motions cannot be produced (Featherstone §8.12, case 1)"
        )
        raise ValueError(
            f"underactuated: the actuated variables {list(actuated)} control only "
            f"{int(rank_u.min())} of the {m} degrees of freedom (n - rank K = {model.nv} - {r}); "
            f"{why}"
        )
    rhs = _mv(_T(G), tau_id)
    if len(actuated) > m:
        if not allow_redundant:
            raise ValueError(
                f"redundantly actuated: {len(actuated)} actuators for {m} degrees of freedom, "
                "so infinitely many actuator forces produce this motion (Featherstone §8.12, "
                "case 2); pass allow_redundant=True for the minimum-norm forces"
            )
        u = _mv(np.linalg.pinv(_T(G_u)), rhs)
    else:
        u = np.linalg.solve(_T(G_u), rhs[..., None])[..., 0]
    tau = np.zeros(u.shape[:-1] + (model.nv,))
    tau[..., list(actuated)] = u
    return tau
