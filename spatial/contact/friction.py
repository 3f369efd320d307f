"""Friction impulses from contact-space quantities (ArtiSynth §0.10, §0.16; Sueda §1.13).

Every solver here works in *contact space*.  With ``nc`` contacts, each with a normal and
``tangent_dim`` tangent directions (2 in 3D, 1 in the plane), stack the contact Jacobian rows
as ``J = [N; T]``: first the ``nc`` normal rows, then the tangent rows contact by contact
(contact ``i`` owns rows ``nc + i·tangent_dim + k``).  The inputs are

* the Delassus matrix ``W = J M⁻¹ Jᵀ`` (:func:`~spatial.contact.delassus`), and
* the free contact velocity ``u = J v_free``, the contact velocities the bodies would have
  without contact impulses (``v_free = M⁻¹ f̃`` in Sueda's notation),

and the contact impulses ``λ = [λ_n; λ_t]`` act through ``Jᵀλ``, so the contact velocities after
the step are ``u + W λ``.  The normal rows obey ``0 <= λ_n ⟂ v_n - bias >= 0``; ``bias`` is 0 for
rigid contact and ``-γ φ`` for velocity-level Baumgarte stabilization of penetrations ``φ < 0``
(Sueda eq. 1.82).  Contact geometry and kinematic trees come elsewhere.

The friction models differ in the set the tangential impulse must stay in (for normal impulse
``λ_n`` and coefficient ``μ``):

* :func:`box_friction` — ``|λ_t,k| <= μ λ̂_n`` per tangent direction, with an estimate
  ``λ̂_n`` of the normal impulse: one box-bounded LCP;
* :func:`polyhedral_friction` — the regular ``k``-gon of radius ``μ λ_n``: the
  Anitescu–Stewart LCP, solved by Lemke;
* :func:`pyramid_friction` — the same polygon (``k = 4``: a pyramid) in Sueda's single convex QP;
* :func:`gauss_seidel_friction` — the box, or the disc ``|λ_t| <= μ λ_n``, contact by contact;
  each disc sub-problem is solved exactly by :func:`disc_qp`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.linalg import block_diag

from ._input import friction_coefficients, iteration_limit, square_matrix, tolerance, vector
from .lcp import Checkable, LCPResult, lemke, pgs
from .qp import qp_kkt_lcp

__all__ = [
    "FrictionResult",
    "box_friction",
    "disc_qp",
    "friction_E",
    "friction_cone_violation",
    "gauss_seidel_friction",
    "polyhedral_directions",
    "polyhedral_friction",
    "pyramid_friction",
]


@dataclass
class FrictionResult(Checkable):
    """Contact impulses and the contact velocities they produce.

    Attributes
    ----------
    normal : numpy.ndarray, shape (nc,)
        Normal impulses ``λ_n >= 0``.
    tangent : numpy.ndarray, shape (nc, tangent_dim)
        Friction impulses in each contact's tangent frame.
    normal_velocity : numpy.ndarray, shape (nc,)
        Normal contact velocities after the impulses.
    tangent_velocity : numpy.ndarray, shape (nc, tangent_dim)
        Tangential (slip) velocities after the impulses.
    iterations : int
        Pivots of the LCP solver or Gauss–Seidel sweeps.
    converged : bool
    message : str
    lcp : LCPResult or None
        The underlying LCP result (pivoting models).
    residuals : numpy.ndarray or None
        Gauss–Seidel: relative impulse change in each sweep.
    """

    normal: np.ndarray
    tangent: np.ndarray
    normal_velocity: np.ndarray
    tangent_velocity: np.ndarray
    iterations: int
    converged: bool
    message: str
    lcp: LCPResult | None = None
    residuals: np.ndarray | None = None


def _contact_inputs(W, u, mu, tangent_dim, bias):
    if tangent_dim not in (1, 2):
        raise ValueError(f"tangent_dim must be 1 (planar) or 2 (spatial), got {tangent_dim!r}")
    W = square_matrix(W, "W")
    size = W.shape[0]
    if size % (1 + tangent_dim):
        raise ValueError(
            f"W has {size} rows, not a multiple of 1 + tangent_dim = {1 + tangent_dim} "
            "(one normal and tangent_dim tangent rows per contact)"
        )
    nc = size // (1 + tangent_dim)
    u = vector(u, "u", size)
    mu = friction_coefficients(mu, nc)
    bias = np.zeros(nc) if bias is None else np.asarray(bias, dtype=float)
    bias = vector(np.full(nc, bias) if bias.ndim == 0 else bias, "bias", nc)
    return W, u, mu, nc, bias


def _result(W, u, lam, nc, d, iterations, converged, message, **extra) -> FrictionResult:
    v = u + W @ lam
    return FrictionResult(
        lam[:nc],
        lam[nc:].reshape(nc, d),
        v[:nc],
        v[nc:].reshape(nc, d),
        iterations,
        converged,
        message,
        **extra,
    )


def polyhedral_directions(k: int, tangent_dim: int = 2) -> np.ndarray:
    """Unit tangent directions ``d_j`` spanning a polyhedral friction cone (ArtiSynth §0.10).

    In 3D (``tangent_dim=2``) the ``k`` directions are at angles ``2πj/k`` in each contact's
    tangent plane; the admissible friction impulses ``Σ φ_j d_j`` with ``φ >= 0``,
    ``Σ φ_j <= μ λ_n`` form the regular ``k``-gon inscribed in the circle of radius ``μ λ_n``.
    ``k = 4`` gives Sueda's four-sided pyramid (eq. 1.85).  In the plane (``tangent_dim=1``)
    the only choice is ``k = 2``: ``±t``.

    Parameters
    ----------
    k : int
        Number of directions (facets), ``>= 3`` in 3D, ``2`` in the plane.
    tangent_dim : int
        2 (spatial contact) or 1 (planar contact).

    Returns
    -------
    numpy.ndarray, shape (k, tangent_dim)

    Raises
    ------
    ValueError
        For an invalid ``k`` or ``tangent_dim``.
    """
    if tangent_dim == 1:
        if k != 2:
            raise ValueError(f"planar contact (tangent_dim=1) has k = 2 directions, got k={k!r}")
        return np.array([[1.0], [-1.0]])
    if tangent_dim != 2:
        raise ValueError(f"tangent_dim must be 1 (planar) or 2 (spatial), got {tangent_dim!r}")
    if int(k) != k or k < 3:
        raise ValueError(f"k must be an integer >= 3 for spatial contact, got {k!r}")
    angles = 2 * np.pi * np.arange(k) / k
    return np.stack([np.cos(angles), np.sin(angles)], axis=-1)


def friction_E(nc: int, k: int) -> np.ndarray:
    """ArtiSynth's ``E`` (§0.10): ``E[i, j] = 1`` when direction ``i`` belongs to contact ``j``.

    With directions stored contact by contact, ``Eᵀφ`` sums each contact's direction impulses
    (the cone constraint is ``μ λ_n - Eᵀφ >= 0``) and ``E ξ`` copies each contact's slip speed
    ``ξ`` to its directions.  Sueda's ``E`` (eq. 1.86) is ``[diag(μ), -Eᵀ]``.

    Parameters
    ----------
    nc : int
        Number of contacts.
    k : int
        Directions per contact.

    Returns
    -------
    numpy.ndarray, shape (nc * k, nc)
    """
    return np.kron(np.eye(nc), np.ones((k, 1)))


def _polyhedral_space(W, u, nc, d, k):
    """Map contact space to (normals, direction rows): ``B`` with ``B W Bᵀ``, ``B u``."""
    D = polyhedral_directions(k, d)
    B = block_diag(np.eye(nc), *([D] * nc))
    return D, B @ W @ B.T, B @ u


def box_friction(
    W,
    u,
    mu,
    *,
    tangent_dim: int = 2,
    normal_impulse=None,
    bias=None,
    method: str = "lemke",
    **options,
) -> FrictionResult:
    """Box friction: each tangent impulse bounded by ``±μ λ̂_n`` (ArtiSynth eqs. 0.5–0.6).

    The friction bounds depend on the normal impulse, which is what is being solved for, so
    they are fixed from an estimate ``λ̂_n``: given, or by default the frictionless normal
    impulses (the LCP on the normal block of ``W``).  With fixed bounds the whole contact
    problem is one box-bounded LCP in ``λ = [λ_n; λ_t]``: ``0 <= λ_n ⟂ v_n - bias >= 0`` and
    each ``λ_t,k`` in ``[-μλ̂_n, μλ̂_n]``, zero slip when strictly inside and slip opposing the
    impulse at a bound.  The box is a square friction "cone" that contains the true disc.

    Parameters
    ----------
    W : array_like, shape (nc (1 + tangent_dim), nc (1 + tangent_dim))
        Contact-space Delassus matrix (module docstring for the layout).
    u : array_like, shape (nc (1 + tangent_dim),)
        Free contact velocities.
    mu : float or array_like, shape (nc,)
        Friction coefficients, ``>= 0``.
    tangent_dim : int
        Tangent directions per contact (2 in 3D, 1 in the plane).
    normal_impulse : array_like, shape (nc,), optional
        Estimate ``λ̂_n`` of the normal impulses that sets the bounds.
    bias : float or array_like, shape (nc,), optional
        Target normal velocities (default 0).
    method : {"lemke", "pgs"}
        Box-LCP solver.
    **options
        Passed to the solver.

    Returns
    -------
    FrictionResult

    Raises
    ------
    ValueError
        For bad shapes or values, a negative ``mu`` or ``normal_impulse``, or an unknown method.
    """
    W, u, mu, nc, bias = _contact_inputs(W, u, mu, tangent_dim, bias)
    solve = {"lemke": lemke, "pgs": pgs}.get(method)
    if solve is None:
        raise ValueError(f"method must be 'lemke' or 'pgs', got {method!r}")
    if normal_impulse is None:
        normal = solve(W[:nc, :nc], u[:nc] - bias, **options)
        if not normal.converged:
            return _result(
                W,
                u,
                np.zeros(W.shape[0]),
                nc,
                tangent_dim,
                normal.iterations,
                False,
                "normal-impulse estimate: " + normal.message,
                lcp=normal,
            )
        normal_impulse = np.maximum(normal.z, 0.0)
    normal_impulse = vector(normal_impulse, "normal_impulse", nc)
    if np.any(normal_impulse < 0):
        raise ValueError("normal_impulse must be >= 0")
    bound = np.repeat(mu * normal_impulse, tangent_dim)
    lo = np.concatenate([np.zeros(nc), -bound])
    hi = np.concatenate([np.full(nc, np.inf), bound])
    q = u - np.concatenate([bias, np.zeros(nc * tangent_dim)])
    res = solve(W, q, lo=lo, hi=hi, **options)
    return _result(
        W, u, res.z, nc, tangent_dim, res.iterations, res.converged, res.message, lcp=res
    )


def polyhedral_friction(
    W, u, mu, *, k: int = 8, tangent_dim: int = 2, bias=None, **options
) -> FrictionResult:
    """Anitescu–Stewart polyhedral friction as one LCP, solved by Lemke (ArtiSynth §0.10).

    The friction impulse of each contact is ``Σ_j φ_j d_j`` over ``k`` directions
    (:func:`polyhedral_directions`) with ``φ >= 0``.  A slip-speed variable ``ξ`` per contact
    completes the complementarity system (ArtiSynth's block matrix with ``E``,
    :func:`friction_E`):

        v_n - bias    >= 0  ⟂  λ_n >= 0                (no penetration)
        d_jᵀ v_t + ξ  >= 0  ⟂  φ_j >= 0                (only directions opposing the slip act)
        μ λ_n - Eᵀ φ  >= 0  ⟂  ξ >= 0                  (inside the cone, or sliding on its edge)

    If the contact slips, ``ξ > 0`` puts the impulse on the boundary of the cone, in the
    direction that dissipates most (maximal dissipation); if it sticks, the slip is zero.
    The LCP matrix is not positive semidefinite; Lemke is the standard solver for it.

    Parameters
    ----------
    W, u, mu, tangent_dim, bias :
        As for :func:`box_friction`.
    k : int
        Friction directions per contact (facets of the polyhedral cone); 2 in the plane.
    **options
        Passed to :func:`lemke`.

    Returns
    -------
    FrictionResult
        ``tangent[i] = Σ_j φ_ij d_j`` in contact ``i``'s tangent frame.

    Raises
    ------
    ValueError
        For bad shapes or values, a negative ``mu``, or an invalid ``k``.
    """
    W, u, mu, nc, bias = _contact_inputs(W, u, mu, tangent_dim, bias)
    D, Wp, up = _polyhedral_space(W, u, nc, tangent_dim, k)
    E = friction_E(nc, k)
    nk = nc * k
    A = np.zeros((2 * nc + nk, 2 * nc + nk))
    A[: nc + nk, : nc + nk] = Wp
    A[nc : nc + nk, nc + nk :] = E
    A[nc + nk :, :nc] = np.diag(mu)
    A[nc + nk :, nc : nc + nk] = -E.T
    q = np.concatenate([up[:nc] - bias, up[nc:], np.zeros(nc)])
    res = lemke(A, q, **options)
    phi = res.z[nc : nc + nk].reshape(nc, k)
    lam = np.concatenate([res.z[:nc], (phi @ D).ravel()])
    return _result(W, u, lam, nc, tangent_dim, res.iterations, res.converged, res.message, lcp=res)


def pyramid_friction(
    W, u, mu, *, k: int = 4, tangent_dim: int = 2, bias=None, **options
) -> FrictionResult:
    """Sueda's single-QP friction pyramid (Sueda §1.13, eq. 1.88; Anitescu & Hart 2004).

    With ``λ = [α; β]`` (normal and direction impulses, ``C = [N; T]``) solve the convex QP

        minimize ½ λᵀ C M⁻¹ Cᵀ λ + λᵀ (C v_free - [bias; 0])   s.t.  λ >= 0,  μ α - Eᵀβ >= 0,

    the dual of the velocity QP with the pyramid constraints.  ``k = 4`` is the four-sided
    pyramid of eq. 1.85.  It is solved as the LCP of its KKT conditions (:func:`qp_kkt_lcp`)
    by Lemke.  Compared with :func:`polyhedral_friction` the QP's KKT conditions say
    ``v_n - bias = μ ξ`` instead of ``>= 0`` for an active contact: a sliding contact separates
    slightly, with normal velocity ``μ`` times its slip speed.  That is the price of making the
    problem convex (a unique velocity, always solvable).

    Parameters
    ----------
    W, u, mu, tangent_dim, bias :
        As for :func:`box_friction`.
    k : int
        Friction directions per contact (4: the pyramid); 2 in the plane.
    **options
        Passed to :func:`lemke`.

    Returns
    -------
    FrictionResult

    Raises
    ------
    ValueError
        For bad shapes or values, a negative ``mu``, or an invalid ``k``.
    """
    W, u, mu, nc, bias = _contact_inputs(W, u, mu, tangent_dim, bias)
    D, Wp, up = _polyhedral_space(W, u, nc, tangent_dim, k)
    cone = np.hstack([np.diag(mu), -friction_E(nc, k).T])  # Sueda's E, eq. 1.86
    M, q = qp_kkt_lcp(Wp, up - np.concatenate([bias, np.zeros(nc * k)]), cone, np.zeros(nc))
    res = lemke(M, q, **options)
    phi = res.z[nc : nc + nc * k].reshape(nc, k)
    lam = np.concatenate([res.z[:nc], (phi @ D).ravel()])
    return _result(W, u, lam, nc, tangent_dim, res.iterations, res.converged, res.message, lcp=res)


def disc_qp(A, c, radius) -> tuple[np.ndarray, float]:
    """Minimize ``½ xᵀ A x + cᵀ x`` over the disc ``|x| <= radius`` (a trust-region sub-problem).

    This is one contact's friction problem in :func:`gauss_seidel_friction`: with the other
    impulses fixed, ``A = W_tt`` is the contact's tangential Delassus block and ``c`` its slip
    velocity without its own friction impulse, so the objective is the kinetic energy left
    after the impulse (up to a constant, the dual objective of Sueda eq. 1.88).  Its minimizer
    is the friction impulse of maximal dissipation for that contact.

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
    r = np.asarray(radius, dtype=float)
    if r.shape != () or not np.isfinite(r) or r < 0:
        raise ValueError(f"radius must be a finite number >= 0, got {radius!r}")
    radius = float(r)
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


