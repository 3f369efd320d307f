"""Friction impulses from contact-space quantities (ArtiSynth §0.10, §0.16; Sueda §1.13).

Every solver here works in *contact space*.  With ``nc`` contacts, each with a normal and
``tangent_dim`` tangent directions (2 in 3D, 1 in the plane), stack the contact Jacobian rows
as ``J = [N; T]``: first the ``nc`` normal rows, then the tangent rows contact by contact
(contact ``i`` owns rows ``nc + i·tangent_dim + k``).  The inputs are

* the Delassus matrix ``W = J M⁻¹ Jᵀ`` (:func:`~spatial.solvers.delassus`), and
* the free contact velocity ``u = J v_free``, the contact velocities the bodies would have
  without contact impulses (``v_free = M⁻¹ f̃`` in Sueda's notation),

and the contact impulses ``λ = [λ_n; λ_t]`` act through ``Jᵀλ``, so the contact velocities after
the step are ``u + W λ``.  The normal rows obey ``0 <= λ_n ⟂ v_n - bias >= 0``; ``bias`` is 0 for
rigid contact and ``-γ φ`` for velocity-level Baumgarte stabilization of penetrations ``φ < 0``
(Sueda eq. 1.82).  Contact geometry and kinematic trees come elsewhere; the one piece of
geometry here is :func:`tangent_basis`, the tangent directions of a contact's friction cone.

The friction models differ in the set the tangential impulse must stay in (for normal impulse
``λ_n`` and coefficient ``μ``):

* :func:`box_friction` — ``|λ_t,k| <= μ λ̂_n`` per tangent direction, with an estimate
  ``λ̂_n`` of the normal impulse: one box-bounded LCP;
* :func:`polyhedral_friction` — the regular ``k``-gon of radius ``μ λ_n``: the
  Anitescu–Stewart LCP, solved by Lemke;
* :func:`pyramid_friction` — the same polygon (``k = 4``: a pyramid) in Sueda's single convex QP;
* :func:`gauss_seidel_friction` — the box, or the disc ``|λ_t| <= μ λ_n``, contact by contact;
  each disc sub-problem is solved exactly by :func:`~spatial.solvers.disc_qp`.

Each model checks its arguments once and runs a private kernel (``_box_friction``,
``_polyhedral_friction``, ``_pyramid_friction``, ``_gauss_seidel_friction``), which
:func:`~spatial.solvers.solve_impulses` and the contact steppers call with checked matrices.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import (
    friction_coefficients,
    iteration_limit,
    positive_diagonal,
    real_array,
    relaxation_factor,
    square_matrix,
    tolerance,
    unit_vectors,
    vector,
)
from .disc import _disc_qp
from .lcp import Checkable, LCPResult, _lemke, _lemke_options
from .qp import _lcp_kernel, _lcp_options, _qp_kkt_lcp

__all__ = [
    "FrictionResult",
    "box_friction",
    "friction_E",
    "friction_cone_violation",
    "gauss_seidel_friction",
    "polyhedral_directions",
    "polyhedral_friction",
    "pyramid_friction",
    "tangent_basis",
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


def tangent_basis(normal) -> np.ndarray:
    """Two unit tangents ``t₁, t₂`` with ``(t₁, t₂, n)`` a right-handed orthonormal frame.

    These span the tangent plane of a contact, the plane of its friction impulse: the two
    tangent rows of the contact-space layout above are ``t₁`` and ``t₂`` (Featherstone eq. 11.68
    uses the same three directions for a point contact).  ``t₁`` is the world axis least aligned
    with ``n`` made orthogonal to ``n``, ``t₂ = n × t₁``.  The choice depends only on ``n``, so
    contacts with the same normal share tangents and a contact's tangents change continuously
    while its normal does.

    Parameters
    ----------
    normal : array_like, shape (..., 3)
        Contact normals (normalized here).

    Returns
    -------
    numpy.ndarray, shape (..., 2, 3)

    Raises
    ------
    ValueError
        If a normal is zero or not finite.
    """
    n = unit_vectors(normal, "normal")
    axis = np.eye(3)[np.argmin(np.abs(n), axis=-1)]
    t1 = axis - np.sum(axis * n, -1, keepdims=True) * n
    t1 /= np.linalg.norm(t1, axis=-1, keepdims=True)
    return np.stack([t1, np.cross(n, t1)], axis=-2)


def _contact_inputs(W, u, mu, tangent_dim, bias, u_name: str = "u"):
    """Check the contact-space problem; return ``W, u, mu, nc, bias`` (arrays of checked shape)."""
    _tangent_dim(tangent_dim)
    W = square_matrix(W, "W")
    size = W.shape[0]
    if size % (1 + tangent_dim):
        raise ValueError(
            f"W has {size} rows, not a multiple of 1 + tangent_dim = {1 + tangent_dim} "
            "(one normal and tangent_dim tangent rows per contact)"
        )
    nc = size // (1 + tangent_dim)
    u = vector(u, u_name, size)
    mu = friction_coefficients(mu, nc)
    bias = np.zeros(nc) if bias is None else real_array(bias, "bias")
    bias = vector(np.full(nc, bias) if bias.ndim == 0 else bias, "bias", nc)
    return W, u, mu, nc, bias


def _tangent_dim(tangent_dim) -> None:
    if tangent_dim not in (1, 2):
        raise ValueError(f"tangent_dim must be 1 (planar) or 2 (spatial), got {tangent_dim!r}")


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
    _facet_count(k, tangent_dim)
    return _polyhedral_directions(k, tangent_dim)


def _facet_count(k, tangent_dim) -> None:
    """Check the number ``k`` of directions of a polyhedral cone (2 in the plane, >= 3 in 3D)."""
    if tangent_dim == 1:
        if k != 2:
            raise ValueError(f"planar contact (tangent_dim=1) has k = 2 directions, got k={k!r}")
        return
    _tangent_dim(tangent_dim)
    if isinstance(k, bool | np.bool_) or not isinstance(k, int | np.integer) or k < 3:
        raise ValueError(f"k must be an integer >= 3 for spatial contact, got {k!r}")


def _polyhedral_directions(k: int, tangent_dim: int) -> np.ndarray:
    """Kernel of :func:`polyhedral_directions` for a checked ``k``."""
    if tangent_dim == 1:
        return np.array([[1.0], [-1.0]])
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
    from scipy.linalg import block_diag  # on first use: importing scipy.linalg costs 0.2 s

    D = _polyhedral_directions(k, d)
    B = block_diag(np.eye(nc), *([D] * nc))
    return D, B @ W @ B.T, B @ u


def _cone_inputs(W, u, mu, tangent_dim, bias, k, options):
    """Check the arguments of the polyhedral-cone models; return their kernels' arguments."""
    W, u, mu, nc, bias = _contact_inputs(W, u, mu, tangent_dim, bias)
    _facet_count(k, tangent_dim)
    options = _lemke_options(nc * (2 + k), False, **options)  # LCP in λ_n, φ and ξ
    return W, u, mu, nc, tangent_dim, bias, k, options


