"""Projected Gauss–Seidel for the LCP and the box-bounded LCP (ArtiSynth §0.15).

Pivoting (:mod:`~spatial.solvers.lcp`) is exact, but each pivot works on a whole column of ``M``.
Projected Gauss–Seidel (PGS) instead visits the rows one at a time: row ``i`` of
``w = M z + q`` is solved for ``z_i`` as if the other entries were fixed, the step is relaxed by
``ω`` and the result clipped into the box ``[lo_i, hi_i]`` (``[0, ∞)`` for the plain LCP), using
the entries already updated in the same sweep (ArtiSynth eq. 0.17).  For a symmetric positive
definite ``M`` each such row update minimizes the quadratic ``½ zᵀMz + qᵀz`` exactly along one
coordinate within the box, so the objective never rises and the sweeps converge, linearly: fast
for diagonally dominant ``M``, slowly for strongly coupled rows (a stack of resting bodies).

:func:`pgs` checks its arguments and runs the kernel ``_pgs``, which the friction models and the
contact steppers call directly with checked matrices.  The kernel needs ``M[i, i] > 0``; it
reports a failed result, never a division by zero, if a caller passes a matrix without.
"""

from __future__ import annotations

import numpy as np

from .._validate import (
    box_bounds,
    iteration_limit,
    positive_diagonal,
    relaxation_factor,
    square_matrix,
    tolerance,
    vector,
)
from .lcp import LCPResult, _natural_residual, _result

__all__ = ["pgs", "pgs_sweep"]


def _pgs_sweep(M, q, z, lo, hi, omega):
    z = z.copy()
    for i in range(z.shape[0]):
        w_i = M[i] @ z + q[i]
        z[i] = min(max(z[i] - omega * w_i / M[i, i], lo[i]), hi[i])
    return z


def pgs_sweep(M, q, z, lo=None, hi=None, omega: float = 1.0) -> np.ndarray:
    """One sweep of projected Gauss–Seidel on a (box) LCP.

    For ``i = 1..n`` in order, using the ``z_j`` already updated in this sweep for ``j < i``
    (ArtiSynth eq. 0.17), solve row ``i`` for ``z_i``, relax by ``omega`` and clip to the box:

        z_i ← mid(lo_i, z_i - omega (M_i z + q_i) / M_ii, hi_i).

    Parameters
    ----------
    M : array_like, shape (n, n)
        LCP matrix with positive diagonal.
    q : array_like, shape (n,)
        LCP vector.
    z : array_like, shape (n,)
        Current iterate (not modified).
    lo, hi : array_like, optional
        Box bounds (default ``0`` and ``+inf``).
    omega : float
        Relaxation factor in (0, 2); 1 is plain PGS.

    Returns
    -------
    numpy.ndarray, shape (n,)
        The new iterate.

    Raises
    ------
    ValueError
        For bad shapes or values, a non-positive diagonal, or ``omega`` outside (0, 2).
    """
    M, q, lo, hi = _pgs_inputs(M, q, lo, hi)
    return _pgs_sweep(M, q, vector(z, "z", q.shape[0]), lo, hi, relaxation_factor(omega))


def _pgs_inputs(M, q, lo, hi):
    M = square_matrix(M, "M")
    n = M.shape[0]
    q = vector(q, "q", n)
    positive_diagonal(M, "M", "projected Gauss-Seidel")
    lo, hi = box_bounds(lo, hi, n)
    return M, q, lo, hi


def _pgs_options(n: int, *, omega=1.0, tol=1e-8, max_iter=1000, z0=None) -> dict:
    """Check the options of :func:`pgs` for an LCP of size ``n``; keyword arguments of
    :func:`_pgs`."""
    z0 = None if z0 is None else vector(z0, "z0", n)
    return dict(
        omega=relaxation_factor(omega),
        tol=tolerance(tol),
        max_iter=iteration_limit(max_iter, n),
        z0=z0,
    )


def pgs(
    M,
    q,
    *,
    lo=None,
    hi=None,
    omega: float = 1.0,
    tol: float = 1e-8,
    max_iter: int = 1000,
    z0=None,
) -> LCPResult:
    """Solve a (box) LCP by projected Gauss–Seidel with relaxation (ArtiSynth §0.15).

    Repeats :func:`pgs_sweep` until the complementarity error is at most
    ``tol * max(1, max|q|)``.  For symmetric positive definite ``M`` and ``0 < omega < 2``
    every sweep lowers the QP objective ``½ zᵀMz + qᵀz`` (each step minimizes it exactly along
    one coordinate within the box), and the iterates converge to the unique solution; for a
    symmetric positive semidefinite ``M`` with a solvable LCP they converge too, more slowly.
    Convergence is linear, fast for diagonally dominant ``M``.

    Parameters
    ----------
    M : array_like, shape (n, n)
        LCP matrix with positive diagonal.
    q : array_like, shape (n,)
        LCP vector.
    lo, hi : array_like, optional
        Box bounds (default ``0`` and ``+inf``: the plain LCP).
    omega : float
        Relaxation factor in (0, 2).
    tol : float
        Relative tolerance on the complementarity error.
    max_iter : int
        Maximum number of sweeps.
    z0 : array_like, shape (n,), optional
        Starting point (warm start), default ``clip(0, lo, hi)``.

    Returns
    -------
    LCPResult
        ``iterations`` = sweeps, ``residuals`` = error after each sweep.

    Raises
    ------
    ValueError
        For bad shapes or values, a non-positive diagonal, ``omega`` outside (0, 2), or a bad
        ``tol``/``max_iter``.
    """
    M, q, lo, hi = _pgs_inputs(M, q, lo, hi)
    options = _pgs_options(q.shape[0], omega=omega, tol=tol, max_iter=max_iter, z0=z0)
    return _pgs(M, q, lo, hi, **options)


def _pgs(M, q, lo=None, hi=None, *, omega=1.0, tol=1e-8, max_iter=1000, z0=None) -> LCPResult:
    """Kernel of :func:`pgs` on checked input (``lo``/``hi`` None: 0 and +inf).

    A non-positive diagonal entry, which :func:`pgs` rejects, is reported as a failure here.
    """
    n = q.shape[0]
    lo = np.zeros(n) if lo is None else lo
    hi = np.full(n, np.inf) if hi is None else hi
    z = np.clip(np.zeros(n) if z0 is None else z0, lo, hi)
    try:
        positive_diagonal(M, "M", "projected Gauss-Seidel")
    except ValueError as err:
        return _result(M, q, z, lo, hi, 0, False, str(err), "pgs", tol, residuals=np.zeros(0))
    limit = tol * max(1.0, float(np.max(np.abs(q), initial=0.0)))
    residuals = []
    err = _natural_residual(z, M @ z + q, lo, hi)
    while err > limit and len(residuals) < max_iter:
        z = _pgs_sweep(M, q, z, lo, hi, omega)
        err = _natural_residual(z, M @ z + q, lo, hi)
        residuals.append(err)
    sweeps = len(residuals)
    ok = err <= limit
    message = f"converged after {sweeps} sweeps" if ok else f"not converged after {sweeps} sweeps"
    residuals = np.array(residuals)
    return _result(M, q, z, lo, hi, sweeps, ok, message, "pgs", tol, residuals=residuals)