def gauss_seidel_friction(
    W,
    u,
    mu,
    *,
    tangent_dim: int = 2,
    cone: str = "box",
    bias=None,
    omega: float = 1.0,
    tol: float = 1e-10,
    max_iter: int = 1000,
) -> FrictionResult:
    """Contact-by-contact Gauss–Seidel with friction (ArtiSynth §0.15–0.16).

    Each sweep visits the contacts in order.  For contact ``i`` it first updates the normal
    impulse as in projected Gauss–Seidel, ``λ_n ← max(0, λ_n - ω (v_n - bias) / W_nn)``, then
    the friction impulse with the bound ``r = μ λ_n`` taken from the *current* normal impulse:

    * ``cone="box"`` (ArtiSynth §0.16): each tangent direction on its own, the impulse that
      stops the slip, clipped to ``[-r, r]`` (the box friction conditions, eq. 0.6);
    * ``cone="disk"``: the same idea for both tangent rows at once (§0.16's ``w`` is then the
      2×2 block ``W_tt``): the impulse in the disc ``|λ_t| <= r`` that leaves the least kinetic
      energy, the exact minimizer of ``½ λᵀ W_tt λ + λᵀ (v_t - W_tt λ_t)`` over the disc
      (:func:`disc_qp`), with ``v_t`` the current slip.  On convergence each sliding
      contact's impulse is on the circle and exactly opposes its final slip (maximal
      dissipation).  Merely projecting ``-W_tt⁻¹ v_t`` radially onto the disc is the same
      only when ``W_tt`` is a multiple of the identity; at a box's vertices it is not.

    With relaxation the step is taken towards ``λ_t - ω W_tt⁻¹ v_t`` and projected onto the
    disc in the metric of ``W_tt`` (``c = ω v_t - W_tt λ_t`` in :func:`disc_qp`), as the box
    step clips ``λ - ω v / W_rr``.  Velocities are always ``u + W λ`` for the current
    impulses.  The iteration stops when the largest impulse change in a sweep is at most
    ``tol`` times the largest impulse.

    Parameters
    ----------
    W, u, mu, tangent_dim, bias :
        As for :func:`box_friction`.  ``W`` needs a positive diagonal.
    cone : {"box", "disk"}
        Friction set, see above.
    omega : float
        Relaxation factor in (0, 2).
    tol : float
        Relative tolerance on the impulse change per sweep.
    max_iter : int
        Maximum number of sweeps.

    Returns
    -------
    FrictionResult
        ``residuals`` holds the relative impulse change of each sweep.

    Raises
    ------
    ValueError
        For bad shapes or values, a negative ``mu``, a non-positive diagonal of ``W``,
        ``omega`` outside (0, 2), or an unknown ``cone``.
    """
    W, u, mu, nc, bias = _contact_inputs(W, u, mu, tangent_dim, bias)
    if cone not in ("box", "disk"):
        raise ValueError(f"cone must be 'box' or 'disk', got {cone!r}")
    if np.any(np.diag(W) <= 0):
        raise ValueError("Gauss-Seidel needs a positive diagonal: W[i, i] > 0 for all i")
    if not 0 < omega < 2:
        raise ValueError(f"relaxation factor omega must be in (0, 2), got {omega!r}")
    tol, max_iter = tolerance(tol), iteration_limit(max_iter, W.shape[0])
    d = tangent_dim
    lam = np.zeros(W.shape[0])
    residuals = []
    converged = False
    while not converged and len(residuals) < max_iter:
        previous = lam.copy()
        for i in range(nc):
            v_n = u[i] + W[i] @ lam
            lam[i] = max(0.0, lam[i] - omega * (v_n - bias[i]) / W[i, i])
            limit = mu[i] * lam[i]
            t = slice(nc + i * d, nc + (i + 1) * d)
            if cone == "box":
                for r in range(t.start, t.stop):
                    v_r = u[r] + W[r] @ lam
                    lam[r] = np.clip(lam[r] - omega * v_r / W[r, r], -limit, limit)
            else:
                v_t = u[t] + W[t] @ lam
                lam[t], _ = disc_qp(W[t, t], omega * v_t - W[t, t] @ lam[t], limit)
        change = np.abs(lam - previous).max() / max(np.abs(lam).max(), np.finfo(float).tiny)
        residuals.append(change)
        converged = change <= tol
    k = len(residuals)
    message = f"converged after {k} sweeps" if converged else f"not converged after {k} sweeps"
    return _result(W, u, lam, nc, d, k, converged, message, residuals=np.array(residuals))