def _directions_result(W, u, res: LCPResult, nc, d, D) -> FrictionResult:
    """Impulses from an LCP solution ``[λ_n; φ; ...]``: ``λ_t = Σ_j φ_j d_j`` per contact."""
    phi = res.z[nc : nc + nc * D.shape[0]].reshape(nc, D.shape[0])
    lam = np.concatenate([res.z[:nc], (phi @ D).ravel()])
    return _result(W, u, lam, nc, d, res.iterations, res.converged, res.message, lcp=res)


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
    if method not in ("lemke", "pgs"):
        raise ValueError(f"method must be 'lemke' or 'pgs', got {method!r}")
    options = _lcp_options(method, W.shape[0], options, bounded=True)
    if method == "pgs":
        positive_diagonal(W, "W", "projected Gauss-Seidel")
    if normal_impulse is not None:
        normal_impulse = vector(normal_impulse, "normal_impulse", nc)
        if np.any(normal_impulse < 0):
            raise ValueError("normal_impulse must be >= 0")
    return _box_friction(W, u, mu, nc, tangent_dim, bias, normal_impulse, method, options)


def _box_friction(W, u, mu, nc, tangent_dim, bias, normal_impulse, method, options):
    """Kernel of :func:`box_friction` (``options`` from ``_lcp_options``, for the whole ``W``)."""
    if normal_impulse is None:
        estimate = {key: value for key, value in options.items() if key != "z0"}  # size of W
        normal = _lcp_kernel(method, W[:nc, :nc], u[:nc] - bias, **estimate)
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
    bound = np.repeat(mu * normal_impulse, tangent_dim)
    lo = np.concatenate([np.zeros(nc), -bound])
    hi = np.concatenate([np.full(nc, np.inf), bound])
    q = u - np.concatenate([bias, np.zeros(nc * tangent_dim)])
    res = _lcp_kernel(method, W, q, lo, hi, **options)
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
    return _polyhedral_friction(*_cone_inputs(W, u, mu, tangent_dim, bias, k, options))


