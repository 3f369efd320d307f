"""The sparse matrix method: every body and joint in one sparse system (§8.13, eq. 8.64).

The spanning-tree methods pay twice for loops: ``K`` couples the joints around each loop, and a
long chain left in the tree (a ladder's rail, Figure 8.4) fills ``H`` with ``O(n²)`` entries.
The sparse matrix method skips the spanning tree.  Its unknowns are the spatial acceleration
``a_i`` of every body and the constraint-force variables ``λ_j`` of every joint, tree and loop
alike, and its equations are

1. each body's equation of motion (Newton–Euler in base coordinates), in which joint ``j``
   pushes on its successor with ``T_j λ_j + T^a_j τ_j`` and on its predecessor with the
   opposite force;
2. each joint's acceleration constraint: the relative acceleration of its two bodies has no
   component along ``T_j``, the derivative of ``T_jᵀ(v_s - v_p) = 0``.

Together they form ``[[I, P T], [Tᵀ Pᵀ, 0]] [a; -λ] = b`` (eq. 8.64): symmetric, with ``I`` and
``T`` block diagonal and ``P`` the ±1 body–joint incidence.  Each joint row touches only its
two bodies, so ordering every joint right after the later of its bodies gives a band whose
width does not grow with the ladder's length: ``O(n)`` work.  The joint accelerations follow
from the body accelerations at the end.  The matrix is singular when constraints are
redundant (a planar loop of pins), which this method cannot absorb.

This is the only module of the package that needs ``scipy.sparse``; :mod:`spatial.dynamics.loops`
imports it on first use, so ``import spatial`` does not load SciPy's sparse machinery.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import scipy.sparse
import scipy.sparse.linalg

from ...model import Model
from ...vectors import cross_force, cross_motion
from .constraints import _active_subspace, _external_forces, _loop_frames, _tree_state

__all__ = ["SparseSystem", "sparse_system", "sparse_matrix_method"]


@dataclass(frozen=True)
class SparseSystem:
    """The sparse equation of motion of eq. 8.64 for one state (Featherstone §8.13, §3.7).

    Unknowns ``x = [a; -λ]``: the spatial accelerations of all bodies (base coordinates) and
    the constraint force variables of every joint, tree and loop alike; ``A x = b`` with
    ``A = [[I, P T], [Tᵀ Pᵀ, 0]]`` symmetric and sparse.

    Attributes
    ----------
    A : scipy.sparse.csr_array, shape (N, N)
        ``N = 6 N_B + n^c_tot``.
    b : ndarray, shape (N,)
    labels : tuple of str
        One per block: ``"body i"``, ``"joint i"`` (tree joint of body ``i``), ``"loop l"``.
    blocks : tuple of slice
        Rows (and columns) of each block, in the order of ``labels``: bodies first, then the
        tree joints, then the loop joints.
    banded_order : ndarray of int, shape (N,)
        A symmetric permutation that puts each joint's rows right after the later of the two
        bodies it connects (Figure 8.4): ``A[order][:, order]``.  For a ladder its bandwidth
        does not grow with the length of the ladder.
    """

    A: scipy.sparse.csr_array
    b: np.ndarray
    labels: tuple[str, ...]
    blocks: tuple[slice, ...]
    banded_order: np.ndarray


def _single_state(model: Model, q, qd, tau):
    q, qd, _, tau = model.check_state(q, qd, None, np.zeros(model.nv) if tau is None else tau)
    if q.ndim != 1 or qd.ndim != 1 or tau.ndim != 1:
        raise ValueError("the sparse matrix method works on one state at a time (no batch)")
    return q, qd, tau


def _joint_terms(model: Model, q, qd, X0):
    """Per joint (tree joints, then loop joints): label, p, s, X_s, T, T^a, c_J (F_s coords)."""
    terms = []
    for i in range(1, model.NB + 1):
        joint, q_i = model.joints[i], q[model.q_index[i]]
        S = joint.motion_subspace(q_i)
        Ta = _active_subspace(S)
        c_J = joint.bias(q_i, qd[model.v_index[i]])
        terms.append(
            (f"joint {i}", model.parent[i], i, X0[i], joint.constraint_subspace(q_i), Ta, c_J)
        )
    for l, lj in enumerate(model.loop_joints):
        _, Xs = _loop_frames(model, X0, l)
        T = lj.joint.constraint_subspace(lj.joint.neutral())
        terms.append((f"loop {l}", lj.predecessor, lj.successor, Xs, T, None, np.zeros(6)))
    return terms


def sparse_system(model: Model, q, qd, tau=None, tau_loop=None, f_ext=None) -> SparseSystem:
    """Assemble eq. 8.64: every body and every joint at once, no spanning tree (§8.13).

    Body ``i`` (base coordinates): ``I_i a_i + v_i ×* I_i v_i = Σ_j P_ij (T_j λ_j + T^a_j τ_j)
    + I_i a_g + f^x_i`` with ``P_ij = +1`` if ``i = s(j)``, ``-1`` if ``i = p(j)``; joint ``j``:
    ``T_jᵀ (a_s - a_p) = T_jᵀ (^0X_s c_J + v_s × (v_s - v_p))``, the derivative of
    ``T_jᵀ (v_s - v_p) = 0`` (for a loop joint ``c_J`` drops out, as in eq. 8.47).  ``T^a τ``
    are the tree joints' forces; active loop-joint forces enter as external forces.

    Parameters
    ----------
    model : Model
    q : array_like, shape (nq,)
    qd : array_like, shape (nv,)
    tau : array_like, shape (nv,), optional
    tau_loop : array_like, optional
    f_ext : array_like, shape (NB + 1, 6), optional

    Returns
    -------
    SparseSystem

    Raises
    ------
    ValueError
        If an input is invalid or batched.
    """
    q, qd, tau = _single_state(model, q, qd, tau)
    f_x = _external_forces(model, q, tau_loop, f_ext)
    st = _tree_state(model, q, qd)
    NB = model.NB
    terms = _joint_terms(model, q, qd, st.X0)
    sizes = [6] * NB + [T.shape[1] for *_, T, _, _ in terms]
    starts = np.concatenate([[0], np.cumsum(sizes)])
    blocks = tuple(slice(int(a), int(b)) for a, b in zip(starts[:-1], starts[1:], strict=True))
    N = int(starts[-1])
    A = np.zeros((N, N))  # assembled dense, stored sparse (the systems here are small)
    b = np.zeros(N)
    for i in range(1, NB + 1):
        I0 = st.X0[i].T @ model.inertia[i] @ st.X0[i]  # ^0X_i* I_i ^iX_0
        rows = blocks[i - 1]
        A[rows, rows] = I0
        b[rows] = -cross_force(st.v[i], I0 @ st.v[i]) + I0 @ model.a_grav
        if f_x is not None:
            b[rows] += f_x[i]
    for j, (_, p, s, Xs, T, Ta, c_J) in enumerate(terms):
        rows = blocks[NB + j]
        Tw = Xs.T @ T  # force subspace in base coordinates
        for body, sign in ((s, 1.0), (p, -1.0)):
            if body != 0:
                A[blocks[body - 1], rows] = sign * Tw
                A[rows, blocks[body - 1]] = sign * Tw.T
        v_p = st.v[p] if p != 0 else np.zeros(6)
        b[rows] = T.T @ c_J + Tw.T @ cross_motion(st.v[s], st.v[s] - v_p)
        if Ta is not None:
            f_a = Xs.T @ (Ta @ tau[model.v_index[s]])
            b[blocks[s - 1]] += f_a
            if p != 0:
                b[blocks[p - 1]] -= f_a
    later = list(range(1, NB + 1)) + [max(p, s) for _, p, s, *_ in terms]
    order = sorted(range(len(blocks)), key=lambda n: (later[n], n >= NB))
    banded = np.concatenate([np.arange(blocks[n].start, blocks[n].stop) for n in order])
    labels = tuple(f"body {i}" for i in range(1, NB + 1)) + tuple(t[0] for t in terms)
    return SparseSystem(scipy.sparse.csr_array(A), b, labels, blocks, banded)


def sparse_matrix_method(model: Model, q, qd, tau=None, tau_loop=None, f_ext=None) -> np.ndarray:
    """Forward dynamics by the sparse matrix method (Featherstone §8.13, eq. 8.64).

    Assembles :func:`sparse_system`, factorizes it with a sparse LU (SuperLU, which picks a
    fill-reducing ordering) and recovers the tree-joint accelerations from the body
    accelerations: ``S_i q̈_i = ^iX_0 (a_i - a_λ(i) - v_i × (v_i - v_λ(i))) - c_J``.  The
    coefficient matrix must be non-singular, i.e. the system properly constrained (``r = n^c``
    over all joints): planar mechanisms with revolute joints are overconstrained and rejected.

    Parameters
    ----------
    model : Model
    q : array_like, shape (nq,)
    qd : array_like, shape (nv,)
    tau : array_like, shape (nv,), optional
    tau_loop : array_like, optional
    f_ext : array_like, shape (NB + 1, 6), optional

    Returns
    -------
    qdd : ndarray, shape (nv,)

    Raises
    ------
    ValueError
        If an input is invalid or batched, or the coefficient matrix is singular.
    """
    q, qd, tau = _single_state(model, q, qd, tau)
    system = sparse_system(model, q, qd, tau, tau_loop, f_ext)
    singular = ValueError(
        "sparse_matrix_method: the coefficient matrix of eq. 8.64 is singular: the mechanism "
        "is overconstrained (redundant joint constraints, e.g. a planar loop of revolute "
        "joints) or at a singular configuration; the spanning-tree methods handle it"
    )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", scipy.sparse.linalg.MatrixRankWarning)
            lu = scipy.sparse.linalg.splu(system.A.tocsc())
    except (RuntimeError, scipy.sparse.linalg.MatrixRankWarning):
        raise singular from None
    pivots = np.abs(lu.U.diagonal())
    if pivots.min() <= 1e-12 * pivots.max():
        raise singular
    x = lu.solve(system.b)
    st = _tree_state(model, q, qd)
    a = [np.zeros(6)] + [x[6 * (i - 1) : 6 * i] for i in range(1, model.NB + 1)]
    qdd = np.zeros(model.nv)
    for i in range(1, model.NB + 1):
        p, joint = model.parent[i], model.joints[i]
        q_i, qd_i = q[model.q_index[i]], qd[model.v_index[i]]
        S = joint.motion_subspace(q_i)
        rel = st.X0[i] @ (a[i] - a[p] - cross_motion(st.v[i], st.v[i] - st.v[p]))
        rel = rel - joint.bias(q_i, qd_i)
        qdd[model.v_index[i]] = _active_subspace(S).T @ rel  # (SᵀS)⁻¹ Sᵀ
    return qdd
