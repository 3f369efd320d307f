"""The joint-space inertia matrix ``H`` and the Coriolis matrix ``C(q, q̇)`` (Featherstone ch. 6).

The equation of motion of a kinematic tree is ``τ = H(q) q̈ + C(q, q̇, f^x)`` (eq. 6.1).  ``H``
is the matrix of the kinetic energy, ``T = ½ q̇ᵀ H q̇`` (eq. 6.10); block ``H_ij`` is non-zero
only when joint ``i`` supports joint ``j`` or the reverse (eq. 6.14), and then equals
``S_iᵀ I^c S_j`` with ``I^c`` the *composite* inertia of the subtree below the deeper of the two
(eqs. 6.12–6.13).

* :func:`crba` — the composite-rigid-body algorithm (Table 6.2);
* :func:`inertia_product` — ``τ = H q̈`` without forming ``H`` (Table 6.1);
* :func:`coriolis_matrix` — a matrix ``C(q, q̇)`` with ``C q̇`` the velocity-product part of
  the bias force and ``Ḣ = C + Cᵀ``, by a CRBA-like recursion (Echeandia & Wensing 2021).

The joint transforms ``^iX_λ(i)`` and subspaces ``S_i`` come from the forward kinematics pass
(as the book assumes them available from the RNEA); batches broadcast as everywhere else.
"""

from __future__ import annotations

import numpy as np

from .._batched import T as _T
from .._batched import force_cross_bar, xinv  # unvalidated: X_J is a joint's
from .._batched import mTv as _mTv
from .._batched import mv as _mv
from ..joints import Joint, Reversed
from ..kinematics import (
    _forward_pass,
    _joint_motion,
    _S_T_times,
    _times_S,
    _tree_factors,
    _tree_transforms,
)
from ..model import Model
from ..vectors import crf, crm, cross_motion
from ..vectors.factored import factored_force_T_columns, factored_inertia_T

__all__ = ["crba", "inertia_product", "coriolis_matrix"]


def crba(model: Model, q) -> np.ndarray:
    """Joint-space inertia matrix ``H(q)`` by the composite-rigid-body algorithm.

    Featherstone Table 6.2 (body coordinates): the composite inertias are accumulated from
    the leaves inwards, ``I^c_λ(i) += ^λ(i)X_i* I^c_i ^iX_λ(i)`` (eq. 6.17); for each body
    ``F = I^c_i S_i`` gives the diagonal block ``H_ii = S_iᵀ F`` and, carried towards the base
    by ``F = ^λ(j)X_j* F``, the off-diagonal blocks ``H_ij = Fᵀ S_j = H_jiᵀ`` for every
    ancestor ``j`` (eqs. 6.19–6.20).  Multi-DoF joints give ``n_i x n_j`` blocks.  Blocks
    between different branches are never touched and stay exactly zero (branch-induced
    sparsity, §6.4).  Cost ``O(n d)`` for a tree of depth ``d``.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)

    Returns
    -------
    ndarray, shape (..., nv, nv)
        ``H``, symmetric and positive definite (semi-definite if a body has no mass).

    Raises
    ------
    ValueError
        If ``q`` has the wrong shape, is complex, not finite or not a valid configuration.  If
        the model has loop joints (:meth:`~spatial.Model.check_tree`): pass
        ``model.spanning_tree()`` for the spanning tree's ``H`` (the ``H`` of Featherstone's
        ch. 8, which :func:`~spatial.dynamics.loops.loop_forward_dynamics` uses).
    """
    q, _, _, _ = model.check_state(q, tree_dynamics="crba")
    return _crba(model, q)


def _crba(model: Model, q: np.ndarray) -> np.ndarray:
    """Table 6.2 on a validated ``q``, with the transforms as ``rot(E) xlt(r)`` (Table A.4)."""
    X = _tree_factors(model, _tree_transforms(model, q), overwrite=True)  # rot(E_i) xlt(r_i)
    S = [None] + [
        _joint_motion(model, i, q[..., model.q_index[i]])[0] for i in range(1, model.NB + 1)
    ]
    H = np.zeros(q.shape[:-1] + (model.nv, model.nv), q.dtype)
    Ic = [None] + [model.inertia[i] for i in range(1, model.NB + 1)]
    axis = [None] + [model.unit_motion_axis(i) for i in range(1, model.NB + 1)]  # S = e_k
    for i in range(model.NB, 0, -1):
        p = model.parent[i]
        if p != 0:  # eq. 6.17, in compact form (Table A.4's X^T I X: m, h, Ī)
            Ic[p] = Ic[p] + factored_inertia_T(X[i], Ic[i])
        F = _times_S(Ic[i], S[i], axis[i])
        ii = model.v_index[i]
        H[..., ii, ii] = _S_T_times(S[i], F, axis[i])
        j = i
        while model.parent[j] != 0:
            F = factored_force_T_columns(X[j], F)  # ^λ(j)X_j* F: 24m + 18a per column
            j = model.parent[j]
            jj = model.v_index[j]
            H[..., jj, ii] = _S_T_times(S[j], F, axis[j])
            H[..., ii, jj] = _T(H[..., jj, ii])
    return H