def _polyhedral_friction(W, u, mu, nc, tangent_dim, bias, k, options) -> FrictionResult:
    """Kernel of :func:`polyhedral_friction` (``options`` from ``_lemke_options``)."""
    D, Wp, up = _polyhedral_space(W, u, nc, tangent_dim, k)
    E = friction_E(nc, k)
    nk = nc * k
    A = np.zeros((2 * nc + nk, 2 * nc + nk))
    A[: nc + nk, : nc + nk] = Wp
    A[nc : nc + nk, nc + nk :] = E
    A[nc + nk :, :nc] = np.diag(mu)
    A[nc + nk :, nc : nc + nk] = -E.T
    q = np.concatenate([up[:nc] - bias, up[nc:], np.zeros(nc)])
    return _directions_result(W, u, _lemke(A, q, **options), nc, tangent_dim, D)


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
    return _pyramid_friction(*_cone_inputs(W, u, mu, tangent_dim, bias, k, options))


def _pyramid_friction(W, u, mu, nc, tangent_dim, bias, k, options) -> FrictionResult:
    """Kernel of :func:`pyramid_friction` (``options`` from ``_lemke_options``)."""
    D, Wp, up = _polyhedral_space(W, u, nc, tangent_dim, k)
    cone = np.hstack([np.diag(mu), -friction_E(nc, k).T])  # Sueda's E, eq. 1.86
    M, q = _qp_kkt_lcp(Wp, up - np.concatenate([bias, np.zeros(nc * k)]), cone, np.zeros(nc))
    return _directions_result(W, u, _lemke(M, q, **options), nc, tangent_dim, D)


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
    positive_diagonal(W, "W", "Gauss-Seidel")
    omega, tol = relaxation_factor(omega), tolerance(tol)
    max_iter = iteration_limit(max_iter, W.shape[0])
    return _gauss_seidel_friction(W, u, mu, nc, tangent_dim, bias, cone, omega, tol, max_iter)


def _gauss_seidel_friction(W, u, mu, nc, d, bias, cone, omega, tol, max_iter) -> FrictionResult:
    """Kernel of :func:`gauss_seidel_friction`; a non-positive ``W[i, i]`` is reported as a
    failure (the public function rejects it), not divided by."""
    try:
        positive_diagonal(W, "W", "Gauss-Seidel")
    except ValueError as err:
        return _result(W, u, np.zeros(W.shape[0]), nc, d, 0, False, str(err))
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
                lam[t], _ = _disc_qp(W[t, t], omega * v_t - W[t, t] @ lam[t], limit)
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
    tangent = real_array(tangent, "tangent")
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
        D = polyhedral_directions(k, tangent.shape[1])  # checks k
        if tangent.shape[1] == 1:
            excess = np.abs(tangent[:, 0]) - radius
        else:
            edge = np.roll(D, -1, axis=0) + D  # edge j joins d_j and d_j+1; its normal bisects
            edge /= np.linalg.norm(edge, axis=1, keepdims=True)
            excess = (tangent @ edge.T).max(axis=1) - radius * np.cos(np.pi / k)
    else:
        raise ValueError(f"cone must be 'disk', 'box' or 'polygon', got {cone!r}")
    return float(max(np.max(excess, initial=0.0), np.max(-normal, initial=0.0), 0.0))
