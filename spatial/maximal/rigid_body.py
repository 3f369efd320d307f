"""One free rigid body in maximal coordinates: Newton–Euler in body coordinates, Euler on SE(3).

The state is the body's 4x4 frame ``T = T_world,body = [[R, p], [0, 1]]`` (Sueda writes E for this
frame) and its body twist ``φ = [ω; v]`` (both in body coordinates, ``v`` the velocity of the body
frame's origin), with ``Ṫ = T [φ]`` (Sueda eq. 1.8).  The body's spatial inertia ``M`` is
expressed in its own frame, so it is constant; the frame need not sit at the centre of mass.

Newton–Euler in body coordinates (Sueda eq. 1.21, Featherstone eq. 2.68):

    M φ̇ = ad(φ)ᵀ M φ + f_body,

where ``ad(φ)ᵀ M φ = -(φ ×* M φ)`` is the Coriolis (gyroscopic) wrench that appears because the
coordinates turn with the body.  Gravity contributes the body wrench ``M [0; Rᵀ g]`` (Sueda eq.
1.22, generalized to a frame off the centre of mass).

Time stepping (Sueda §1.8): the velocity is updated with the forces at the start of the step
(eq. 1.28), then the frame moves along the *new* velocity on SE(3), ``T ← T exp(h [φ])`` (eq.
1.29), so the frame stays exactly rigid.  Using the new velocity makes this the semi-implicit
(symplectic) Euler method; ``scheme="explicit"`` moves the frame with the old velocity instead, for
comparison.  Both are first order.  The name promises more than a spinning body gets: the step
is symplectic only for forces of the pose alone, and the gyroscopic wrench taken at the start of
the step adds kinetic energy every step (:mod:`spatial.maximal.dynamics`).

Every function accepts leading batch dimensions (many bodies or initial conditions at once).
"""

from __future__ import annotations

import numpy as np

from .._validate import as_array, positive_scalar
from ..inertia import inertia_params, validate_inertia
from ..se3 import Ad, _as_frame, exp_se3, frame_inverse, log_se3
from ..simulation import Trajectory
from ..simulation import simulate as _simulate
from ..systems import Step
from ..vectors import _cross_force, apply_force

__all__ = [
    "coriolis_wrench",
    "gravity_wrench",
    "newton_euler_acceleration",
    "euler_step",
    "FreeBody",
    "simulate",
    "kinetic_energy",
    "potential_energy",
    "spatial_momentum",
    "center_of_mass",
]

_SCHEMES = ("semi-implicit", "explicit")
_DEFAULT_GRAVITY = (0.0, 0.0, -9.81)


def _solve(M: np.ndarray, f: np.ndarray) -> np.ndarray:
    return np.linalg.solve(M, f[..., None])[..., 0]


def _coriolis(M: np.ndarray, phi: np.ndarray) -> np.ndarray:
    """``ad(φ)ᵀ M φ = -(φ ×* M φ)`` (``ad(φ)ᵀ = -crf(φ)``, Featherstone eq. 2.32)."""
    return -_cross_force(phi, (M @ phi[..., None])[..., 0])


def _gravity(M: np.ndarray, T: np.ndarray, g: np.ndarray) -> np.ndarray:
    """``M [0; Rᵀ g]`` without validation."""
    a = np.zeros(np.broadcast_shapes(T.shape[:-2], g.shape[:-1]) + (6,))
    a[..., 3:] = (np.swapaxes(T[..., :3, :3], -1, -2) @ g[..., None])[..., 0]
    return (M @ a[..., None])[..., 0]


