"""Impulsive dynamics: collisions with restitution and friction (Featherstone §11.7).

An impact changes velocities in a step: a body receiving the impulse ``ι`` changes velocity by
``Δv = I⁻¹ ι`` (eq. 11.55), and a rigid-body system receiving the joint-space impulse
``u = Jᵀ ι`` by ``Δq̇ = H⁻¹ u`` (eqs. 11.57–11.59).  What the impulse is depends on a law of
restitution.  Writing ``ζ`` for the separation velocities before the impact (``ζ_n < 0``:
approaching) and ``W = J H⁻¹ Jᵀ`` for the Delassus matrix:

* **Newton (kinematic) restitution**: the separation velocity after the impact is at least
  ``-e`` times the one before, ``ζ_n⁺ >= -e ζ_n``, with equality where the contact pushes
  (eq. 11.64 for one contact);
* **Poisson (kinetic) restitution**: the impact has a compression phase, which stops the
  approach (a plastic impact, impulse ``λ_c``), and a restitution phase that returns ``e``
  times that impulse: ``λ = (1 + e) λ_c``.

For one frictionless contact the two agree (eq. 11.65).  They differ with several contacts or
with friction, and there the difference matters: **Poisson's law never creates kinetic
energy** for ``0 <= e <= 1``.  With complementarity ``λ_cᵀ w_c <= 0`` at the end of
compression (zero for the normal rows, negative for friction that opposes sliding), the change
of kinetic energy ``ΔT = λᵀζ + ½ λᵀWλ`` becomes

    ΔT = (1 + e) λ_cᵀ w_c - ½ (1 - e²) λ_cᵀ W λ_c  <=  0.

Newton's law dissipates for one frictionless contact (``ΔT = ½ (1 - e) λ ζ_n <= 0``) but can
*gain* energy when several contacts are coupled or friction acts (Kane's paradox).  Poisson's law
has its own flaw: the restitution impulse ``e λ_c`` can drive a contact that the compression
phase only just stopped into approach again, so ``ζ_n⁺ >= 0`` may fail at such a contact; a
further plastic pass must stop it (the time stepper's contact solve after every impact does).

:func:`collision` is the two-body collision of Featherstone eqs. 11.60–11.72 with the
tangential motion arrested, generalized by a diagonal restitution matrix ``E`` to tangential
and torsional restitution (Figure 11.9).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import as_array, friction_coefficients, real_array
from ..inertia import inertia_inverse
from ..solvers.friction import tangent_basis
from ..solvers.impulses import _impulse_inputs, _impulse_options, _solve_impulses
from ..solvers.lcp import Checkable

__all__ = [
    "CollisionResult",
    "ImpactResult",
    "apply_impact",
    "collision",
    "contact_wrenches",
    "impact",
    "restitution_coefficient",
]

_LAWS = ("newton", "poisson")


def restitution_coefficient(e, name: str = "restitution") -> np.ndarray:
    """Return ``e`` as a float array, checking ``0 <= e <= 1``.

    Raises
    ------
    ValueError
        If an entry is outside [0, 1] or not finite.
    """
    a = real_array(e, name)
    if not np.all(np.isfinite(a)) or np.any(a < 0) or np.any(a > 1):
        raise ValueError(f"{name} must lie in [0, 1], got {e!r}")
    return a


def contact_wrenches(point, normal, *, torsion: bool = False) -> np.ndarray:
    """Unit spatial forces ``N = [n_x n_y n_z (n_τ)]`` of a point contact (Featherstone eq. 11.68).

    ``n_x``, ``n_y`` are unit forces along the tangents ``t₁, t₂`` (:func:`tangent_basis`) and
    ``n_z`` the unit force along the normal, all with lines of action through the contact
    point: ``[p × d; d]``.  With ``torsion`` a fourth column, the unit couple ``[n; 0]`` about
    the normal, carries torsional friction and restitution.

    Parameters
    ----------
    point : array_like, shape (..., 3)
        Contact point in the coordinates of the spatial vectors (e.g. world).
    normal : array_like, shape (..., 3)
        Contact normal (normalized here).
    torsion : bool

    Returns
    -------
    numpy.ndarray, shape (..., 6, 3) or (..., 6, 4)

    Raises
    ------
    ValueError
        For non-finite input or a zero normal.
    """
    p = as_array(point, "point", (3,))
    t = tangent_basis(normal)  # (..., 2, 3)
    n = np.cross(t[..., 0, :], t[..., 1, :])
    dirs = np.concatenate([t, n[..., None, :]], -2)  # (..., 3, 3): t1, t2, n
    p = np.broadcast_to(p[..., None, :], dirs.shape)
    cols = np.concatenate([np.cross(p, dirs), dirs], -1)  # (..., 3, 6)
    if torsion:
        couple = np.concatenate([n, np.zeros_like(n)], -1)[..., None, :]
        cols = np.concatenate([cols, couple], -2)
    return np.swapaxes(cols, -1, -2)


@dataclass
class CollisionResult:
    """Outcome of :func:`collision`.

    Attributes
    ----------
    impulse : numpy.ndarray, shape (..., k)
        Impulse coefficients ``λ`` along the columns of ``N`` (eq. 11.68).
    iota : numpy.ndarray, shape (..., 6)
        Spatial impulse ``ι = N λ`` transmitted from body 1 to body 2.
    dv1, dv2 : numpy.ndarray, shape (..., 6)
        Velocity changes ``-I₁⁻¹ ι`` and ``I₂⁻¹ ι`` (eqs. 11.66–11.67).
    energy_change : numpy.ndarray, shape (...)
        Change of the total kinetic energy of the two bodies.
    """

    impulse: np.ndarray
    iota: np.ndarray
    dv1: np.ndarray
    dv2: np.ndarray
    energy_change: np.ndarray


def _inverse(I, name: str, batch_like: np.ndarray) -> np.ndarray:
    if I is None:
        return np.zeros(batch_like.shape[:-1] + (6, 6))
    return inertia_inverse(as_array(I, name, (6, 6)))


def collision(I1, I2, v1, v2, N, restitution) -> CollisionResult:
    """Impulse of a two-body collision at one point (Featherstone eqs. 11.60–11.72).

    With ``ζ = Nᵀ(v₂ - v₁)`` the relative velocity components along the columns of ``N``
    (eq. 11.69) and the restitution matrix ``E = diag(e)``, the impulse makes
    ``Δζ = -(1 + E) ζ`` (eq. 11.71):

        λ = -(Nᵀ (I₁⁻¹ + I₂⁻¹) N)⁻¹ (1 + E) Nᵀ (v₂ - v₁)                   (eq. 11.72)

    With ``N = n`` alone this is the frictionless collision, eq. 11.65.  With
    :func:`contact_wrenches` and ``e = (e_t, e_t, e_n)`` the tangential slip is arrested
    (``e_t = 0``, the book's example) or reversed (tangential restitution ``e_t > 0``); with
    ``torsion=True`` a fourth entry ``e_τ`` does the same for spin about the normal.  The
    model assumes friction is strong enough to do this: check the impulse against the friction
    cone with :func:`~spatial.solvers.friction_cone_violation`, or use :func:`impact` with a
    Coulomb friction model.  Kinetic energy never increases when all entries of ``e`` are
    equal; unequal tangential and normal coefficients can add energy when the directions are
    coupled through the inertias (``energy_change`` reports it).

    Parameters
    ----------
    I1, I2 : array_like, shape (..., 6, 6), or None
        Spatial inertias of the two bodies in the coordinates of ``N`` (None: a fixed body,
        infinite inertia).  At least one must be given.
    v1, v2 : array_like, shape (..., 6)
        Velocities before the impact, same coordinates.
    N : array_like, shape (..., 6, k)
        Impulse directions (spatial forces), e.g. :func:`contact_wrenches`.
    restitution : float or array_like, shape (..., k)
        Restitution coefficient of each direction, in [0, 1].

    Returns
    -------
    CollisionResult

    Raises
    ------
    ValueError
        For bad shapes or values, a restitution outside [0, 1], both bodies fixed, or
        ``Nᵀ(I₁⁻¹ + I₂⁻¹)N`` singular (dependent directions).
    """
    if I1 is None and I2 is None:
        raise ValueError("at least one of I1, I2 must be a moving body's inertia")
    v1 = as_array(v1, "v1", (6,))
    v2 = as_array(v2, "v2", (6,))
    N = real_array(N, "N")
    if N.ndim < 2 or N.shape[-2] != 6 or not np.all(np.isfinite(N)):
        raise ValueError(f"N must be a finite array of shape (..., 6, k), got {N.shape}")
    e = restitution_coefficient(restitution)
    Ai1, Ai2 = _inverse(I1, "I1", v1), _inverse(I2, "I2", v2)
    NT = np.swapaxes(N, -1, -2)
    A = NT @ (Ai1 + Ai2) @ N
    zeta = (NT @ (v2 - v1)[..., None])[..., 0]
    rhs = -(1.0 + e) * zeta
    try:
        lam = np.linalg.solve(A, rhs[..., None])[..., 0]
    except np.linalg.LinAlgError:
        raise ValueError(
            "N^T (I1^-1 + I2^-1) N is singular: the directions are dependent"
        ) from None
    iota = (N @ lam[..., None])[..., 0]
    dv1 = -(Ai1 @ iota[..., None])[..., 0]
    dv2 = (Ai2 @ iota[..., None])[..., 0]
    dT = 0.0
    for I, v, dv in ((I1, v1, dv1), (I2, v2, dv2)):
        if I is not None:
            I = np.asarray(I, dtype=float)
            w = v + dv
            dT = dT + 0.5 * (
                np.einsum("...i,...ij,...j->...", w, I, w)
                - np.einsum("...i,...ij,...j->...", v, I, v)
            )
    return CollisionResult(lam, iota, dv1, dv2, np.asarray(dT))


@dataclass
class ImpactResult(Checkable):
    """Outcome of :func:`impact` (contact space, layout of :mod:`spatial.solvers.friction`).

    Attributes
    ----------
    normal : numpy.ndarray, shape (nc,)
        Normal impulses.
    tangent : numpy.ndarray, shape (nc, tangent_dim)
        Friction impulses.
    normal_velocity, tangent_velocity : numpy.ndarray
        Contact velocities after the impact.
    compression : numpy.ndarray or None, shape (nc (1 + tangent_dim),)
        Poisson: the impulse of the compression phase ``λ_c``.
    energy_change : float
        ``ΔT = λᵀζ + ½ λᵀWλ``, the change of kinetic energy.
    law : str
    converged : bool
    message : str
    """

    normal: np.ndarray
    tangent: np.ndarray
    normal_velocity: np.ndarray
    tangent_velocity: np.ndarray
    compression: np.ndarray | None
    energy_change: float
    law: str
    converged: bool
    message: str

    @property
    def impulse(self) -> np.ndarray:
        """All impulses ``λ = [λ_n; λ_t]`` stacked in the contact-space layout."""
        return np.concatenate([self.normal, self.tangent.ravel()])


def impact(
    W,
    zeta,
    mu=0.0,
    *,
    restitution: float = 0.0,
    law: str = "poisson",
    friction: str = "polyhedral",
    k: int | None = None,
    tangent_dim: int = 2,
    tol: float = 1e-9,
) -> ImpactResult:
    """Impulses of a simultaneous impact at several contacts, with restitution and friction.

    Newton: one contact problem with target ``ζ_n⁺ >= -e min(ζ_n, 0)``.  Poisson: the plastic
    problem (target 0) gives ``λ_c``, and ``λ = (1 + e) λ_c`` (module docstring).  Friction is
    any model of :func:`~spatial.solvers.solve_impulses`.

    Parameters
    ----------
    W : array_like, shape (nc (1 + tangent_dim), nc (1 + tangent_dim))
        Delassus matrix ``J H⁻¹ Jᵀ``.
    zeta : array_like, shape (nc (1 + tangent_dim),)
        Contact velocities before the impact, ``J q̇``.
    mu : float or array_like, shape (nc,)
        Friction coefficients, >= 0.
    restitution : float
        ``e`` in [0, 1], the same for every contact.
    law : {"poisson", "newton"}
    friction, k, tangent_dim, tol :
        As for :func:`~spatial.solvers.solve_impulses`.

    Returns
    -------
    ImpactResult

    Raises
    ------
    ValueError
        For bad shapes, a negative ``mu``, ``e`` outside [0, 1] or an unknown law or model.
    """
    e = _impact_law(restitution, law)
    options = _impulse_options(friction, k, tangent_dim, tol)
    W, zeta, mu, _ = _impulse_inputs(W, zeta, mu, None, options, "zeta")
    return _impact(W, zeta, mu, e, law, options)


def _impact_law(restitution, law: str) -> float:
    """Check the law of restitution and its coefficient; return ``e``."""
    e = float(restitution_coefficient(restitution))
    if law not in _LAWS:
        raise ValueError(f"law must be 'newton' or 'poisson', got {law!r}")
    return e


def _impact(W, zeta, mu, e: float, law: str, options: dict) -> ImpactResult:
    """Kernel of :func:`impact` on checked input; ``options`` are the checked friction,
    ``k``, ``tangent_dim`` and ``tol`` of the contact problem (:func:`_solve_impulses`)."""
    nc = W.shape[0] // (1 + options["tangent_dim"])
    if law == "newton":
        res = _solve_impulses(W, zeta, mu, bias=-e * np.minimum(zeta[:nc], 0.0), **options)
        lam, compression = np.concatenate([res.normal, res.tangent.ravel()]), None
    else:
        res = _solve_impulses(W, zeta, mu, **options)
        compression = np.concatenate([res.normal, res.tangent.ravel()])
        lam = (1.0 + e) * compression
    after = zeta + W @ lam
    d = res.tangent.shape[1]
    return ImpactResult(
        lam[:nc],
        lam[nc:].reshape(nc, d),
        after[:nc],
        after[nc:].reshape(nc, d),
        compression,
        float(lam @ zeta + 0.5 * lam @ W @ lam),
        law,
        res.converged,
        res.message,
    )


def apply_impact(
    scene,
    q,
    v,
    contacts,
    mu=0.0,
    *,
    restitution: float = 0.0,
    law: str = "poisson",
    friction: str = "polyhedral",
    k: int | None = None,
    tol: float = 1e-9,
) -> tuple[np.ndarray, ImpactResult]:
    """Velocity of a system after an impact at the given contacts (Featherstone eqs. 11.57–11.59).

    Builds the contact Jacobian ``J`` of ``contacts``, the Delassus matrix ``W = J H⁻¹ Jᵀ`` and
    ``ζ = J q̇``, solves :func:`impact`, and returns ``q̇⁺ = q̇ + H⁻¹ Jᵀ λ``.

    Parameters
    ----------
    scene : Scene
    q, v : state
        Configuration and velocity before the impact.
    contacts : Contacts
        The contacts taking part (e.g. ``scene.detect(q).select(gap <= margin)``).
    mu : float or array_like, shape (nc,)
        Friction coefficients, >= 0.
    restitution, law, friction, k, tol :
        As for :func:`impact`.

    Returns
    -------
    v_plus : numpy.ndarray, shape (nv,)
    result : ImpactResult

    Raises
    ------
    ValueError
        For an invalid state or option.
    """
    e = _impact_law(restitution, law)
    options = _impulse_options(friction, k, scene.tangent_dim, tol)
    q, v = scene.check_state(q, v)
    mu = friction_coefficients(mu, len(contacts))
    J, _ = scene.jacobian(q, contacts)
    HiJT = np.linalg.solve(scene.mass_matrix(q), J.T)
    res = _impact(J @ HiJT, J @ v, mu, e, law, options)
    return v + HiJT @ res.impulse, res
