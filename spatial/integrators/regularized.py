"""Soft constraints: compliance and damping turned into a regularized step (ArtiSynth §0.11).

A constraint ``φ(q) = 0`` with Jacobian ``G = ∂φ/∂q`` can be enforced softly, by the potential
``U = ½ φᵀ α⁻¹ φ`` of a spring of *compliance* ``α`` (inverse stiffness) with a damper: the
constraint force is ``Gᵀλ`` with ``λ = -α⁻¹(φ + β φ̇)`` (§0.11 eq. 0.7; the damping coefficient
is ``α⁻¹β``).

Averaged over a velocity-level step, ``α λ̄ = -φ̄ - β φ̄̇`` with ``φ̄ ≈ φ_k + (h/2) G v⁺``
(mean of ``φ_k`` and ``φ_k + h G v⁺``) and ``φ̄̇ ≈ G v⁺``, so

    α λ̄ = -φ_k - (h/2 + β) G v⁺.

(Eq. 0.8 of the notes prints ``+(h/2 + β)``; the minus sign is the one that gives their own
``β = 0`` special case and a restoring force.)  With ``γ = (½ + β/h)⁻¹`` and the impulse
``λ̃ = h λ̄`` this is one more row of the KKT system of the step,

    M v⁺ - Gᵀ λ̃ = b,        G v⁺ + (γ α / h²) λ̃ = -γ φ_k / h          (eq. 0.9)

with ``b = M v + h f`` (or the ``M v + h f̂`` of an implicit integrator).  ``α = 0`` is the
hard constraint with the position error fed back at the rate ``γ/h``; ``β = 0`` gives ``γ = 2``,
for which ``λ̄`` is the spring force at the *mean* stretch of the step.  The stretch itself
moves with the end velocity (``φ⁺ = φ + h G v⁺``), so the soft direction is not quite the
trapezoidal rule: for a mass ``m`` on the soft row (``ω² = 1/(α m)``) one step has determinant
``1/(1 + h²ω²/2)`` and ``cos(h ω_d) = (1 - h²ω²/4)/√(1 + h²ω²/2)``, so it oscillates at ``ω_d → ω``
and loses a little energy every step even without damping.  (The notes call ``λ̃`` "λ̄"; the
``h²`` in the matrix makes it the impulse ``h λ̄``.)

The same rows for unilateral constraints ``N`` (contacts, ``φ >= 0``) make the complementarity
problem (eq. 0.10)::

    M v⁺ - Nᵀ z̃ = b,      w = N v⁺ + (γ α / h²) z̃ + γ φ_k / h,      0 <= z̃ ⟂ w >= 0.

Damping has a side effect there that the notes warn about: a contact that still penetrates
(``φ_k < 0``) but separates fast (``φ̇ > 0``) gets ``z̃ = 0`` as soon as ``φ_k + (h/2 + β)
φ̇ > 0``, so with a large ``β`` the contact lets go while the bodies still overlap.

:func:`soft_step` solves both kinds at once: it eliminates ``v⁺`` (``A = J M⁻¹ Jᵀ + R`` with
``J = [G; N]`` and ``R`` the diagonal ``γα/h²``), solves the bilateral rows exactly and the
unilateral ones as an LCP by Lemke's method (:mod:`spatial.solvers`; the
package loads this module on first use, so that ``import spatial`` does not load SciPy).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._validate import as_scalar_array, positive_scalar
from ..solvers.lcp import _lemke
from .constrained import _step_system

__all__ = ["SoftStep", "regularization", "soft_step"]


class SoftStep(NamedTuple):
    """The outcome of :func:`soft_step`.

    Attributes
    ----------
    v : ndarray, shape (n,)
        Velocity at the end of the step.
    lam : ndarray, shape (m,)
        Bilateral impulses ``λ̃ = h λ̄`` (force times step), ``M v⁺ = b + Gᵀλ̃ + Nᵀz̃``.
    z : ndarray, shape (p,)
        Unilateral impulses ``z̃ >= 0``.
    w : ndarray, shape (p,)
        The unilateral rows' residual ``w >= 0`` (complementary to ``z``).
    """

    v: np.ndarray
    lam: np.ndarray
    z: np.ndarray
    w: np.ndarray


def _nonnegative(x, name: str, rows: int) -> np.ndarray:
    a = as_scalar_array(x, name)
    if a.ndim > 1 or (a.ndim == 1 and a.shape[0] != rows):
        raise ValueError(f"{name} must be a number or one value per row ({rows}), got {a.shape}")
    if np.any(a < 0):
        raise ValueError(f"{name} must be >= 0 (a compliance or damping), got {x!r}")
    return np.broadcast_to(a, (rows,)).astype(float)


def _regularization(h: float, alpha: np.ndarray, beta: np.ndarray):
    gamma = 1.0 / (0.5 + beta / h)
    return gamma, gamma * alpha / h**2


def regularization(h: float, alpha, beta=0.0) -> tuple[np.ndarray, np.ndarray]:
    """``γ = (½ + β/h)⁻¹`` and the diagonal ``γα/h²`` of a regularized constraint (eq. 0.9).

    Parameters
    ----------
    h : float
        Step, > 0.
    alpha, beta : float or array_like (m,)
        Compliance (m/N for a distance) and damping time (s), >= 0.

    Returns
    -------
    gamma, diagonal : ndarray, shape (m,) or ()

    Raises
    ------
    ValueError
        If ``h <= 0`` or a compliance or damping is negative.

    Examples
    --------
    >>> from spatial.integrators import regularization
    >>> [float(x) for x in regularization(0.01, 1e-4, 0.0)]
    [2.0, 2.0]
    """
    h = positive_scalar(h, "h")
    alpha, beta = as_scalar_array(alpha, "alpha"), as_scalar_array(beta, "beta")
    for value, name in ((alpha, "alpha"), (beta, "beta")):
        if np.any(value < 0):
            raise ValueError(f"{name} must be >= 0 (a compliance or damping), got {value}")
    return _regularization(h, alpha, beta)


def _rows(J, phi, name: str, n: int, phi_name: str) -> tuple[np.ndarray, np.ndarray]:
    if (J is None) != (phi is None):
        given, missing = (phi_name, name) if J is None else (name, phi_name)
        raise ValueError(f"{given} is given without {missing}: give the rows with their values")
    if J is None:
        return np.zeros((0, n)), np.zeros(0)
    J = as_scalar_array(J, name)
    if J.ndim == 1:
        J = J[None, :]
    if J.ndim != 2 or J.shape[1] != n:
        raise ValueError(f"{name} must have shape (rows, {n}), got {J.shape}")
    phi = as_scalar_array(phi, f"{name}'s constraint values")
    if phi.shape != (J.shape[0],) and not (phi.ndim == 0 and J.shape[0] == 1):
        raise ValueError(f"{name} has {J.shape[0]} rows but its values have shape {phi.shape}")
    return J, phi.reshape(J.shape[0])


def soft_step(
    M,
    b,
    h: float,
    *,
    G=None,
    phi=None,
    alpha=0.0,
    beta=0.0,
    N=None,
    phi_n=None,
    alpha_n=0.0,
    beta_n=0.0,
) -> SoftStep:
    """One velocity-level step with regularized bilateral and unilateral constraints (§0.11).

    Solves eqs. 0.9–0.10 together (module docstring): ``M v⁺ = b + Gᵀλ̃ + Nᵀz̃`` with
    ``G v⁺ + (γα/h²) λ̃ = -γφ/h`` and ``0 <= z̃ ⟂ N v⁺ + (γα/h²) z̃ + γφ_n/h >= 0``.

    Parameters
    ----------
    M : array_like (n, n)
        Mass matrix (or the ``M̂`` of an implicit integrator), symmetric positive definite.
    b : array_like (n,)
        ``M v + h f`` (or ``M v + h f̂``).
    h : float
        Step, > 0.
    G, phi : array_like (m, n) and (m,), optional
        Bilateral rows and their constraint values ``φ_k`` at the start of the step.
    alpha, beta : float or array_like (m,)
        Compliance and damping of the bilateral rows, >= 0 (0, 0: hard, ``γ = 2``).
    N, phi_n : array_like (p, n) and (p,), optional
        Unilateral rows (``φ_n >= 0`` is allowed) and their values (gaps).
    alpha_n, beta_n : float or array_like (p,)
        Compliance and damping of the unilateral rows, >= 0.

    Returns
    -------
    SoftStep

    Raises
    ------
    ValueError
        For mismatched shapes, rows without their values (``G`` without ``phi``, ``N`` without
        ``phi_n``, or the other way round), ``h <= 0``, a negative compliance or damping, or
        singular hard bilateral rows, or if Lemke's method does not solve the unilateral rows.

    Examples
    --------
    A unit mass pulled by 1 N against a soft anchor of compliance 0.01: at rest the spring
    stretch is ``α f = 0.01``, so a step from that stretch keeps it at rest.

    >>> from spatial.integrators import soft_step
    >>> out = soft_step([[1.0]], [0.1], 0.1, G=[[1.0]], phi=[0.01], alpha=0.01)
    >>> abs(float(out.v[0])) < 1e-14
    True
    """
    M, b = _step_system(M, b)
    n = M.shape[0]
    h = positive_scalar(h, "h")
    G, phi = _rows(G, phi, "G", n, "phi")
    N, phi_n = _rows(N, phi_n, "N", n, "phi_n")
    gamma_g, R_g = _regularization(
        h, _nonnegative(alpha, "alpha", len(G)), _nonnegative(beta, "beta", len(G))
    )
    gamma_n, R_n = _regularization(
        h, _nonnegative(alpha_n, "alpha_n", len(N)), _nonnegative(beta_n, "beta_n", len(N))
    )
    return _soft_step(M, b, h, G, phi, gamma_g, R_g, N, phi_n, gamma_n, R_n)


def _soft_step(M, b, h, G, phi, gamma_g, R_g, N, phi_n, gamma_n, R_n) -> SoftStep:
    """Kernel of :func:`soft_step` (inputs checked)."""
    m = len(G)
    J = np.concatenate([G, N])
    Minv_JT = np.linalg.solve(M, J.T)
    Minv_b = np.linalg.solve(M, b)
    A = J @ Minv_JT + np.diag(np.concatenate([R_g, R_n]))
    c = J @ Minv_b + np.concatenate([gamma_g * phi, gamma_n * phi_n]) / h
    A_gg, A_gn, A_ng, A_nn = A[:m, :m], A[:m, m:], A[m:, :m], A[m:, m:]
    if m and np.linalg.cond(A_gg) > 1e13:
        raise ValueError("singular bilateral rows: G M⁻¹ Gᵀ + γα/h² is singular; give alpha > 0")
    if len(N):
        S_gn = np.linalg.solve(A_gg, A_gn) if m else np.zeros((0, len(N)))
        s_g = np.linalg.solve(A_gg, c[:m]) if m else np.zeros(0)
        lcp = _lemke(A_nn - A_ng @ S_gn, c[m:] - A_ng @ s_g)
        if not lcp.converged:
            raise ValueError(f"the unilateral rows' LCP was not solved: {lcp.message}")
        z = lcp.z
        lam = -(S_gn @ z + s_g)
    else:
        z = np.zeros(0)
        lam = -np.linalg.solve(A_gg, c[:m]) if m else np.zeros(0)
    v = Minv_b + Minv_JT @ np.concatenate([lam, z])
    w = N @ v + R_n * z + gamma_n * phi_n / h
    return SoftStep(v, lam, z, w)