def coriolis_wrench(M, phi) -> np.ndarray:
    """Coriolis (gyroscopic) wrench ``ad(φ)ᵀ M φ`` of Newton–Euler in body coordinates.

    It is the first term on the right of Sueda eq. 1.21 and the negative of Featherstone's bias
    force ``v ×* I v`` (eq. 2.68).  With the frame at the centre of mass it reduces to
    ``[-ω × I_c ω; -ω × m v]`` (Sueda eq. 1.23).

    Parameters
    ----------
    M : array_like, shape (..., 6, 6)
        Spatial inertia in body coordinates.
    phi : array_like, shape (..., 6)
        Body twist ``[ω; v]``.

    Returns
    -------
    ndarray, shape (..., 6)
        Body wrench ``[n; f]``.

    Raises
    ------
    ValueError
        If ``M`` is not a rigid-body inertia or ``phi`` is not a finite 6-vector.
    """
    return _coriolis(validate_inertia(M, "M"), as_array(phi, "phi", (6,)))


def gravity_wrench(M, T, g=_DEFAULT_GRAVITY) -> np.ndarray:
    """Body wrench of gravity, ``M [0; Rᵀ g] = [c × Rᵀ m g; Rᵀ m g]``.

    Gravity is a uniform acceleration field, so its wrench is the inertia times the spatial
    acceleration ``[0; g]`` expressed in body coordinates.  With the frame at the centre of mass
    (``c = 0``) this is Sueda eq. 1.22; otherwise the weight also has a moment about the frame
    origin.

    Parameters
    ----------
    M : array_like, shape (..., 6, 6)
        Spatial inertia in body coordinates.
    T : array_like, shape (..., 4, 4)
        Body frame in world coordinates.
    g : array_like, shape (..., 3)
        Gravitational acceleration in world coordinates, default ``[0, 0, -9.81]``.

    Returns
    -------
    ndarray, shape (..., 6)

    Raises
    ------
    ValueError
        If ``M`` is not a rigid-body inertia, ``T`` not a rigid frame, or ``g`` not a 3-vector.
    """
    return _gravity(validate_inertia(M, "M"), _as_frame(T), as_array(g, "g", (3,)))


def newton_euler_acceleration(M, phi, f_body=None) -> np.ndarray:
    """Body acceleration ``φ̇ = M⁻¹ (ad(φ)ᵀ M φ + f_body)`` of a free rigid body (Sueda eq. 1.21).

    Parameters
    ----------
    M : array_like, shape (..., 6, 6)
        Spatial inertia in body coordinates.
    phi : array_like, shape (..., 6)
        Body twist ``[ω; v]``.
    f_body : array_like, shape (..., 6), optional
        Applied body wrench ``[n; f]`` in body coordinates (gravity included, see
        :func:`gravity_wrench`); default zero.

    Returns
    -------
    ndarray, shape (..., 6)
        ``φ̇``, the time derivative of the body twist (its components in the moving body frame).

    Raises
    ------
    ValueError
        If ``M`` is not a rigid-body inertia or ``phi``/``f_body`` are not finite 6-vectors.
    """
    M = validate_inertia(M, "M")
    phi = as_array(phi, "phi", (6,))
    f = _coriolis(M, phi)
    if f_body is not None:
        f = f + as_array(f_body, "f_body", (6,))
    return _solve(M, f)


def _step(M, T, phi, h, f_body, g, semi_implicit: bool):
    """One Euler step (Sueda eqs. 1.28–1.29) on validated arrays."""
    f = _coriolis(M, phi) + _gravity(M, T, g) + f_body
    phi_next = phi + h * _solve(M, f)
    T_next = T @ exp_se3(h * (phi_next if semi_implicit else phi))
    return T_next, phi_next


def _inputs(M, T, phi, h, f_body, g, scheme):
    if scheme not in _SCHEMES:
        raise ValueError(f"scheme must be one of {_SCHEMES}, got {scheme!r}")
    h = positive_scalar(h, "h (time step)")
    f_body = np.zeros(6) if f_body is None else as_array(f_body, "f_body", (6,))
    return (
        validate_inertia(M, "M"),
        _as_frame(T),
        as_array(phi, "phi", (6,)),
        h,
        f_body,
        as_array(g, "g", (3,)),
        scheme == "semi-implicit",
    )