def friction_cone_violation(normal, tangent, mu, *, cone: str = "disk", k: int | None = None):
    """How far contact impulses lie outside a friction cone (0 when inside).

    ``max_i`` of the largest violation among: ``-λ_n`` (pulling contact), and

    * ``"disk"``: ``|λ_t| - μ λ_n`` (the Coulomb cone);
    * ``"box"``: ``|λ_t,k| - μ λ_n`` per tangent direction;
    * ``"polygon"``: ``λ_t · e_j - μ λ_n cos(π/k)`` over the edge normals ``e_j`` of the
      regular ``k``-gon spanned by :func:`polyhedral_directions`.

    Parameters
    ----------
    normal : array_like, shape (nc,)
        Normal impulses.
    tangent : array_like, shape (nc, tangent_dim)
        Friction impulses.
    mu : float or array_like, shape (nc,)
        Friction coefficients, ``>= 0``.
    cone : {"disk", "box", "polygon"}
        Friction set.
    k : int, optional
        Directions of the polygon (required for ``"polygon"``).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For bad shapes or values, a negative ``mu``, an unknown ``cone``, or a missing ``k``.
    """
    normal = vector(normal, "normal")
    nc = normal.shape[0]
    tangent = np.asarray(tangent, dtype=float)
    if tangent.ndim != 2 or tangent.shape[0] != nc or tangent.shape[1] not in (1, 2):
        raise ValueError(f"tangent must have shape ({nc}, 1) or ({nc}, 2), got {tangent.shape}")
    vector(tangent.ravel(), "tangent")
    mu = friction_coefficients(mu, nc)
    radius = mu * normal
    if cone == "disk":
        excess = np.linalg.norm(tangent, axis=1) - radius
    elif cone == "box":
        excess = np.abs(tangent).max(axis=1, initial=0.0) - radius
    elif cone == "polygon":
        if k is None:
            raise ValueError("cone='polygon' needs the number of directions k")
        D = polyhedral_directions(k, tangent.shape[1])
        if tangent.shape[1] == 1:
            excess = np.abs(tangent[:, 0]) - radius
        else:
            edge = np.roll(D, -1, axis=0) + D  # edge j joins d_j and d_j+1; its normal bisects
            edge /= np.linalg.norm(edge, axis=1, keepdims=True)
            excess = (tangent @ edge.T).max(axis=1) - radius * np.cos(np.pi / k)
    else:
        raise ValueError(f"cone must be 'disk', 'box' or 'polygon', got {cone!r}")
    return float(max(np.max(excess, initial=0.0), np.max(-normal, initial=0.0), 0.0))
