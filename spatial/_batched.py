"""Unvalidated batched kernels for the inner loops of the tree algorithms.

The public functions of :mod:`spatial.vectors` validate their arguments (shapes, finiteness,
the structure of a Plücker transform), which costs more than the arithmetic on 6-vectors.  They
do it once and then call the kernels here; the recursive algorithms validate ``q``, ``q̇``, ...
once at their entry point and call the kernels directly on the transforms they build.  Every
kernel accepts any leading batch dimensions and trusts its arguments.
"""

from __future__ import annotations

import numpy as np

# ------------------------------------------------------------------------ cross operators
# a× (eq. 2.23) and v× (eq. 2.31) are linear in a and v: each is one small matrix product with
# a constant basis whose row k is e_k× (3x3) or e_k× (6x6), flattened


def _skew_basis() -> np.ndarray:
    """The (3, 9) matrix whose row k is ``e_k×`` (eq. 2.23)."""
    basis = np.zeros((3, 3, 3))
    for k in range(3):
        i, j = (k + 1) % 3, (k + 2) % 3
        basis[k, j, i], basis[k, i, j] = 1.0, -1.0  # (e_k×) e_i = e_j
    return basis.reshape(3, 9)


_SKEW_BASIS = _skew_basis()


def _crm_basis() -> np.ndarray:
    """The (6, 36) matrix whose row k is ``e_k×`` for motion vectors (eq. 2.31)."""
    basis = np.zeros((6, 6, 6))
    for k in range(3):
        basis[k, :3, :3] = basis[k, 3:, 3:] = _SKEW_BASIS[k].reshape(3, 3)  # ω×
        basis[k + 3, 3:, :3] = _SKEW_BASIS[k].reshape(3, 3)  # v_O×
    return basis.reshape(6, 36)


_CRM_BASIS = _crm_basis()


def skew_matrix(a: np.ndarray) -> np.ndarray:
    """``a×`` (..., 3, 3) of 3-vectors ``a`` (..., 3) (eq. 2.23)."""
    return (a @ _SKEW_BASIS).reshape(a.shape[:-1] + (3, 3))


def crm_matrix(v: np.ndarray) -> np.ndarray:
    """``v×`` (..., 6, 6) of motion vectors ``v`` (..., 6) (eq. 2.31)."""
    return (v @ _CRM_BASIS).reshape(v.shape[:-1] + (6, 6))


#: Set by :func:`spatial.symbolic.generate` while it traces an algorithm (see :func:`symmetric`).
MIRROR_SYMMETRIC = False


def symmetric(M: np.ndarray) -> np.ndarray:
    """``M`` (..., n, n), known to be symmetric: returned as it is, unless code is generated.

    While :func:`spatial.symbolic.generate` traces an algorithm (``MIRROR_SYMMETRIC``), the
    entries of an object array below the diagonal are replaced by those above it, so the code
    generated from a symmetric product (``Xᵀ I X``, ``U D⁻¹ Uᵀ``) computes each pair of equal
    entries once: the lower ones become unused and are dropped.  Otherwise (numbers, or the
    operation counts of :mod:`spatial.cost`, which count what NumPy computes) it is the
    identity.
    """
    if M.dtype != object or not MIRROR_SYMMETRIC:
        return M
    lower = np.tril_indices(M.shape[-1], -1)
    out = M.copy()
    out[..., lower[0], lower[1]] = M[..., lower[1], lower[0]]
    return out


def T(X: np.ndarray) -> np.ndarray:
    """Transpose of the last two axes (``T(Xup[i])`` is the force transform ``^λ(i)X_i*``)."""
    return X.swapaxes(-1, -2)