def euler_step(
    M, T, phi, h: float, f_body=None, g=_DEFAULT_GRAVITY, scheme: str = "semi-implicit"
) -> tuple[np.ndarray, np.ndarray]:
    """Advance a free rigid body by one Euler step on SE(3) (Sueda §1.8).

    ``φ⁺ = φ + h M⁻¹ (ad(φ)ᵀ M φ + f_gravity(T) + f_body)`` (Sueda eq. 1.28), then
    ``T⁺ = T exp(h [φ⁺])`` (eq. 1.29), or ``T exp(h [φ])`` with ``scheme="explicit"``.

    Parameters
    ----------
    M : array_like, shape (..., 6, 6)
        Spatial inertia in body coordinates.
    T : array_like, shape (..., 4, 4)
        Body frame in world coordinates.
    phi : array_like, shape (..., 6)
        Body twist ``[ω; v]``.
    h : float
        Time step, > 0.
    f_body : array_like, shape (..., 6), optional
        Applied body wrench besides gravity, held constant over the step; default zero.
    g : array_like, shape (..., 3)
        Gravity in world coordinates, default ``[0, 0, -9.81]``; pass zeros for free space.
    scheme : {"semi-implicit", "explicit"}
        Move the frame with the new velocity (Sueda's choice) or the old one.

    Returns
    -------
    T : ndarray, shape (..., 4, 4)
    phi : ndarray, shape (..., 6)

    Raises
    ------
    ValueError
        If an input has the wrong shape or is invalid (non-rigid ``M`` or ``T``, ``h <= 0``,
        unknown ``scheme``).
    """
    return _step(*_inputs(M, T, phi, h, f_body, g, scheme))


class FreeBody:
    """One free rigid body stepped by :func:`euler_step`: a stepped system for ``sp.simulate``.

    The state is the frame ``T (..., 4, 4)`` and the body twist ``φ (..., 6)``; the inertia,
    applied wrench and gravity may carry batch dimensions of their own.

    Parameters
    ----------
    M, f_body, g, scheme
        As in :func:`euler_step` (``f_body`` held constant).

    Raises
    ------
    ValueError
        As :func:`euler_step`.
    """

    NB = 1

    def __init__(self, M, f_body=None, g=_DEFAULT_GRAVITY, scheme: str = "semi-implicit"):
        M, _, _, _, f_body, g, semi = _inputs(M, np.eye(4), np.zeros(6), 1.0, f_body, g, scheme)
        self.M, self.f_body, self.g, self._semi = M, f_body, g, semi
        self._batch = np.broadcast_shapes(M.shape[:-2], f_body.shape[:-1], g.shape[:-1])

    def check_state(self, T, phi):
        T, phi = _as_frame(T), as_array(phi, "phi", (6,))
        batch = np.broadcast_shapes(self._batch, T.shape[:-2], phi.shape[:-1])
        return np.broadcast_to(T, batch + (4, 4)), np.broadcast_to(phi, batch + (6,))

    def integrate(self, T, phi, dt):
        return T @ exp_se3(dt * phi)

    def difference(self, T0, T1):
        return log_se3(frame_inverse(T0) @ T1)

    def mass_matrix(self, T):
        return np.broadcast_to(self.M, np.shape(T)[:-2] + (6, 6))

    def energy(self, T, phi):
        return kinetic_energy(self.M, phi), potential_energy(self.M, T, self.g)

    def poses(self, T):
        return np.asarray(T)[..., None, :, :]

    def step(self, t, T, phi, h, carry=None) -> Step:
        T, phi = _step(self.M, T, phi, h, self.f_body, self.g, self._semi)
        return Step(T, phi, h)