def inertia_product(model: Model, q, qdd) -> np.ndarray:
    """``τ = H(q) q̈`` without forming ``H``: the differential inverse dynamics ``ID_δ``.

    Featherstone Table 6.1: the RNEA with velocities, gravity and external forces removed,
    ``a_i = ^iX_λ(i) a_λ(i) + S_i q̈_i`` (``a_0 = 0``), ``f_i = I_i a_i``, then
    ``τ_i = S_iᵀ f_i`` and ``f_λ(i) += ^λ(i)X_i* f_i`` from the leaves inwards (eq. 6.4).
    Cost ``O(N_B)``; ``inertia_product(q, e_k)`` is column ``k`` of ``H``.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qdd : array_like, shape (..., nv)

    Returns
    -------
    ndarray, shape (..., nv)

    Raises
    ------
    ValueError
        If a state array has the wrong shape, is complex, not finite or not a valid
        configuration, or the batch shapes do not broadcast; if the model has loop joints, as
        :func:`crba`.
    """
    q, _, qdd, _ = model.check_state(q, None, qdd, tree_dynamics="inertia_product")
    fp = _forward_pass(model, q)
    Xup, S = fp.Xup, fp.S
    batch = np.broadcast_shapes(q.shape[:-1], qdd.shape[:-1])
    a, f = [np.zeros(batch + (6,))], [None]
    for i in range(1, model.NB + 1):
        a.append(_mv(Xup[i], a[model.parent[i]]) + _mv(S[i], qdd[..., model.v_index[i]]))
        f.append(_mv(model.inertia[i], a[i]))
    tau = np.zeros(batch + (model.nv,))
    for i in range(model.NB, 0, -1):
        tau[..., model.v_index[i]] = _mTv(S[i], f[i])
        p = model.parent[i]
        if p != 0:
            f[p] = f[p] + _mTv(Xup[i], f[i])
    return tau


# ----------------------------------------------------------------------------- Coriolis matrix


def _body_coriolis(v: np.ndarray, I: np.ndarray) -> np.ndarray:
    """``B(v, I) = ½ (v ×* I - I v× + (I v) ×̄)``: ``B v = v ×* I v`` and ``B + Bᵀ = v×* I - I v×``.

    The Coriolis factorization of one rigid body (Niemeyer & Slotine 1991; Echeandia &
    Wensing 2021).  It is covariant: ``B(X v, X* I X⁻¹) = X* B(v, I) X⁻¹``.
    """
    return 0.5 * (crf(v) @ I - I @ crm(v) + force_cross_bar(_mv(I, v)))


def _subspace_rate(joint: Joint, q: np.ndarray, qd: np.ndarray) -> np.ndarray:
    """``S̊(α)``: the rate of change of ``S`` in successor coordinates, ``c_J = S̊ α`` (eq. 3.42).

    The joints supply only ``c_J = S̊(α) α``; ``C(q, q̇)`` needs ``S̊(α)`` itself, a matrix
    linear in ``α`` (``S̊(α) β = Σ_k α_k ∂S/∂q_k β`` when ``α = q̇``).  Cases:

    * :class:`~spatial.joints.Reversed` ``(j)``: with ``S' = -X⁻¹ S`` and ``Ẋ = -(v_J×) X``,
      ``S̊' = -X⁻¹ ((S α)× S + S̊)`` in terms of the wrapped joint's ``X, S, S̊``;
    * velocity variables that are not ``q̇`` (the joint overrides ``q_dot``: Planar,
      Spherical, Free): their ``S`` is constant, so ``S̊ = 0`` (checked);
    * ``α = q̇``: differentiating ``∂X/∂q_k = -(S_k×) X`` twice and equating mixed partials
      gives ``∂_b S_a - ∂_a S_b = S_a × S_b``.  So the antisymmetric part of the bilinear form
      ``S̊(α) β`` is ``-½ (S α) × (S β)``, and its symmetric part is the polarization of the
      quadratic ``c_J``:  ``S̊(α) β = ½ (c_J(α + β) - c_J(α) - c_J(β) - (S α) × (S β))``.

    Raises
    ------
    ValueError
        For a joint whose velocity variables are not ``q̇`` and whose ``S`` varies with ``q``.
    """
    if isinstance(joint, Reversed):
        X, S = joint.joint.transform(q), joint.joint.motion_subspace(q)
        v_J = _mv(S, qd)
        return -xinv(X) @ (crm(v_J) @ S + _subspace_rate(joint.joint, q, qd))
    S = joint.motion_subspace(q)
    shape = np.broadcast_shapes(S.shape[:-2], qd.shape[:-1]) + S.shape[-2:]
    if type(joint).q_dot is not Joint.q_dot:
        if not np.array_equal(S, np.broadcast_to(joint.motion_subspace(joint.neutral()), S.shape)):
            raise ValueError(
                f"coriolis_matrix: joint {joint!r} has velocity variables that are not q̇ and a "
                "motion subspace that varies with q; its S̊ is not available"
            )
        return np.zeros(shape)
    c_J = joint.bias(q, qd)
    v_J = _mv(S, qd)
    columns = []
    for b, e in enumerate(np.eye(joint.nv)):
        polar = joint.bias(q, qd + e) - c_J - joint.bias(q, e)
        columns.append(0.5 * (polar - cross_motion(v_J, S[..., :, b])))
    return np.stack(columns, -1) if columns else np.zeros(shape)