def mv(X: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``X @ v`` over batches, for ``X`` (..., n, m) and ``v`` (..., m).

    A single matrix (a constant of the model) times a batch of vectors is one product
    ``v Xᵀ`` (BLAS), not a stack of small ones.
    """
    if X.ndim == 2:
        return v @ X.T
    return (X @ v[..., None])[..., 0]


def mTv(X: np.ndarray, f: np.ndarray) -> np.ndarray:
    """``Xᵀ @ f`` over batches; with ``X = ^iX_λ(i)`` this is ``^λ(i)X_i* f``."""
    if X.ndim == 2:
        return f @ X
    return (f[..., None, :] @ X)[..., 0, :]


def cross_motion(v: np.ndarray, m: np.ndarray) -> np.ndarray:
    """``v × m`` for motion vectors (..., 6) (eq. 2.33)."""
    return mv(crm_matrix(v), m)


def force_cross_bar(h: np.ndarray) -> np.ndarray:
    """The matrix ``h ×̄`` (..., 6, 6) with ``(h ×̄) v = v ×* h`` for forces ``h = [n; f]`` (..., 6).

    ``v ×* h`` (eq. 2.34) is linear in ``v`` too; this is its matrix, ``[[-n×, -f×], [-f×, 0]]``.
    """
    n_x, f_x = skew_matrix(h[..., :3]), skew_matrix(h[..., 3:])
    out = np.zeros(h.shape[:-1] + (6, 6), _dtype(h))
    out[..., :3, :3] = -n_x
    out[..., :3, 3:] = -f_x
    out[..., 3:, :3] = -f_x
    return out


# ----------------------------------------------------------------------- Plücker transforms
# X = [[E, 0], [B, E]] with B = -E r× (eq. 2.24); every kernel reads only the blocks E and B


def _dtype(*arrays) -> np.dtype:
    """The type of a result built from ``arrays``: at least float64 (object for symbols)."""
    return np.result_type(*arrays, np.float64)


def rot(E: np.ndarray) -> np.ndarray:
    """``rot(E) = blkdiag(E, E)`` (..., 6, 6) (Table 2.2)."""
    X = np.zeros(E.shape[:-2] + (6, 6), _dtype(E))
    X[..., :3, :3] = E
    X[..., 3:, 3:] = E
    return X


def plux(E: np.ndarray, r: np.ndarray) -> np.ndarray:
    """``rot(E) xlt(r) = [[E, 0], [-E r×, E]]`` (eq. 2.24); ``E`` and ``r`` broadcast."""
    E, r = np.asarray(E), np.asarray(r)
    X = np.zeros(np.broadcast_shapes(E.shape[:-2], r.shape[:-1]) + (6, 6), _dtype(E, r))
    X[..., :3, :3] = E
    X[..., 3:, 3:] = E
    X[..., 3:, :3] = -E @ skew_matrix(r)
    return X


def xinv(X: np.ndarray) -> np.ndarray:
    """``X⁻¹ = [[Eᵀ, 0], [Bᵀ, Eᵀ]]`` (eq. 2.26), by transposing the 3x3 blocks."""
    E_T, B_T = T(X[..., :3, :3]), T(X[..., 3:, :3])
    Y = np.zeros(X.shape, _dtype(X))
    Y[..., :3, :3] = E_T
    Y[..., 3:, 3:] = E_T
    Y[..., 3:, :3] = B_T
    return Y


def inv_motion(X: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``X⁻¹ v`` for motion vectors ``v`` (..., 6) (Table A.4): ``[Eᵀ ω; Bᵀ ω + Eᵀ v_O]``."""
    w, u = v[..., None, :3], v[..., None, 3:]
    return np.concatenate(
        [(w @ X[..., :3, :3])[..., 0, :], (w @ X[..., 3:, :3] + u @ X[..., 3:, 3:])[..., 0, :]], -1
    )


def apply_force(X: np.ndarray, f: np.ndarray) -> np.ndarray:
    """``X* f = [E n + B f; E f]`` for force vectors ``f = [n; f]`` (..., 6) (eq. 2.25)."""
    E = X[..., :3, :3]
    n, g = f[..., :3, None], f[..., 3:, None]
    return np.concatenate([(E @ n + X[..., 3:, :3] @ g)[..., 0], (E @ g)[..., 0]], -1)


def transform_inertia(X: np.ndarray, I: np.ndarray) -> np.ndarray:
    """``X* I X⁻¹`` (..., 6, 6) (eq. 2.66), with ``X* = X⁻ᵀ``."""
    Xi = xinv(X)
    return T(Xi) @ I @ Xi


# ----------------------------------------------------------------------- small linear solves


def spd_solve(D: np.ndarray, B: np.ndarray) -> np.ndarray:
    """``D⁻¹ B`` for small symmetric positive-definite ``D`` (..., n, n) and ``B`` (..., n, k).

    ``n = 1`` (a 1-DoF joint's ``D_i``) is a division and ``n = 0`` an empty result.  float32
    and float64 arrays go to LAPACK (``np.linalg.solve``); the types LAPACK does not take are
    solved by an ``LDLᵀ`` factorization written out entry by entry (a square-root-free
    Cholesky, Featherstone §6.2), reading ``D``'s lower triangle only: long doubles, kept in
    their precision, and object arrays, the symbols of :mod:`spatial.symbolic`, on which the
    same call becomes straight-line code.
    """
    n = D.shape[-1]
    if n == 1:
        return B / D
    if D.dtype in _LAPACK_TYPES and B.dtype in _LAPACK_TYPES:
        return np.linalg.solve(D, B)
    return _ldlt_solve(D, B)


_LAPACK_TYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _ldlt_solve(D: np.ndarray, B: np.ndarray) -> np.ndarray:
    """``D⁻¹ B`` by ``D = L diag(d) Lᵀ`` (unit lower ``L``), entry by entry on any array type."""
    n = D.shape[-1]
    L = [[None] * n for _ in range(n)]
    d = [None] * n
    for j in range(n):
        d[j] = D[..., j, j] - sum((L[j][k] * L[j][k] * d[k] for k in range(j)), 0.0)
        for i in range(j + 1, n):
            s = D[..., i, j] - sum((L[i][k] * L[j][k] * d[k] for k in range(j)), 0.0)
            L[i][j] = s / d[j]
    L = [[None if x is None else np.asarray(x)[..., None] for x in row] for row in L]
    d = [np.asarray(x)[..., None] for x in d]  # as columns, to scale the rows of B
    x = [B[..., i, :] for i in range(n)]
    for i in range(n):  # L y = B
        x[i] = x[i] - sum((L[i][k] * x[k] for k in range(i)), 0.0)
    for i in range(n - 1, -1, -1):  # Lᵀ x = y / d
        x[i] = x[i] / d[i] - sum((L[k][i] * x[k] for k in range(i + 1, n)), 0.0)
    if n == 0:
        return np.zeros(B.shape, B.dtype)
    return np.stack(x, -2)
