"""A quadratic minimized over a disc: one contact's friction sub-problem (ArtiSynth §0.16).

Contact-by-contact Gauss–Seidel with Coulomb's disc
(:func:`~spatial.solvers.gauss_seidel_friction`) keeps every impulse but one contact's friction
impulse fixed.  What is left is a small problem in
one or two unknowns: minimize ``½ xᵀ A x + cᵀ x`` over the disc ``|x| <= radius``, with ``A`` the
contact's tangential Delassus block and ``radius = μ λ_n``.  It is the trust-region sub-problem
of numerical optimization, and :func:`disc_qp` solves it exactly, including the cases where the
quadratic is only semidefinite.
"""

from __future__ import annotations

import numpy as np

from .._validate import real_array, square_matrix, vector

__all__ = ["disc_qp"]


def disc_qp(A, c, radius) -> tuple[np.ndarray, float]:
    """Minimize ``½ xᵀ A x + cᵀ x`` over the disc ``|x| <= radius`` (a trust-region sub-problem).

    This is one contact's friction problem in :func:`~spatial.solvers.gauss_seidel_friction`:
    with the other impulses fixed, ``A = W_tt`` is the contact's tangential Delassus block and
    ``c`` its slip velocity without its own friction impulse, so the objective is the kinetic
    energy left after the impulse (up to a constant, the dual objective of Sueda eq. 1.88).  Its
    minimizer is the friction impulse of maximal dissipation for that contact.

    The optimality conditions of a quadratic on a ball say: ``x`` is a global minimizer iff
    ``(A + ν 1) x = -c`` for some ``ν >= 0`` with ``A + ν 1`` positive semidefinite and
    ``ν (|x| - radius) = 0``.  So

    1. if ``A`` is positive definite and ``x₀ = -A⁻¹c`` lies in the disc, ``x = x₀``, ``ν = 0``
       (the contact sticks);
    2. otherwise ``ν`` solves the scalar secular equation ``|x(ν)| = radius`` with
       ``x(ν) = -(A + ν 1)⁻¹ c``.  In the eigenbasis ``A = Q diag(e) Qᵀ``, ``g = Qᵀc``,
       ``|x(ν)|² = Σ g_k² / (e_k + ν)²`` decreases in ``ν``; the root is bracketed and found by
       Newton's method on ``1/|x(ν)| - 1/radius`` (linear in ``ν`` for a single term),
       falling back to bisection whenever a step leaves the bracket.  The component along
       the eigenvector of the smallest eigenvalue ``e₁`` is then taken from ``|x| = radius``
       (it is ill-conditioned in ``ν`` when ``e₁ + ν`` is nearly 0);
    3. the *hard case*: when ``c`` has no component along the eigenvectors of the smallest
       eigenvalue ``e₁`` and ``ν = max(0, -e₁)`` already gives ``|x| <= radius``, a multiple of
       such an eigenvector is added to reach the boundary (or, for singular positive
       semidefinite ``A``, nothing is added: the minimum-norm minimizer, inside the disc).

    With ``A = a 1`` the answer is the radial projection of ``-c / a`` onto the disc.

    Parameters
    ----------
    A : array_like, shape (d, d)
        Symmetric matrix, ``d`` = 1 or 2 (only its symmetric part is used).
    c : array_like, shape (d,)
    radius : float
        ``>= 0``.

    Returns
    -------
    x : numpy.ndarray, shape (d,)
        The minimizer (on the boundary when ``ν > 0``).
    nu : float
        The multiplier ``ν >= 0`` of the disc constraint.

    Raises
    ------
    ValueError
        For a non-square ``A`` or ``d`` not 1 or 2, a ``c`` of the wrong length, non-finite
        entries or a negative ``radius``.
    """
    A = square_matrix(A, "A")
    d = A.shape[0]
    if d not in (1, 2):
        raise ValueError(f"disc_qp is for 1x1 or 2x2 matrices, got shape {A.shape}")
    c = vector(c, "c", d)
    r = real_array(radius, "radius")
    if r.shape != () or not np.isfinite(r) or r < 0:
        raise ValueError(f"radius must be a finite number >= 0, got {radius!r}")
    return _disc_qp(A, c, float(r))


def _disc_qp(A: np.ndarray, c: np.ndarray, radius: float) -> tuple[np.ndarray, float]:
    """Kernel of :func:`disc_qp` on checked input."""
    d = A.shape[0]
    if radius == 0:
        return np.zeros(d), 0.0
    e, Q = np.linalg.eigh(0.5 * (A + A.T))
    g = Q.T @ c
    scale = max(np.abs(e).max(), np.abs(g).max() / radius, np.finfo(float).tiny)
    eps = 64 * np.finfo(float).eps
    e = np.where(np.abs(e) <= eps * scale, 0.0, e)  # round-off eigenvalues are zero
    g = np.where(np.abs(g) <= eps * scale * radius, 0.0, g)
    lo = max(0.0, -e[0])  # smallest ν with A + ν 1 positive semidefinite

    def x_of(nu):  # -(A + ν 1)⁺ c in the eigenbasis, zero where e + ν = 0 (and g = 0)
        shifted = e + nu
        return np.divide(-g, shifted, out=np.zeros(d), where=shifted > 0)

    y = x_of(lo)
    if np.all(g[e + lo == 0] == 0) and np.linalg.norm(y) <= radius:
        if lo > 0:  # hard case: move along the eigenvector of e₁ to the boundary
            y[0] = np.sqrt(radius**2 - np.linalg.norm(y) ** 2)
        return Q @ y, lo
    a, b = lo, max(lo, np.linalg.norm(g) / radius - e[0])  # |x(b)| <= |g| / (e₁ + b) <= radius
    nu = b
    for _ in range(100):
        y = x_of(nu)
        size = np.linalg.norm(y)
        if abs(size - radius) <= 4 * np.finfo(float).eps * radius:
            break
        if size > radius:
            a = nu
        else:
            b = nu
        # Newton on φ(ν) = 1/|x| - 1/radius, with φ' = (Σ g²/(e+ν)³) / |x|³
        slope = np.sum(y**2 / (e + nu)) / size**3
        nu = nu - (1 / size - 1 / radius) / slope
        if not a < nu < b:
            nu = 0.5 * (a + b)
        if b - a <= 4 * np.finfo(float).eps * b:
            break
    # Near the hard case x(ν) is ill-conditioned along e₁ (e₁ + ν ≈ 0): take that component
    # from |x| = radius instead, the others are accurate
    y = x_of(nu)
    y[0] = np.sign(y[0]) * np.sqrt(max(radius**2 - y[1:] @ y[1:], 0.0))
    return Q @ (y * min(1.0, radius / np.linalg.norm(y))), float(nu)
