"""KKT systems, constraint projections, Gauss–Seidel on constraints (ArtiSynth §0.5–0.6, §0.15).

Sign convention (ArtiSynth §0.5–0.6): a constraint ``G v = g`` acts through the impulse (or
force) ``+Gᵀλ``, so the KKT system is

    [[M, -Gᵀ], [G, 0]] [v; λ] = [b; g],    i.e.    M v = b + Gᵀλ,   G v = g.

Sueda eq. 1.73 writes ``+Gᵀ`` in the matrix: his ``λ`` is minus ours.  Every function except
:func:`kkt_gauss_seidel` accepts leading batch dimensions (``M`` of shape ``(..., n, n)``,
``G`` of shape ``(..., m, n)``) and broadcasts them.

The public functions check their arguments once and call private kernels (``_solve_kkt``,
``_velocity_projection``, ``_delassus``, ``_kkt_gauss_seidel``) that trust them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._batched import T as _T
from .._validate import (
    as_array,
    box_bounds,
    iteration_limit,
    matrix,
    relaxation_factor,
    square_matrix,
    tolerance,
    vector,
)
from .lcp import Checkable, _natural_residual

__all__ = [
    "GaussSeidelResult",
    "delassus",
    "force_projection",
    "kkt_gauss_seidel",
    "kkt_matrix",
    "solve_kkt",
    "velocity_projection",
]


def _inputs(M, G) -> tuple[np.ndarray, np.ndarray]:
    M = square_matrix(M, "M", batch=True)
    G = matrix(G, "G", cols=M.shape[-1])
    return M, G


def _solve(A: np.ndarray, B: np.ndarray, what: str) -> np.ndarray:
    try:
        return np.linalg.solve(A, B)
    except np.linalg.LinAlgError:
        raise ValueError(what) from None


def _Minv(M: np.ndarray, B: np.ndarray) -> np.ndarray:
    return _solve(M, B, "M must be nonsingular")


def _schur_inv(G: np.ndarray, MiGT: np.ndarray, B: np.ndarray) -> np.ndarray:
    """``(G M⁻¹ Gᵀ)⁻¹ B``."""
    return _solve(G @ MiGT, B, "G must have full row rank (G M^-1 G^T is singular)")


def kkt_matrix(M, G) -> np.ndarray:
    """The KKT matrix ``[[M, -Gᵀ], [G, 0]]`` (ArtiSynth eq. 0.3).

    Parameters
    ----------
    M : array_like, shape (..., n, n)
        Mass matrix.
    G : array_like, shape (..., m, n)
        Constraint matrix.

    Returns
    -------
    numpy.ndarray, shape (..., n + m, n + m)

    Raises
    ------
    ValueError
        For non-square ``M``, mismatched ``G`` or non-finite entries.
    """
    M, G = _inputs(M, G)
    batch = np.broadcast_shapes(M.shape[:-2], G.shape[:-2])
    n, m = M.shape[-1], G.shape[-2]
    K = np.zeros(batch + (n + m, n + m))
    K[..., :n, :n] = M
    K[..., :n, n:] = -_T(G)
    K[..., n:, :n] = G
    return K


def solve_kkt(M, G, b, g=None) -> tuple[np.ndarray, np.ndarray]:
    """Solve ``[[M, -Gᵀ], [G, 0]] [v; λ] = [b; g]`` by the Schur complement (ArtiSynth §0.6).

    ``λ = (G M⁻¹ Gᵀ)⁻¹ (g - G M⁻¹ b)`` and ``v = M⁻¹ (b + Gᵀλ)``; equivalently
    ``v = M⁻¹ (P_f b + Gᵀ (G M⁻¹ Gᵀ)⁻¹ g)``.

    Parameters
    ----------
    M : array_like, shape (..., n, n)
        Nonsingular mass matrix.
    G : array_like, shape (..., m, n)
        Constraint matrix with full row rank.
    b : array_like, shape (..., n)
        Momentum / force right-hand side.
    g : array_like, shape (..., m), optional
        Constraint right-hand side (default zeros).

    Returns
    -------
    v : numpy.ndarray, shape (..., n)
    lam : numpy.ndarray, shape (..., m)

    Raises
    ------
    ValueError
        For bad shapes or non-finite entries, a singular ``M``, or ``G`` without full row rank.
    """
    M, G = _inputs(M, G)
    n, m = M.shape[-1], G.shape[-2]
    b = as_array(b, "b", (n,))
    g = np.zeros(m) if g is None else as_array(g, "g", (m,))
    return _solve_kkt(M, G, b, g)


def _solve_kkt(M, G, b, g) -> tuple[np.ndarray, np.ndarray]:
    """Kernel of :func:`solve_kkt` on checked input (``g`` given)."""
    MiGT, Mib = _Minv(M, _T(G)), _Minv(M, b[..., None])
    lam = _schur_inv(G, MiGT, g[..., None] - G @ Mib)
    return (Mib + MiGT @ lam)[..., 0], lam[..., 0]


def force_projection(M, G) -> np.ndarray:
    """``P_f = 1 - Gᵀ (G M⁻¹ Gᵀ)⁻¹ G M⁻¹``: removes the constraint part of a force (ArtiSynth §0.5).

    ``P_f f`` is what remains of an applied force ``f`` after the constraint forces ``Gᵀλ`` that
    keep ``G a = 0`` have been added: ``G M⁻¹ P_f f = 0``.  It is a projection (``P_f² = P_f``)
    that annihilates constraint forces (``P_f Gᵀ = 0``), and ``P_f = P_vᵀ``.

    Parameters
    ----------
    M : array_like, shape (..., n, n)
        Nonsingular mass matrix.
    G : array_like, shape (..., m, n)
        Constraint matrix with full row rank.

    Returns
    -------
    numpy.ndarray, shape (..., n, n)

    Raises
    ------
    ValueError
        For bad shapes or non-finite entries, a singular ``M``, or ``G`` without full row rank.
    """
    return _T(_velocity_projection(*_inputs(M, G)))


def velocity_projection(M, G) -> np.ndarray:
    """``P_v = 1 - M⁻¹Gᵀ (G M⁻¹ Gᵀ)⁻¹ G``: makes a velocity satisfy ``G v = 0`` (ArtiSynth §0.5).

    ``P_v v`` is the velocity after the impulse ``Gᵀλ`` that enforces ``G v' = 0``.  For
    symmetric positive definite ``M`` it is the ``M``-orthogonal projection onto the null space
    of ``G`` (the constraint tangent space): ``P_v² = P_v``, ``G P_v = 0``, ``M P_v`` is
    symmetric, and ``P_v v`` is the closest admissible velocity to ``v`` in kinetic-energy norm.

    Parameters
    ----------
    M : array_like, shape (..., n, n)
        Nonsingular mass matrix.
    G : array_like, shape (..., m, n)
        Constraint matrix with full row rank.

    Returns
    -------
    numpy.ndarray, shape (..., n, n)

    Raises
    ------
    ValueError
        For bad shapes or non-finite entries, a singular ``M``, or ``G`` without full row rank.
    """
    return _velocity_projection(*_inputs(M, G))


def _velocity_projection(M, G) -> np.ndarray:
    """Kernel of :func:`velocity_projection` (and, transposed, :func:`force_projection`)."""
    MiGT = _Minv(M, _T(G))
    return np.eye(M.shape[-1]) - MiGT @ _schur_inv(G, MiGT, G)


def delassus(M, J) -> np.ndarray:
    """The constraint-space (Delassus) matrix ``J M⁻¹ Jᵀ`` (ArtiSynth eq. 0.15, Sueda eq. 1.83).

    It maps impulses applied along the rows of ``J`` to the velocity changes they cause along
    the same rows; it is the LCP matrix of a contact step.

    Parameters
    ----------
    M : array_like, shape (..., n, n)
        Nonsingular mass matrix.
    J : array_like, shape (..., m, n)
        Constraint (contact) Jacobian.

    Returns
    -------
    numpy.ndarray, shape (..., m, m)

    Raises
    ------
    ValueError
        For bad shapes or non-finite entries, or a singular ``M``.
    """
    return _delassus(*_inputs(M, J))


def _delassus(M, J) -> np.ndarray:
    """Kernel of :func:`delassus`: ``J M⁻¹ Jᵀ`` of checked matrices."""
    return J @ _Minv(M, _T(J))


@dataclass
class GaussSeidelResult(Checkable):
    """Result of :func:`kkt_gauss_seidel`.

    Attributes
    ----------
    v : numpy.ndarray, shape (n,)
        Velocity ``v0 + M⁻¹Nᵀλ``.
    lam : numpy.ndarray, shape (m,)
        Constraint impulses.
    iterations : int
        Sweeps over all constraints.
    converged : bool
    complementarity_error : float
        Natural residual of ``(λ, N v - c)`` with the bounds (``max|N v - c|`` for equalities).
    residuals : numpy.ndarray
        The error after each sweep.
    message : str
    """

    v: np.ndarray
    lam: np.ndarray
    iterations: int
    converged: bool
    complementarity_error: float
    residuals: np.ndarray
    message: str


def kkt_gauss_seidel(
    M,
    N,
    v0,
    c=None,
    *,
    lo=None,
    hi=None,
    omega: float = 1.0,
    tol: float = 1e-10,
    max_iter: int = 1000,
    lam0=None,
) -> GaussSeidelResult:
    """Solve ``v = v0 + M⁻¹Nᵀλ``, ``N v = c`` one constraint at a time (ArtiSynth §0.15).

    Gauss–Seidel on ``(N M⁻¹ Nᵀ) λ = c - N v0`` (ArtiSynth eq. 0.15), written in terms of the
    velocity: sweeping over the constraints, row ``i`` gets the impulse that would satisfy it
    in isolation given the current velocity,

        Δλ_i = ω (c_i - N_i v) / (N_i M⁻¹ N_iᵀ),    v += M⁻¹ N_iᵀ Δλ_i,

    so ``v`` always holds the velocity produced by the impulses so far and the full Delassus
    matrix is never formed.  With bounds ``lo <= λ <= hi`` each update is clipped, which turns
    the iteration into projected Gauss–Seidel for unilateral (``lo = 0``) or box-bounded rows;
    sweep for sweep it is :func:`~spatial.solvers.pgs` on the Delassus matrix.

    Parameters
    ----------
    M : array_like, shape (n, n)
        Symmetric positive definite mass matrix.
    N : array_like, shape (m, n)
        Constraint rows (no zero rows).
    v0 : array_like, shape (n,)
        Unconstrained velocity.
    c : array_like, shape (m,), optional
        Target constraint velocities (default zeros; a Baumgarte term goes here).
    lo, hi : array_like, shape (m,) or scalar, optional
        Bounds on ``λ``; default ``-inf`` and ``+inf`` (bilateral).  ``lo = 0`` for contacts.
    omega : float
        Relaxation factor in (0, 2).
    tol : float
        Stop when the error is at most ``tol * max(1, max|c - N v0|)``.
    max_iter : int
        Maximum number of sweeps.
    lam0 : array_like, shape (m,), optional
        Warm start (default zeros, clipped to the bounds).

    Returns
    -------
    GaussSeidelResult

    Raises
    ------
    ValueError
        For bad shapes or values, ``M`` not symmetric positive definite, a zero row of ``N``,
        ``omega`` outside (0, 2), or invalid bounds.
    """
    M = square_matrix(M, "M")
    n = M.shape[0]
    N = matrix(N, "N", cols=n)
    if N.ndim != 2:
        raise ValueError(f"N must be a 2-D matrix, got shape {N.shape}")
    m = N.shape[0]
    v0 = vector(v0, "v0", n)
    c = np.zeros(m) if c is None else vector(c, "c", m)
    lo, hi = box_bounds(-np.inf if lo is None else lo, hi, m)
    omega, tol, max_iter = relaxation_factor(omega), tolerance(tol), iteration_limit(max_iter, m)
    lam0 = np.zeros(m) if lam0 is None else vector(lam0, "lam0", m)
    from scipy.linalg import cho_factor, cho_solve  # on first use: importing it costs 0.2 s

    try:
        MiNT = cho_solve(cho_factor(M), N.T)
    except np.linalg.LinAlgError:
        raise ValueError("M must be symmetric positive definite") from None
    d = np.einsum("ij,ji->i", N, MiNT)  # N_i M^-1 N_i^T
    if np.any(d <= 0):
        raise ValueError(f"row {int(np.argmin(d))} of N is zero")
    return _kkt_gauss_seidel(N, MiNT, d, v0, c, lo, hi, omega, tol, max_iter, lam0)


def _kkt_gauss_seidel(N, MiNT, d, v0, c, lo, hi, omega, tol, max_iter, lam0) -> GaussSeidelResult:
    """Kernel of :func:`kkt_gauss_seidel`, given ``M⁻¹Nᵀ`` and its diagonal ``d_i > 0``."""
    m = N.shape[0]
    lam = np.clip(lam0, lo, hi)
    v = v0 + MiNT @ lam
    limit = tol * max(1.0, float(np.max(np.abs(c - N @ v0), initial=0.0)))
    residuals = []
    err = _natural_residual(lam, N @ v - c, lo, hi)
    while err > limit and len(residuals) < max_iter:
        for i in range(m):
            new = min(max(lam[i] + omega * (c[i] - N[i] @ v) / d[i], lo[i]), hi[i])
            v += MiNT[:, i] * (new - lam[i])
            lam[i] = new
        err = _natural_residual(lam, N @ v - c, lo, hi)
        residuals.append(err)
    ok = err <= limit
    k = len(residuals)
    message = f"converged after {k} sweeps" if ok else f"not converged after {k} sweeps"
    return GaussSeidelResult(v, lam, k, ok, err, np.array(residuals), message)
