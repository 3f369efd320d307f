"""One constrained step for every integrator: bilateral rows, contacts and friction (§0.10).

ArtiSynth §0.10 adds the constraints to whichever velocity-level step an integrator builds,
``M̂ v⁺ = M v + h f̂`` (``M̂ = M`` for symplectic Euler, ``M - hD - h²K`` for backward Euler,
...): bilateral rows ``G`` with free multipliers ``λ``, unilateral rows ``N`` with ``θ >= 0``
complementary to their velocities, and friction rows ``D`` whose impulses are bounded by the
normal ones — a box ``|φ| <= μθ̂`` with ``θ̂`` an estimate (eqs. 0.5–0.6), or the Anitescu–Stewart
polyhedral cone with its slip variables ``ξ`` and the matrix ``E``.

:func:`constrained_step` solves that system in two stages.  First the bilateral KKT system alone
(``M̂ v + ... = b + Gᵀλ``, ``G v = g``) gives the free velocity ``v₀``; eliminating ``λ`` leaves the
contact rows ``J = [N; D]`` acting through the projected inverse ``P = M̂⁻¹ - M̂⁻¹Gᵀ(G M̂⁻¹Gᵀ)⁻¹G M̂⁻¹``
(the inverse mass seen by motions that respect the bilateral rows).  Then the contact problem in
contact space, ``v_c = J v₀ + (J P Jᵀ) λ_c``, is one call to :func:`spatial.solvers.solve_impulses`
with the chosen friction model (``"box"``, ``"polyhedral"``, ``"pyramid"``, ``"gauss-seidel"``),
and ``v⁺ = v₀ + P Jᵀ λ_c``.  Signs follow :mod:`spatial.solvers`: ``M̂ v⁺ = b + Gᵀλ + Jᵀλ_c``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._validate import as_scalar_array
from ..solvers import FrictionResult, solve_impulses

__all__ = ["ConstrainedStep", "constrained_step"]


class ConstrainedStep(NamedTuple):
    """The outcome of :func:`constrained_step`.

    Attributes
    ----------
    v : ndarray (n,)
        Velocity at the end of the step.
    lam : ndarray (m,)
        Bilateral impulses.
    contact : FrictionResult or None
        Contact impulses and velocities (None without contact rows).
    """

    v: np.ndarray
    lam: np.ndarray
    contact: FrictionResult | None


def _matrix(x, name: str, cols: int) -> np.ndarray:
    a = as_scalar_array(x, name)
    if a.ndim != 2 or a.shape[1] != cols:
        raise ValueError(f"{name} must have shape (rows, {cols}), got {a.shape}")
    return a


def constrained_step(
    M,
    b,
    *,
    G=None,
    g=None,
    J=None,
    mu=0.0,
    bias=None,
    friction: str = "polyhedral",
    tangent_dim: int = 2,
    k: int | None = None,
) -> ConstrainedStep:
    """Velocity after one step with bilateral rows, contacts and friction (ArtiSynth §0.10).

    Parameters
    ----------
    M : array_like (n, n)
        The step's matrix ``M̂`` (symmetric positive definite).
    b : array_like (n,)
        Its right-hand side ``M v + h f̂``.
    G, g : array_like (m, n) and (m,), optional
        Bilateral rows with ``G v⁺ = g`` (``g = 0``, or ``-γ φ`` for Baumgarte feedback).
    J : array_like (nc (1 + tangent_dim), n), optional
        Contact rows ``[N; D]``: the ``nc`` normal rows, then each contact's tangent rows
        (the layout of :mod:`spatial.solvers.friction`).
    mu : float or array_like (nc,)
        Friction coefficients, >= 0.
    bias : float or array_like (nc,), optional
        Target normal velocities (e.g. ``-gap/h`` for a gap still open).
    friction : {"polyhedral", "box", "pyramid", "gauss-seidel"}
        The friction model (:func:`spatial.solvers.solve_impulses`).
    tangent_dim : int
        2 in 3D, 1 in the plane.
    k : int, optional
        Facets of a polyhedral cone.

    Returns
    -------
    ConstrainedStep

    Raises
    ------
    ValueError
        For mismatched shapes, singular bilateral rows, a negative ``mu`` or an unknown
        friction model.

    Examples
    --------
    A unit mass sliding at 1 m/s on the floor with μ = 0.5 for one step of 0.01 s under gravity:
    friction removes μ g h = 0.049 m/s.

    >>> import numpy as np
    >>> from spatial.integrators import constrained_step
    >>> b = np.array([1.0, 0.0, -9.81 * 0.01])  # M v + h f
    >>> J = np.array([[0, 0, 1.0], [1.0, 0, 0], [0, 1.0, 0]])  # normal z, tangents x, y
    >>> out = constrained_step(np.eye(3), b, J=J, mu=0.5, tangent_dim=2, friction="box")
    >>> [round(float(x), 6) for x in out.v]
    [0.95095, 0.0, 0.0]
    """
    M = as_scalar_array(M, "M")
    if M.ndim != 2 or M.shape[0] != M.shape[1]:
        raise ValueError(f"M must be a square matrix, got shape {M.shape}")
    n = M.shape[0]
    b = as_scalar_array(b, "b")
    if b.shape != (n,):
        raise ValueError(f"b must have shape ({n},), got {b.shape}")
    G = np.zeros((0, n)) if G is None else _matrix(G, "G", n)
    g = np.zeros(len(G)) if g is None else as_scalar_array(g, "g").reshape(-1)
    if g.shape != (len(G),):
        raise ValueError(f"g must have one value per row of G ({len(G)}), got {g.shape}")
    Minv_b = np.linalg.solve(M, b)
    Minv_GT = np.linalg.solve(M, G.T)
    S = G @ Minv_GT
    if len(G) and np.linalg.cond(S) > 1e13:
        raise ValueError("singular bilateral rows: G M⁻¹ Gᵀ is singular (redundant constraints)")
    lam = np.linalg.solve(S, g - G @ Minv_b) if len(G) else np.zeros(0)
    v0 = Minv_b + Minv_GT @ lam
    if J is None:
        return ConstrainedStep(v0, lam, None)
    J = _matrix(J, "J", n)
    Minv_JT = np.linalg.solve(M, J.T)
    if len(G):  # project out what the bilateral rows would undo
        Minv_JT = Minv_JT - Minv_GT @ np.linalg.solve(S, G @ Minv_JT)
    result = solve_impulses(
        J @ Minv_JT, J @ v0, mu, bias=bias, friction=friction, k=k, tangent_dim=tangent_dim
    )
    impulses = np.concatenate([result.normal, result.tangent.reshape(-1)])
    v = v0 + Minv_JT @ impulses
    if len(G):
        lam = lam + np.linalg.solve(S, -G @ np.linalg.solve(M, J.T @ impulses))
    return ConstrainedStep(v, lam, result)