def coriolis_matrix(model: Model, q, qd) -> np.ndarray:
    """A Coriolis matrix ``C(q, q̇)`` with ``C q̇ = C(q, q̇, 0)|_(g=0)`` and ``Ḣ = C + Cᵀ``.

    The velocity-product forces are quadratic in ``q̇`` and can be written ``C(q, q̇) q̇`` in
    many ways; this one makes ``Ḣ - 2C`` skew-symmetric, the property passivity-based
    controllers and energy arguments rely on.  It is built body by body.  With ``J_k`` the
    Jacobian of body ``k`` (``v_k = J_k q̇``, body coordinates) and

    ``B_k = ½ (v_k ×* I_k - I_k v_k× + (I_k v_k) ×̄)``   (``(h ×̄) v = v ×* h``),

    ``C = Σ_k J_kᵀ (I_k J̊_k + B_k J_k)``, where ``J̊_k`` has the blocks ``^kX_j Ṡ_j`` with
    ``Ṡ_j = v_j × S_j + S̊_j`` (the derivative of ``S_j`` seen from the base, eq. 5.15).
    Then ``C q̇ = Σ J_kᵀ (I_k a_k + v_k ×* I_k v_k)`` at ``q̈ = 0``, and ``C + Cᵀ = Ḣ`` because
    ``B_k + B_kᵀ`` cancels the terms that come from the rotating body frames.  Collecting
    the sum over the subtree of each joint gives a recursion like the CRBA (Table 6.2) with
    composite ``I^c_i`` and ``B^c_i = Σ_{k∈ν(i)} B_k``: for ``j`` an ancestor of ``i`` (or
    ``i`` itself),

    ``C_ij = (I^c_i S_i)ᵀ Ṡ_j + (B^cᵀ_i S_i)ᵀ S_j`` and ``C_ji = S_jᵀ (I^c_i Ṡ_i + B^c_i S_i)``,

    the three 6-column blocks being carried to body ``j`` by ``^λ(j)X_j*`` as ``F`` is in the
    CRBA.  This is the algorithm of Echeandia & Wensing, "Numerical methods to compute the
    Coriolis matrix and Christoffel symbols for rigid-body systems", J. Comput. Nonlinear
    Dynam. 16(9), 2021, written in body coordinates.  Cost ``O(n d)``.  When every joint's
    velocity variables are ``q̇`` this ``C`` is the one given by the Christoffel symbols of
    ``H``, ``C_ij = Σ_k ½ (∂_k H_ij + ∂_j H_ik - ∂_i H_jk) q̇_k`` (checked in the tests).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)

    Returns
    -------
    ndarray, shape (..., nv, nv)

    Raises
    ------
    ValueError
        If a state array is invalid, or a joint's ``S̊`` is unavailable (a joint whose velocity
        variables are not ``q̇`` with an ``S`` that varies with ``q``); if the model has loop
        joints, as :func:`crba`.
    """
    q, qd, _, _ = model.check_state(q, qd, tree_dynamics="coriolis_matrix")
    fp = _forward_pass(model, q, qd)
    Xup, S, v = fp.Xup, fp.S, fp.v
    batch = np.broadcast_shapes(q.shape[:-1], qd.shape[:-1])
    C = np.zeros(batch + (model.nv, model.nv))
    Ic, Bc, Sd = [None], [None], [None]
    for i in range(1, model.NB + 1):
        q_i, qd_i = q[..., model.q_index[i]], qd[..., model.v_index[i]]
        Ic.append(model.inertia[i])
        Bc.append(_body_coriolis(v[i], model.inertia[i]))
        Sd.append(crm(v[i]) @ S[i] + _subspace_rate(model.joints[i], q_i, qd_i))
    for i in range(model.NB, 0, -1):
        p = model.parent[i]
        if p != 0:
            Ic[p] = Ic[p] + _T(Xup[i]) @ Ic[i] @ Xup[i]
            Bc[p] = Bc[p] + _T(Xup[i]) @ Bc[i] @ Xup[i]
        F1, F2 = Ic[i] @ S[i], _T(Bc[i]) @ S[i]
        F3 = Ic[i] @ Sd[i] + Bc[i] @ S[i]
        ii = model.v_index[i]
        C[..., ii, ii] = _T(S[i]) @ F3
        j = i
        while model.parent[j] != 0:
            F1, F2, F3 = _T(Xup[j]) @ F1, _T(Xup[j]) @ F2, _T(Xup[j]) @ F3
            j = model.parent[j]
            jj = model.v_index[j]
            C[..., ii, jj] = _T(F1) @ Sd[j] + _T(F2) @ S[j]
            C[..., jj, ii] = _T(S[j]) @ F3
    return C
