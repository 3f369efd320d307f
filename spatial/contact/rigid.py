"""Rigid contact in a rigid-body system: the contact LCP and its velocity-level form.

**Acceleration level** (Featherstone §11.1–11.5).  With ``T = [t₁ … t_nc]`` the contact normals
in joint space (eq. 11.25), the equation of motion ``H q̈ + C = τ + T λ`` (eq. 11.41) and the
separation accelerations ``ζ̇ = Tᵀ q̈ + Ṫᵀ q̇`` (eq. 11.33) give ``ζ̇ = M λ + d`` with

    M = Tᵀ H⁻¹ T,      d = Tᵀ H⁻¹ (τ - C) + Ṫᵀ q̇                 (eqs. 11.35–11.36),

and the contact forces solve the LCP ``0 <= λ ⟂ ζ̇ >= 0`` (eq. 11.42).  ``M`` is symmetric
positive semidefinite; when the normals are linearly dependent the LCP may have no solution
(Example 11.1), which the pivoting solvers report instead of returning a wrong number.

**Velocity level** (ArtiSynth §0.10, Sueda §1.11–1.13).  Over a time step ``h`` the same
structure holds for impulses: with the Delassus matrix ``W = J H⁻¹ Jᵀ`` of the contact rows
``J = [N; T]`` and the free contact velocity ``u = J v_free``, the impulses solve
``0 <= λ_n ⟂ u_n + (Wλ)_n - bias >= 0`` plus a friction law.  :func:`solve_impulses` picks the
friction model of :mod:`spatial.contact.friction` by name.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._input import square_matrix, vector
from .friction import (
    FrictionResult,
    box_friction,
    gauss_seidel_friction,
    polyhedral_friction,
    pyramid_friction,
)
from .lcp import Checkable, LCPResult, lemke, pgs, principal_pivoting

__all__ = [
    "FRICTION_MODELS",
    "ContactAcceleration",
    "contact_acceleration",
    "contact_lcp",
    "friction_cone_of",
    "solve_impulses",
]

#: Friction models accepted by :func:`solve_impulses` (and the time steppers).
FRICTION_MODELS = ("polyhedral", "pyramid", "box", "gauss-seidel")


def _HTinv(H: np.ndarray, T: np.ndarray) -> np.ndarray:
    try:
        return np.linalg.solve(H, T)
    except np.linalg.LinAlgError:
        raise ValueError("H must be nonsingular (a joint-space inertia matrix)") from None


def _columns(T, name: str, n: int, nc: int | None = None) -> np.ndarray:
    T = np.asarray(T, dtype=float)
    if T.ndim != 2 or T.shape[0] != n or (nc is not None and T.shape[1] != nc):
        want = f"({n}, {'nc' if nc is None else nc})"
        raise ValueError(f"{name} must be a matrix of shape {want}, got {T.shape}")
    if not np.all(np.isfinite(T)):
        raise ValueError(f"{name} contains non-finite values")
    return T


def contact_lcp(H, force, T, tdot_qd=None, T_force=None) -> tuple[np.ndarray, np.ndarray]:
    """The contact LCP ``ζ̇ = M λ + d`` of a rigid-body system (Featherstone eqs. 11.34–11.36).

    Frictionless contacts push along their normals, so the same ``T`` maps forces and
    velocities and ``M`` is symmetric.  A contact that *slides* with Coulomb friction pushes
    along ``t_n - μ σ t_t`` instead (``σ`` the sign of the slip): pass those columns as
    ``T_force``, and ``M = Tᵀ H⁻¹ T_force`` is no longer symmetric (Painlevé's paradox).

    Parameters
    ----------
    H : array_like, shape (n, n)
        Joint-space inertia matrix.
    force : array_like, shape (n,)
        ``τ - C``: the applied joint forces minus the bias force.
    T : array_like, shape (n, nc)
        Contact normals in joint space, one column ``t_i`` per contact (eq. 11.31).
    tdot_qd : array_like, shape (nc,), optional
        ``Ṫᵀ q̇`` (eq. 11.30), the separation accelerations at ``q̈ = 0`` and ``λ = 0``
        (default zeros: a system at rest).
    T_force : array_like, shape (n, nc), optional
        Joint-space directions of the contact forces (default ``T``).

    Returns
    -------
    M : numpy.ndarray, shape (nc, nc)
    d : numpy.ndarray, shape (nc,)

    Raises
    ------
    ValueError
        For mismatched shapes, non-finite input or a singular ``H``.
    """
    H = square_matrix(H, "H")
    n = H.shape[0]
    force = vector(force, "force", n)
    T = _columns(T, "T", n)
    nc = T.shape[1]
    T_force = T if T_force is None else _columns(T_force, "T_force", n, nc)
    tdot_qd = np.zeros(nc) if tdot_qd is None else vector(tdot_qd, "tdot_qd", nc)
    HiT = _HTinv(H, T)
    return HiT.T @ T_force, HiT.T @ force + tdot_qd


@dataclass
class ContactAcceleration(Checkable):
    """Solution of the acceleration-level contact problem (Featherstone eqs. 11.41–11.42).

    Attributes
    ----------
    qdd : numpy.ndarray, shape (n,)
        Joint accelerations ``H⁻¹ (τ - C + T λ)``.
    force : numpy.ndarray, shape (nc,)
        Contact force magnitudes ``λ >= 0``.
    separation_acceleration : numpy.ndarray, shape (nc,)
        ``ζ̇ = M λ + d >= 0``.
    converged : bool
        False when the LCP solver found no solution (e.g. Example 11.1).
    message : str
    lcp : LCPResult
    """

    qdd: np.ndarray
    force: np.ndarray
    separation_acceleration: np.ndarray
    converged: bool
    message: str
    lcp: LCPResult


def contact_acceleration(
    H, force, T, tdot_qd=None, T_force=None, *, method: str = "lemke", **options
) -> ContactAcceleration:
    """Accelerations and contact forces of a system with frictionless point contacts (§11.3–11.5).

    Forms the LCP of :func:`contact_lcp`, solves it, and returns ``q̈`` from eq. 11.41,
    ``q̈ = H⁻¹ (τ - C + T_force λ)``.  If the
    LCP has no solution the result says so (``converged=False`` with the solver's message;
    ``.check()`` raises :class:`~spatial.contact.LCPError`).

    Parameters
    ----------
    H, force, T, tdot_qd, T_force :
        As for :func:`contact_lcp`.
    method : {"lemke", "principal_pivoting"}
        LCP solver (both process the positive semidefinite ``M`` and detect infeasibility).
    **options
        Passed to the solver.

    Returns
    -------
    ContactAcceleration

    Raises
    ------
    ValueError
        As for :func:`contact_lcp`, or for an unknown method.
    """
    solvers = {"lemke": lemke, "principal_pivoting": principal_pivoting}
    if method not in solvers:
        raise ValueError(f"method must be 'lemke' or 'principal_pivoting', got {method!r}")
    M, d = contact_lcp(H, force, T, tdot_qd, T_force)
    res = solvers[method](M, d, **options)
    lam = res.z
    directions = np.asarray(T if T_force is None else T_force, dtype=float)
    qdd = _HTinv(np.asarray(H, dtype=float), np.asarray(force, dtype=float) + directions @ lam)
    message = res.message if res.converged else "no contact forces found: " + res.message
    return ContactAcceleration(qdd, lam, res.w, res.converged, message, res)


def friction_cone_of(friction: str, k: int | None, tangent_dim: int) -> tuple[str, int | None]:
    """The ``(cone, k)`` arguments of :func:`friction_cone_violation` a friction model respects.

    Polyhedral and pyramid models keep impulses in the inscribed ``k``-gon, Gauss–Seidel here in
    the disc, box friction in the square of half-width ``μ λ̂_n`` (with the *estimated* normal
    impulse, so only approximately in the true cone).
    """
    if friction in ("polyhedral", "pyramid"):
        return "polygon", _facets(friction, k, tangent_dim)
    return ("disk" if friction == "gauss-seidel" else "box"), None


def _facets(friction: str, k: int | None, tangent_dim: int) -> int:
    if tangent_dim == 1:
        return 2
    if k is not None:
        return k
    return 8 if friction == "polyhedral" else 4


def solve_impulses(
    W,
    u,
    mu,
    *,
    bias=None,
    friction: str = "polyhedral",
    k: int | None = None,
    tangent_dim: int = 2,
    tol: float = 1e-9,
) -> FrictionResult:
    """Contact impulses of a velocity-level contact problem, with the chosen friction model.

    Solves ``0 <= λ_n ⟂ v_n - bias >= 0`` with ``v = u + W λ`` and Coulomb friction
    (ArtiSynth §0.10, Sueda eq. 1.88) in the layout of :mod:`spatial.contact.friction`.  When
    every ``μ`` is zero only the normal block is solved (frictionless contact is an LCP with the
    positive semidefinite ``W_nn``, Featherstone §11.5): by Lemke, or by projected Gauss–Seidel
    for ``friction="gauss-seidel"``.

    Parameters
    ----------
    W : array_like, shape (nc (1 + tangent_dim), nc (1 + tangent_dim))
        Delassus matrix ``J H⁻¹ Jᵀ``.
    u : array_like, shape (nc (1 + tangent_dim),)
        Contact velocities without contact impulses.
    mu : float or array_like, shape (nc,)
        Friction coefficients, >= 0.
    bias : float or array_like, shape (nc,), optional
        Target normal velocities (default 0).
    friction : {"polyhedral", "pyramid", "box", "gauss-seidel"}
        :func:`polyhedral_friction` (Anitescu–Stewart LCP, ``k`` facets, default 8),
        :func:`pyramid_friction` (Sueda's QP, default ``k = 4``), :func:`box_friction`,
        :func:`gauss_seidel_friction` with the disc.
    k : int, optional
        Facets of the polyhedral cone (ignored in the plane, where it is 2).
    tangent_dim : int
        2 in 3D, 1 in the plane.
    tol : float
        Accuracy asked of the solver: the complementarity error relative to ``max(1, |u|)``
        for the pivoting models, the relative impulse change per sweep for Gauss–Seidel.

    Returns
    -------
    FrictionResult

    Raises
    ------
    ValueError
        For bad shapes, a negative ``mu`` or an unknown friction model.
    """
    if friction not in FRICTION_MODELS:
        raise ValueError(f"friction must be one of {FRICTION_MODELS}, got {friction!r}")
    W = square_matrix(W, "W")
    d = tangent_dim
    if d not in (1, 2) or W.shape[0] % (1 + d):
        raise ValueError(f"W of size {W.shape[0]} does not fit tangent_dim={tangent_dim!r}")
    nc = W.shape[0] // (1 + d)
    mu_arr = np.broadcast_to(np.asarray(mu, dtype=float), (nc,)) if nc else np.zeros(0)
    if np.any(mu_arr < 0) or not np.all(np.isfinite(mu_arr)):
        raise ValueError(f"friction coefficient mu must be finite and >= 0, got {mu!r}")
    u = vector(u, "u", W.shape[0])
    if nc == 0:
        empty = np.zeros(0)
        return FrictionResult(
            empty, np.zeros((0, d)), empty, np.zeros((0, d)), 0, True, "no contacts"
        )
    if np.all(mu_arr == 0):
        b = np.zeros(nc) if bias is None else np.broadcast_to(np.asarray(bias, float), (nc,))
        if friction == "gauss-seidel":
            res = pgs(W[:nc, :nc], u[:nc] - b, tol=tol, max_iter=5000)
        else:
            res = lemke(W[:nc, :nc], u[:nc] - b, tol=tol)
        lam = np.concatenate([res.z, np.zeros(nc * d)])
        v = u + W @ lam
        return FrictionResult(
            res.z,
            np.zeros((nc, d)),
            v[:nc],
            v[nc:].reshape(nc, d),
            res.iterations,
            res.converged,
            res.message,
            lcp=res,
        )
    kk = _facets(friction, k, d)
    if friction == "polyhedral":
        return polyhedral_friction(W, u, mu, k=kk, tangent_dim=d, bias=bias, tol=tol)
    if friction == "pyramid":
        return pyramid_friction(W, u, mu, k=kk, tangent_dim=d, bias=bias, tol=tol)
    if friction == "box":
        return box_friction(W, u, mu, tangent_dim=d, bias=bias, tol=tol)
    return gauss_seidel_friction(
        W, u, mu, tangent_dim=d, bias=bias, cone="disk", tol=tol, max_iter=5000
    )
