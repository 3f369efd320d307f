"""Contact impulses of one velocity-level step, with a friction model chosen by name.

Over a time step the contact problem is posed in contact space (ArtiSynth §0.10, Sueda
§1.11–1.13; layout of :mod:`spatial.solvers.friction`): given the Delassus matrix ``W = J H⁻¹ Jᵀ``
of the contact rows ``J = [N; T]`` and the free contact velocity ``u = J v_free``, find impulses
``λ = [λ_n; λ_t]`` with

    0 <= λ_n ⟂ u_n + (W λ)_n - bias >= 0

and a friction law for ``λ_t``.  :func:`solve_impulses` dispatches to one of the friction models
by name (:data:`FRICTION_MODELS`); without friction (every ``μ = 0``) only the normal block is
solved, the frictionless LCP of Featherstone §11.5 at the velocity level.  Nothing here knows
where ``W`` and ``u`` come from: a kinematic tree (:mod:`spatial.contact`), bodies in maximal
coordinates (:mod:`spatial.maximal`) or a hand-made example.

:func:`solve_impulses` checks its arguments and runs the kernel ``_solve_impulses``; the contact
steppers and impact solvers, which build ``W`` themselves, call the kernel.
"""

from __future__ import annotations

import numpy as np

from .._validate import positive_diagonal, tolerance
from .friction import (
    FrictionResult,
    _box_friction,
    _contact_inputs,
    _facet_count,
    _gauss_seidel_friction,
    _polyhedral_friction,
    _pyramid_friction,
    _result,
    _tangent_dim,
)
from .lcp import _lemke
from .pgs import _pgs

__all__ = ["FRICTION_MODELS", "friction_cone_of", "solve_impulses"]

#: Friction models accepted by :func:`solve_impulses` (and the time steppers).
FRICTION_MODELS = ("polyhedral", "pyramid", "box", "gauss-seidel")

_GAUSS_SEIDEL_SWEEPS = 5000


def friction_cone_of(friction: str, k: int | None, tangent_dim: int) -> tuple[str, int | None]:
    """The ``(cone, k)`` of :func:`~spatial.solvers.friction_cone_violation` a model respects.

    Polyhedral and pyramid models keep impulses in the inscribed ``k``-gon, Gauss–Seidel here in
    the disc, box friction in the square of half-width ``μ λ̂_n`` (with the *estimated* normal
    impulse, so only approximately in the true cone).

    Parameters
    ----------
    friction : str
        One of :data:`FRICTION_MODELS`.
    k : int or None
        Facets asked of the polyhedral / pyramid model (None: its default).
    tangent_dim : int
        2 in 3D, 1 in the plane.

    Returns
    -------
    cone : {"polygon", "disk", "box"}
    k : int or None
        The number of facets for ``"polygon"``.
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


def _impulse_options(friction: str, k: int | None, tangent_dim: int, tol: float) -> dict:
    """Check the options of :func:`solve_impulses` (not its matrices); return them as keyword
    arguments of ``_solve_impulses``.  Also used by :mod:`spatial.contact.impact`."""
    if friction not in FRICTION_MODELS:
        raise ValueError(f"friction must be one of {FRICTION_MODELS}, got {friction!r}")
    _tangent_dim(tangent_dim)
    if friction in ("polyhedral", "pyramid"):
        _facet_count(_facets(friction, k, tangent_dim), tangent_dim)
    return dict(friction=friction, k=k, tangent_dim=tangent_dim, tol=tolerance(tol))


def _impulse_inputs(W, u, mu, bias, options: dict, u_name: str = "u"):
    """Check the contact problem ``W``, ``u``, ``mu``, ``bias`` for the checked ``options``;
    return them as arrays (``u`` named ``u_name`` in messages)."""
    W, u, mu, _, bias = _contact_inputs(W, u, mu, options["tangent_dim"], bias, u_name)
    if options["friction"] == "gauss-seidel":
        positive_diagonal(W, "W", "Gauss-Seidel")
    return W, u, mu, bias


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
    (ArtiSynth §0.10, Sueda eq. 1.88) in the layout of :mod:`spatial.solvers.friction`.  When
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
        :func:`~spatial.solvers.polyhedral_friction` (Anitescu–Stewart LCP, ``k`` facets,
        default 8), :func:`~spatial.solvers.pyramid_friction` (Sueda's QP, default ``k = 4``),
        :func:`~spatial.solvers.box_friction`, :func:`~spatial.solvers.gauss_seidel_friction`
        with the disc.
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
        For bad shapes, a negative ``mu``, an unknown friction model, an invalid ``k`` or
        ``tol``, or (Gauss–Seidel) a non-positive diagonal entry of ``W``.
    """
    options = _impulse_options(friction, k, tangent_dim, tol)
    W, u, mu, bias = _impulse_inputs(W, u, mu, bias, options)
    return _solve_impulses(W, u, mu, bias=bias, **options)


def _solve_impulses(
    W, u, mu, *, bias=None, friction="polyhedral", k=None, tangent_dim=2, tol=1e-9
) -> FrictionResult:
    """Kernel of :func:`solve_impulses`: ``W``, ``u`` checked arrays, ``mu`` a number or array
    ``>= 0``, ``bias`` None, a number or an array, the other arguments valid."""
    d = tangent_dim
    nc = W.shape[0] // (1 + d)
    mu = np.broadcast_to(np.asarray(mu, dtype=float), (nc,))
    bias = np.broadcast_to(np.asarray(0.0 if bias is None else bias, dtype=float), (nc,))
    if nc == 0:
        empty = np.zeros(0)
        return FrictionResult(
            empty, np.zeros((0, d)), empty, np.zeros((0, d)), 0, True, "no contacts"
        )
    if np.all(mu == 0):
        if friction == "gauss-seidel":
            res = _pgs(W[:nc, :nc], u[:nc] - bias, tol=tol, max_iter=_GAUSS_SEIDEL_SWEEPS)
        else:
            res = _lemke(W[:nc, :nc], u[:nc] - bias, tol=tol)
        lam = np.concatenate([res.z, np.zeros(nc * d)])
        return _result(W, u, lam, nc, d, res.iterations, res.converged, res.message, lcp=res)
    kk = _facets(friction, k, d)
    if friction == "polyhedral":
        return _polyhedral_friction(W, u, mu, nc, d, bias, kk, dict(tol=tol))
    if friction == "pyramid":
        return _pyramid_friction(W, u, mu, nc, d, bias, kk, dict(tol=tol))
    if friction == "box":
        return _box_friction(W, u, mu, nc, d, bias, None, "lemke", dict(tol=tol))
    return _gauss_seidel_friction(W, u, mu, nc, d, bias, "disk", 1.0, tol, _GAUSS_SEIDEL_SWEEPS)