def simulate(
    M,
    T0,
    phi0,
    h: float,
    n_steps: int,
    f_body=None,
    g=_DEFAULT_GRAVITY,
    scheme: str = "semi-implicit",
) -> Trajectory:
    """Simulate a free rigid body with ``n_steps`` Euler steps of size ``h`` (Sueda §1.8).

    A thin wrapper of the package's one loop: ``spatial.simulate(FreeBody(M, f_body, g,
    scheme), T0, phi0, h, steps=n_steps)``.

    Parameters
    ----------
    M, T0, phi0, h, f_body, g, scheme
        As in :func:`euler_step` (``T0``, ``phi0`` the initial state; ``f_body`` constant).
    n_steps : int
        Number of steps, >= 0.

    Returns
    -------
    spatial.Trajectory
        ``t`` the times ``0, h, …, n_steps·h``, ``q`` the frames ``(n_steps + 1, ..., 4, 4)``,
        ``v`` the body twists ``(n_steps + 1, ..., 6)``, and the energies.

    Raises
    ------
    ValueError
        As :func:`euler_step`, or if ``n_steps`` is not a non-negative integer.
    """
    h = positive_scalar(h, "h (time step)")
    return _simulate(FreeBody(M, f_body, g, scheme), T0, phi0, h, steps=n_steps)


def kinetic_energy(M, phi) -> np.ndarray:
    """Kinetic energy ``½ φᵀ M φ`` (Featherstone eq. 2.67).

    Parameters
    ----------
    M : array_like, shape (..., 6, 6)
        Spatial inertia, in the same coordinates as ``phi``.
    phi : array_like, shape (..., 6)
        Twist.

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        If ``M`` is not a rigid-body inertia or ``phi`` is not a finite 6-vector.
    """
    M = validate_inertia(M, "M")
    phi = as_array(phi, "phi", (6,))
    return 0.5 * np.einsum("...i,...ij,...j->...", phi, M, phi)


def center_of_mass(M, T) -> np.ndarray:
    """World position ``p + R c`` of the centre of mass of a body (inertia ``M``, frame ``T``).

    Parameters
    ----------
    M : array_like, shape (..., 6, 6)
        Spatial inertia in body coordinates (``c`` is read from it, eq. 2.63).
    T : array_like, shape (..., 4, 4)
        Body frame in world coordinates.

    Returns
    -------
    ndarray, shape (..., 3)

    Raises
    ------
    ValueError
        If ``M`` is not a rigid-body inertia or ``T`` is not a rigid frame.
    """
    _, c, _ = inertia_params(validate_inertia(M, "M"))
    T = _as_frame(T)
    return T[..., :3, 3] + (T[..., :3, :3] @ c[..., None])[..., 0]


def potential_energy(M, T, g=_DEFAULT_GRAVITY) -> np.ndarray:
    """Gravitational potential energy ``-m gᵀ x_c`` (zero at the world origin).

    Parameters
    ----------
    M : array_like, shape (..., 6, 6)
        Spatial inertia in body coordinates.
    T : array_like, shape (..., 4, 4)
        Body frame in world coordinates.
    g : array_like, shape (..., 3)
        Gravity in world coordinates, default ``[0, 0, -9.81]``.

    Returns
    -------
    ndarray, shape (...)

    Raises
    ------
    ValueError
        If an input has the wrong shape or is invalid.
    """
    m, _, _ = inertia_params(validate_inertia(M, "M"))
    g = as_array(g, "g", (3,))
    return -m * np.sum(g * center_of_mass(M, T), axis=-1)


def spatial_momentum(M, T, phi) -> np.ndarray:
    """Spatial momentum of the body in world coordinates, ``Ad(T)⁻ᵀ M φ`` (Featherstone §2.12).

    ``M φ`` is the momentum in body coordinates (eq. 2.61); momentum is a force-like vector, so it
    changes coordinates with the force transform ``Ad(T)⁻ᵀ`` (eq. 2.66's ``X*``).  The result is
    ``[angular momentum about the world origin; linear momentum]``, conserved when no force acts.

    Parameters
    ----------
    M : array_like, shape (..., 6, 6)
        Spatial inertia in body coordinates.
    T : array_like, shape (..., 4, 4)
        Body frame in world coordinates.
    phi : array_like, shape (..., 6)
        Body twist.

    Returns
    -------
    ndarray, shape (..., 6)

    Raises
    ------
    ValueError
        If an input has the wrong shape or is invalid.
    """
    M = validate_inertia(M, "M")
    phi = as_array(phi, "phi", (6,))
    return apply_force(Ad(T), (M @ phi[..., None])[..., 0])
