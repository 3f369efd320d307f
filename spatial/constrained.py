"""A single rigid body under a joint constraint, solved three ways (Featherstone §3.6).

A body joined to the fixed base by a joint with motion subspace ``S`` (``n_f`` freedoms) obeys
``f + f_c = I a + p`` (eq. 3.45), where ``p = v ×* I v - f_g`` collects the bias terms and the
constraint force ``f_c`` is unknown; the joint allows ``v ∈ S`` and transmits ``f_c ∈ S⊥``
(eq. 3.46).  The section eliminates ``f_c`` in three ways, which must agree:

1. **Motion subspace** (:func:`constrained_acceleration`): with ``v = S q̇`` and
   ``a = S q̈ + Ṡ q̇`` (eqs. 3.47–3.49), multiplying by ``Sᵀ`` removes ``f_c`` (``Sᵀ f_c = 0``,
   eq. 3.48) and gives ``a = Φ f + b`` with the apparent inverse inertia
   ``Φ = S (SᵀIS)⁻¹ Sᵀ`` and the bias acceleration ``b = Ṡq̇ - Φ (I Ṡq̇ + p)`` (eqs. 3.51–3.55;
   :func:`apparent_inverse_inertia`).
2. **Constraint-force subspace** (:func:`constrained_acceleration_kkt`): with ``T`` spanning
   ``S⊥``, ``f_c = T λ`` and ``Tᵀ a + Ṫᵀ v = 0`` (eqs. 3.56–3.58) give the symmetric indefinite
   system of eq. 3.60 in ``a`` and ``λ``: the "big matrix" form that §3.7 assembles for a whole
   multibody system.
3. **Generalized coordinates** (:func:`generalized_equation`): ``τ = Sᵀ f`` (eq. 3.61) turns
   method 1 into ``H q̈ + C = τ`` with ``H = SᵀIS`` and ``C = Sᵀ(I Ṡq̇ + p)`` (eqs. 3.62–3.64),
   the one-body case of the joint-space equation the CRBA and RNEA compute.

**Many bodies** (§3.7, :func:`big_matrix_system`, :func:`big_matrix_dynamics`).  Method 2
scales to a whole system: stack the body equations ``f = I a + p`` (eq. 3.66, ``I`` block
diagonal), express joint motion by the incidence matrix ``P`` (``a_J = Pᵀ a``, eqs.
3.67–3.69) and body forces by joint forces (``f = P f_J``, eq. 3.70), write each joint force
as ``T_a τ + T λ`` (eq. 3.73) and each joint's acceleration constraint with its ``T_j``
(eq. 3.71); the result is eq. 3.74, ``[[I, PT], [TᵀPᵀ, 0]] [a; -λ] = [P T_a τ - p; -ṪᵀPᵀv]``,
in body accelerations and constraint forces, with all vectors here in base coordinates.  It
gives the same motion as the ABA, and its joint forces are the RNEA's.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._validate import as_array, real_array
from .kinematics import body_velocities, forward_kinematics
from .model import Model
from .vectors import crf, crm, xinv

__all__ = [
    "apparent_inverse_inertia",
    "constrained_acceleration",
    "constrained_acceleration_kkt",
    "generalized_equation",
    "BigMatrixSystem",
    "big_matrix_system",
    "big_matrix_dynamics",
]


def _inertia(I) -> np.ndarray:
    I = as_array(I, "I", (6, 6))
    if I.ndim != 2:
        raise ValueError(f"I must be one 6x6 inertia, got shape {I.shape}")
    if not np.allclose(I, I.T, rtol=1e-10, atol=1e-12 * max(1.0, float(np.abs(I).max()))):
        raise ValueError("I is not symmetric")
    return I


def _basis(B, name: str) -> np.ndarray:
    B = real_array(B, name)
    if B.ndim != 2 or B.shape[0] != 6 or not 0 < B.shape[1] <= 6 or not np.all(np.isfinite(B)):
        raise ValueError(f"{name} must be a finite 6 x k matrix with 1 ≤ k ≤ 6, got {B.shape}")
    if np.linalg.matrix_rank(B) < B.shape[1]:
        raise ValueError(f"the columns of {name} are linearly dependent")
    return B


def _vec(x, name: str, n: int) -> np.ndarray:
    x = as_array(np.zeros(n) if x is None else x, name, (n,))
    if x.ndim != 1:
        raise ValueError(f"{name} must have shape ({n},), got {x.shape}")
    return x


def _H(I: np.ndarray, S: np.ndarray) -> np.ndarray:
    H = S.T @ I @ S
    if np.any(np.linalg.eigvalsh(H) <= 0):
        raise ValueError("SᵀIS is not positive definite: I must be positive definite on S")
    return H


def apparent_inverse_inertia(I, S) -> np.ndarray:
    """``Φ = S (SᵀIS)⁻¹ Sᵀ`` (eq. 3.54): range ``S``, null space ``S⊥``, rank ``n_f``.

    Parameters
    ----------
    I : array_like, shape (6, 6)
        Spatial inertia of the body.
    S : array_like, shape (6, n_f)
        Basis of the joint's motion subspace.

    Raises
    ------
    ValueError
        If ``I`` is not a symmetric 6x6 matrix positive definite on ``S``, or ``S`` is not a
        6 x n_f matrix of independent columns.
    """
    I, S = _inertia(I), _basis(S, "S")
    return S @ np.linalg.solve(_H(I, S), S.T)


def constrained_acceleration(I, S, f, p=None, Sdot_qd=None) -> tuple[np.ndarray, np.ndarray]:
    """Method 1: ``a = Φ f + b`` and ``q̈`` of a body on a joint (eqs. 3.51–3.55).

    Parameters
    ----------
    I : array_like, shape (6, 6)
    S : array_like, shape (6, n_f)
    f : array_like, shape (6,)
        Applied force.
    p : array_like, shape (6,), optional
        Bias force ``v ×* I v - f_g`` (default zero).
    Sdot_qd : array_like, shape (6,), optional
        ``Ṡ q̇`` (default zero).

    Returns
    -------
    a : ndarray, shape (6,)
    qdd : ndarray, shape (n_f,)

    Raises
    ------
    ValueError
        As :func:`apparent_inverse_inertia`, or for vectors of the wrong shape.
    """
    I, S = _inertia(I), _basis(S, "S")
    f, p, Sdot_qd = _vec(f, "f", 6), _vec(p, "p", 6), _vec(Sdot_qd, "Sdot_qd", 6)
    qdd = np.linalg.solve(_H(I, S), S.T @ (f - I @ Sdot_qd - p))
    return S @ qdd + Sdot_qd, qdd


def constrained_acceleration_kkt(I, T, f, p=None, Tdot_v=None) -> tuple[np.ndarray, np.ndarray]:
    """Method 2: solve ``[[I, T], [Tᵀ, 0]] [a; -λ] = [f - p; -Ṫᵀv]`` (eq. 3.60).

    Parameters
    ----------
    I : array_like, shape (6, 6)
    T : array_like, shape (6, n_c)
        Basis of the constraint-force subspace ``S⊥``.
    f, p : array_like, shape (6,)
        Applied and bias force (``p`` default zero).
    Tdot_v : array_like, shape (n_c,), optional
        ``Ṫᵀ v`` (default zero).

    Returns
    -------
    a : ndarray, shape (6,)
    lam : ndarray, shape (n_c,)
        Constraint force variables, ``f_c = T λ``.

    Raises
    ------
    ValueError
        If ``I`` is not a symmetric 6x6 matrix, ``T`` not a 6 x n_c matrix of independent
        columns, or a vector has the wrong shape.
    """
    I, T = _inertia(I), _basis(T, "T")
    nc = T.shape[1]
    f, p, Tdot_v = _vec(f, "f", 6), _vec(p, "p", 6), _vec(Tdot_v, "Tdot_v", nc)
    K = np.block([[I, T], [T.T, np.zeros((nc, nc))]])
    x = np.linalg.solve(K, np.concatenate([f - p, -Tdot_v]))
    return x[:6], -x[6:]


def generalized_equation(I, S, p=None, Sdot_qd=None) -> tuple[np.ndarray, np.ndarray]:
    """Method 3: ``H = SᵀIS`` and ``C = Sᵀ(I Ṡq̇ + p)`` of ``H q̈ + C = τ`` (eqs. 3.62–3.64).

    Raises
    ------
    ValueError
        As :func:`constrained_acceleration`.
    """
    I, S = _inertia(I), _basis(S, "S")
    p, Sdot_qd = _vec(p, "p", 6), _vec(Sdot_qd, "Sdot_qd", 6)
    return _H(I, S), S.T @ (I @ Sdot_qd + p)


class BigMatrixSystem(NamedTuple):
    """The pieces of eq. 3.74 for a tree at one state, all in base coordinates (§3.7).

    Attributes
    ----------
    P : ndarray, shape (6 N_B, 6 N_J)
        Incidence matrix (eq. 3.69): block ``(i, j)`` is ``1`` if body ``i`` is joint ``j``'s
        successor, ``-1`` if it is its predecessor, else ``0``.
    I : ndarray, shape (6 N_B, 6 N_B)
        Block-diagonal body inertias (eq. 3.66).
    T : ndarray, shape (6 N_J, n_c)
        Block-diagonal constraint-force bases ``T_j`` (spanning ``S_j⊥``, eq. 3.71).
    Ta : ndarray, shape (6 N_J, n)
        Block-diagonal active-force bases ``T_aj`` with ``T_ajᵀ S_j = 1`` (eq. 3.73).
    S : ndarray, shape (6 N_J, n)
        Block-diagonal motion subspaces ``S_j``.
    p : ndarray, shape (6 N_B,)
        Bias forces ``v_i ×* I_i v_i - I_i a_g`` (eq. 3.65).
    k : ndarray, shape (n_c,)
        ``-Ṫᵀ Pᵀ v``, the right-hand side of the acceleration constraint (eq. 3.72).
    matrix : ndarray, shape (6 N_B + n_c, 6 N_B + n_c)
        ``[[I, P T], [Tᵀ Pᵀ, 0]]``, the coefficient matrix of eq. 3.74.
    rhs : ndarray, shape (6 N_B + n_c,)
        ``[P T_a τ - p; k]``.
    """

    P: np.ndarray
    I: np.ndarray
    T: np.ndarray
    Ta: np.ndarray
    S: np.ndarray
    p: np.ndarray
    k: np.ndarray
    matrix: np.ndarray
    rhs: np.ndarray


def _blocks(blocks: list, rows: int) -> np.ndarray:
    """Block-diagonal matrix of 6 x k blocks (k may be 0)."""
    out = np.zeros((rows, sum(b.shape[1] for b in blocks)))
    col = 0
    for j, b in enumerate(blocks):
        out[6 * j : 6 * j + 6, col : col + b.shape[1]] = b
        col += b.shape[1]
    return out


def big_matrix_system(model: Model, q, qd, tau) -> BigMatrixSystem:
    """Assemble eq. 3.74 for a tree, ``[[I, PT], [TᵀPᵀ, 0]] [a; -λ] = [P T_a τ - p; -ṪᵀPᵀv]``.

    Each body ``i`` has joint ``i`` with predecessor ``λ(i)`` and successor ``i`` (so
    ``N_J = N_B``).  In base coordinates: ``I_i = ⁱX_0ᵀ I_i ⁱX_0``, ``p_i = v_i ×* I_i v_i -
    I_i a_g``; joint ``i`` has ``S = ⁰X_i S_i``, ``T = ⁱX_0ᵀ T_i`` (spanning ``S⊥``) and
    ``T_a = S (SᵀS)⁻¹`` (so ``Sᵀ T_a = 1``, eq. 3.35; any other complement of ``T`` changes only
    ``λ``); the acceleration across it is ``a_J = S q̈ + ⁰X_i c_J + v_i × v_J``, so its
    constraint reads ``Tᵀ a_J = Tᵀ (⁰X_i c_J + v_i × v_J)`` (eqs. 3.44, 3.71).

    Parameters
    ----------
    model : Model
    q : array_like, shape (nq,)
    qd, tau : array_like, shape (nv,)

    Returns
    -------
    BigMatrixSystem

    Raises
    ------
    ValueError
        If the state does not fit the model or is batched; if the model has loop joints (as
        :func:`spatial.aba`: eq. 3.74 here has the tree's joints only).
    """
    q, qd, tau, _ = model.check_state(q, qd, tau, tree_dynamics="big_matrix_system")
    if q.ndim != 1:
        raise ValueError(f"big_matrix_system takes one state, got q of shape {q.shape}")
    n = model.NB
    X_i0, v = [np.eye(6)], [np.zeros(6)]
    I_blocks, p, Ts, Tas, Ss, k = [], [], [], [], [], []
    for i in range(1, n + 1):
        X_J, S, v_J, c_J = model.joints[i].jcalc(q[model.q_index[i]], qd[model.v_index[i]])
        X_i0.append(X_J @ model.X_tree[i] @ X_i0[model.parent[i]])
        X_0i = xinv(X_i0[i])
        S0, vJ0 = X_0i @ S, X_0i @ v_J
        v.append(v[model.parent[i]] + vJ0)
        I0 = X_i0[i].T @ model.inertia[i] @ X_i0[i]
        I_blocks.append(I0)
        p.append(crf(v[i]) @ I0 @ v[i] - I0 @ model.a_grav)
        T0 = X_i0[i].T @ np.asarray(model.joints[i].constraint_subspace(q[model.q_index[i]]))
        Ts.append(T0)
        Ss.append(S0)
        Tas.append(S0 @ np.linalg.inv(S0.T @ S0))
        k.append(T0.T @ (X_0i @ c_J + crm(v[i]) @ vJ0))
    P = np.zeros((6 * n, 6 * n))  # body rows, joint columns (eq. 3.69); joint i joins λ(i) → i
    for i in range(1, n + 1):
        P[6 * (i - 1) : 6 * i, 6 * (i - 1) : 6 * i] = np.eye(6)
        if model.parent[i] > 0:
            j = model.parent[i]
            P[6 * (j - 1) : 6 * j, 6 * (i - 1) : 6 * i] = -np.eye(6)
    T, Ta, S_all = _blocks(Ts, 6 * n), _blocks(Tas, 6 * n), _blocks(Ss, 6 * n)
    I_big = _blocks(I_blocks, 6 * n)
    nc = T.shape[1]
    PT = P @ T
    matrix = np.block([[I_big, PT], [PT.T, np.zeros((nc, nc))]])
    k = np.concatenate(k) if nc else np.zeros(0)
    p = np.concatenate(p)
    rhs = np.concatenate([P @ Ta @ tau - p, k])
    return BigMatrixSystem(P, I_big, T, Ta, S_all, p, k, matrix, rhs)


def big_matrix_dynamics(model: Model, q, qd, tau) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Forward dynamics of a tree by the "big matrix" of eq. 3.74 (Featherstone §3.7).

    Assembles the system with :func:`big_matrix_system` and solves it densely, which costs
    ``O(N_B³)``: this is the formulation, not an efficient method.  The joint accelerations
    follow from the body accelerations: ``q̈_i`` solves ``S q̈_i = a_i - a_λ(i) - ⁰X_i c_J -
    v_i × v_J`` (least squares, exact for a consistent solve).

    Parameters
    ----------
    model : Model
    q : array_like, shape (nq,)
    qd, tau : array_like, shape (nv,)

    Returns
    -------
    qdd : ndarray, shape (nv,)
        Joint accelerations recovered from ``a_J`` (equal to :func:`spatial.aba`'s).
    a : ndarray, shape (NB, 6)
        Body accelerations in base coordinates.
    lam : ndarray, shape (n_c,)
        Constraint-force variables of all joints, in joint order.

    Raises
    ------
    ValueError
        If the state does not fit the model or is batched; if the model has loop joints (as
        :func:`spatial.aba`: eq. 3.74 here has the tree's joints only).
    """
    q, qd, tau, _ = model.check_state(q, qd, tau, tree_dynamics="big_matrix_dynamics")
    if q.ndim != 1:
        raise ValueError(f"big_matrix_dynamics takes one state, got q of shape {q.shape}")
    system = big_matrix_system(model, q, qd, tau)
    n = model.NB
    x = np.linalg.solve(system.matrix, system.rhs)
    a = x[: 6 * n].reshape(n, 6)
    qdd = np.zeros(model.nv)
    a_all = np.vstack([np.zeros(6), a])  # the base does not accelerate
    X_0 = forward_kinematics(model, q)
    v = body_velocities(model, q, qd, frame="world")
    for i in range(1, n + 1):
        X_J, S, v_J, c_J = model.joints[i].jcalc(q[model.q_index[i]], qd[model.v_index[i]])
        X_0i = xinv(X_0[i])
        S0 = X_0i @ S
        a_J = a_all[i] - a_all[model.parent[i]] - X_0i @ c_J - crm(v[i]) @ (X_0i @ v_J)
        qdd[model.v_index[i]] = np.linalg.lstsq(S0, a_J, rcond=None)[0]
    return qdd, a, -x[6 * n :]
