"""Springs between body-fixed points: axial and multi-point springs with a tension law, and
stress-based springs.

* :class:`MultiPointSpring` — a path through ``n + 1`` points (end points and via points) with
  one tension ``F(L, L̇)`` of the total length of its *active* segments (ArtiSynth §0.14; Sueda
  §1.9.5 for muscles).  Two points give the axial spring of ArtiSynth §0.12 (:func:`axial_spring`),
  Sueda's spring-damper §1.9.6 (:func:`spring_damper`) and the straight muscle §1.9.4 (with
  :class:`spatial.forces.MuscleLaw`).  Tension laws: :class:`LinearLaw` (ArtiSynth §0.12.1),
  :class:`spatial.forces.MuscleLaw`, or any callable ``law(l, l̇) -> (F, ∂F/∂l, ∂F/∂l̇)``.
* :class:`PointToPointSpring` (Sueda §1.9.3, zero rest length) and :class:`GreenStrainSpring`
  (ArtiSynth §0.13, quadratic strain) — written with the stress ``σ = F/l``, so ``f₁ = σ Δx``
  splits into a material and a geometric stiffness and needs no direction ``Δx/l``.

Conventions (4x4 frames ``T``, which Sueda writes E for this frame; body numbers, 0 the world;
``K = ∂f/∂x`` under ``T exp([δ])``, ``D = ∂f/∂φ``): :mod:`spatial.forces.base`.
Positive tension pulls the end points together.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from .._validate import as_scalar_array, nonnegative_scalar, positive_scalar
from .base import (
    Force,
    _body_number,
    _point,
    _point_array,
    _point_force_terms,
    _point_kinematics,
)

__all__ = [
    "TensionLaw",
    "LinearLaw",
    "MultiPointSpring",
    "axial_spring",
    "spring_damper",
    "PointToPointSpring",
    "GreenStrainSpring",
]


@runtime_checkable
class TensionLaw(Protocol):
    """Scalar tension of a spring path, ``law(l, l̇) -> (F, ∂F/∂l, ∂F/∂l̇)`` (ArtiSynth §0.12).

    ``l`` and ``l̇`` are arrays of the same shape; so are the three results.  An optional
    ``energy(l)`` gives the potential whose derivative is the elastic part of ``F``.
    """

    def __call__(self, l, ldot) -> tuple[np.ndarray, np.ndarray, np.ndarray]: ...


@dataclass(frozen=True)
class LinearLaw:
    """Linear spring-damper tension ``F = k (l - r) + d l̇`` (ArtiSynth §0.12.1).

    Parameters
    ----------
    k : float
        Stiffness, >= 0 (N/m).
    rest_length : float
        Rest length ``r >= 0``.
    d : float
        Damping, >= 0 (N s/m).

    Raises
    ------
    ValueError
        If a parameter is negative or not a finite scalar.
    """

    k: float
    rest_length: float = 0.0
    d: float = 0.0

    def __post_init__(self) -> None:
        for name in ("k", "rest_length", "d"):
            object.__setattr__(self, name, nonnegative_scalar(getattr(self, name), name))

    def __call__(self, l, ldot) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(F, ∂F/∂l, ∂F/∂l̇) = (k(l - r) + d l̇, k, d)`` on arrays."""
        l, ldot = np.broadcast_arrays(as_scalar_array(l, "l"), as_scalar_array(ldot, "ldot"))
        F = self.k * (l - self.rest_length) + self.d * ldot
        return F, np.full(l.shape, self.k), np.full(l.shape, self.d)

    def energy(self, l) -> np.ndarray:
        """Elastic energy ``½ k (l - r)²`` (the damping term has none)."""
        return 0.5 * self.k * (as_scalar_array(l, "l") - self.rest_length) ** 2


def _incidence(n_points: int) -> np.ndarray:
    """``B[p, i] = +1`` if segment ``i`` starts at point ``p``, ``-1`` if it ends there."""
    B = np.zeros((n_points, n_points - 1))
    idx = np.arange(n_points - 1)
    B[idx, idx] = 1.0
    B[idx + 1, idx] = -1.0
    return B


class MultiPointSpring(Force):
    """A spring along a path of body-fixed points with one tension law (ArtiSynth §0.14).

    Points ``x₀ … x_n`` (end points and via points) define segments ``i`` with direction
    ``uᵢ = (x_(i+1) - xᵢ)/lᵢ``.  The tension ``F = law(L, L̇)`` depends on the length
    ``L = Σ_(i active) lᵢ`` and its rate ``L̇ = Σ_(i active) uᵢᵀ (ẋ_(i+1) - ẋᵢ)``; every
    segment transmits it, so point ``p`` feels ``F vₚ`` with ``vₚ = uₚ - u_(p-1)`` (end points:
    ``u₀`` and ``-u_(n-1)``), like a cable over pulleys.  Its Jacobians follow by the chain rule
    (ArtiSynth eqs. 0.11–0.14; for two points ArtiSynth §0.12):

    ``∂fₚ/∂x_q = vₚ (F_L ∂L/∂x_q + F_L̇ ∂L̇/∂x_q) - F Σᵢ Bₚᵢ B_qᵢ Pᵢ / lᵢ`` and
    ``∂fₚ/∂ẋ_q = F_L̇ vₚ ∂L/∂x_q``, with ``Pᵢ = 1 - uᵢuᵢᵀ`` and ``B`` the point–segment
    incidence.  This includes the dependence of ``L̇`` on the positions (the muscle stiffness of
    Sueda eqs. 1.50–1.53, 1.61–1.63 leaves that term out).  The point forces become body
    wrenches through ``Γᵀ Rᵀ`` (Sueda eqs. 1.39, 1.60).

    Parameters
    ----------
    bodies : sequence of int, length n + 1
        The body number of each point, ``0`` for a point fixed in the world.
    points : array_like, shape (n + 1, 3)
        Each point in its body's coordinates (world coordinates for body ``0``).
    law : TensionLaw
        ``law(L, L̇) -> (F, ∂F/∂L, ∂F/∂L̇)``, e.g. :class:`LinearLaw`,
        :class:`spatial.forces.MuscleLaw`.
    active : sequence of bool, length n, optional
        Which segments count in ``L`` and ``L̇`` (default all); passive segments still carry
        the tension (ArtiSynth eq. 0.14).

    Raises
    ------
    ValueError
        If there are fewer than two points, the lengths disagree, no segment is active, a
        body number is invalid, or two consecutive points are the same point of the same body
        (a segment of length zero in every configuration).  At evaluation: a zero-length
        segment (its direction is undefined; a zero-rest-length spring is
        :class:`PointToPointSpring`).
    """

    def __init__(self, bodies: Sequence[int], points, law: TensionLaw, active=None):
        bodies = tuple(_body_number(b, f"bodies[{k}]") for k, b in enumerate(bodies))
        if len(bodies) < 2:
            raise ValueError(f"a spring path needs at least 2 points, got {len(bodies)}")
        points = _point_array(points, "points", len(bodies))
        if not callable(law):
            raise ValueError("law must be callable as law(l, ldot) -> (F, dF/dl, dF/dldot)")
        n_seg = len(bodies) - 1
        for k in range(n_seg):
            if bodies[k] == bodies[k + 1] and np.array_equal(points[k], points[k + 1]):
                raise ValueError(
                    f"segment {k} of the spring joins point {k} to itself (same body, same "
                    "point): its length is always zero"
                )
        active = (True,) * n_seg if active is None else tuple(bool(a) for a in active)
        if len(active) != n_seg:
            raise ValueError(f"active must have one entry per segment ({n_seg}), got {len(active)}")
        if not any(active):
            raise ValueError("at least one segment must be active (count in the length)")
        self._bodies = bodies
        self.points = points
        self.law = law
        self.active = active

    def __repr__(self) -> str:
        return f"MultiPointSpring(bodies={self._bodies}, law={self.law!r}, active={self.active})"

    @property
    def bodies(self) -> tuple[int, ...]:
        return self._bodies

    def _segments(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Segment lengths ``lᵢ`` and directions ``uᵢ``; raises on a zero-length segment."""
        dx = x[..., 1:, :] - x[..., :-1, :]
        l = np.linalg.norm(dx, axis=-1)
        scale = 1.0 + np.abs(x).max(axis=(-2, -1), initial=0.0)[..., None]
        short = l <= 1e-12 * scale
        if np.any(short):
            k = int(np.nonzero(short.reshape(-1, short.shape[-1]).any(axis=0))[0][0])
            raise ValueError(
                f"segment {k} of the spring (points {k} and {k + 1}) has zero length: its "
                "direction is undefined (for a zero-rest-length spring use PointToPointSpring)"
            )
        return l, dx / l[..., None]

    def length(self, T) -> np.ndarray:
        """Path length ``L`` of the active segments (ArtiSynth eq. 0.14; Sueda eq. 1.57).

        Parameters
        ----------
        T : array_like, shape (..., N, 4, 4)

        Returns
        -------
        ndarray, shape (...)

        Raises
        ------
        ValueError
            If ``T`` is invalid or a segment has zero length.
        """
        T = self._frames(T)
        x = _point_kinematics(T, np.zeros(T.shape[:-2] + (6,)), self.bodies, self.points).x
        l, _ = self._segments(x)
        return l @ np.asarray(self.active, dtype=float)

    def potential(self, T) -> np.ndarray:
        """Elastic energy ``law.energy(L)``, whose negative gradient is the elastic force.

        Only for laws with an ``energy`` method and springs without passive segments (a
        passive segment transmits the tension but its length is not in ``L``, so the force is
        not the gradient of any function of ``L``).

        Raises
        ------
        TypeError
            If the law has no potential (e.g. a muscle).
        ValueError
            If the spring has passive segments, or as :meth:`length`.
        """
        energy = getattr(self.law, "energy", None)
        if energy is None:
            raise TypeError(f"{type(self.law).__name__} has no potential energy")
        if not all(self.active):
            raise ValueError("a spring with passive segments is not conservative: no potential")
        return energy(self.length(T))

    def _terms(self, T, phi):
        # ArtiSynth §0.14 stacked over the m points (3m coordinates), B the incidence matrix:
        #   vₚ = Σᵢ Bₚᵢ uᵢ,   ∂uᵢ/∂x_q = -B_qᵢ Pᵢ / lᵢ,
        #   ∂L/∂x_q = ∂L̇/∂ẋ_q = -Σ_(i active) B_qᵢ uᵢᵀ,
        #   ∂L̇/∂x_q = -Σ_(i active) B_qᵢ (Pᵢ Δẋᵢ / lᵢ)ᵀ.
        kin = _point_kinematics(T, phi, self.bodies, self.points)
        m = len(self.bodies)
        l, u = self._segments(kin.x)
        dxd = kin.xd[..., 1:, :] - kin.xd[..., :-1, :]
        a = np.asarray(self.active, dtype=float)
        B = _incidence(m)
        L = l @ a
        Ldot = np.einsum("...ic,...ic->...i", u, dxd) @ a
        F, F_L, F_Ld = (np.asarray(val, dtype=float) for val in self.law(L, Ldot))
        P = np.eye(3) - u[..., :, None] * u[..., None, :]
        stack = F.shape + (3 * m,)
        v = np.einsum("pi,...ic->...pc", B, u).reshape(stack)
        dL_dx = -np.einsum("pi,...ic->...pc", B * a, u).reshape(stack)
        P_dxd = (P @ dxd[..., None])[..., 0] / l[..., None]
        dLdot_dx = -np.einsum("pi,...ic->...pc", B * a, P_dxd).reshape(stack)
        dF_dx = F_L[..., None] * dL_dx + F_Ld[..., None] * dLdot_dx
        du_dx = -np.einsum("pi,qi,...iab->...paqb", B, B, P / l[..., None, None])
        F_x = v[..., :, None] * dF_dx[..., None, :] + F[..., None, None] * du_dx.reshape(
            stack + (3 * m,)
        )
        F_v = F_Ld[..., None, None] * v[..., :, None] * dL_dx[..., None, :]
        F_points = F[..., None, None] * v.reshape(F.shape + (m, 3))
        return _point_force_terms(kin, self.bodies, self.points, F_points, F_x, F_v)


def axial_spring(body1, point1, body2, point2, law: TensionLaw) -> MultiPointSpring:
    """Two-point axial spring with tension ``law(l, l̇)`` (ArtiSynth §0.12).

    ``f₁ = F u`` on point 1 and ``-F u`` on point 2, ``u = (x₂ - x₁)/l``.

    Parameters
    ----------
    body1, body2 : int
        Body numbers of the two points (``0`` = the world).
    point1, point2 : array_like, shape (3,)
        The points in their bodies' coordinates.
    law : TensionLaw

    Returns
    -------
    MultiPointSpring

    Raises
    ------
    ValueError
        As :class:`MultiPointSpring`.
    """
    return MultiPointSpring((body1, body2), [point1, point2], law)


def spring_damper(body1, point1, body2, point2, k: float, d: float, rest_length: float):
    """Sueda's spring-damper ``F = (k (l - L) + d l̇) / L`` (Sueda §1.9.6, eq. 1.65).

    ``k`` and ``d`` act on the strain ``(l - L)/L`` and its rate, so this is
    :class:`LinearLaw` with stiffness ``k/L`` and damping ``d/L``.  (Eqs. 1.65–1.66 as printed
    flip two signs: with ``f_n`` of eq. 1.66 a stretched spring would push, and ``-d l̇`` would
    feed energy in; the Jacobians eqs. 1.67–1.68 are those of the tension used here.)

    Parameters
    ----------
    body1, point1, body2, point2
        As in :func:`axial_spring`.
    k, d : float
        Stiffness and damping per unit strain, >= 0.
    rest_length : float
        ``L > 0``.

    Returns
    -------
    MultiPointSpring

    Raises
    ------
    ValueError
        If ``k`` or ``d`` is negative or ``rest_length`` is not positive.
    """
    L = positive_scalar(rest_length, "rest_length")
    law = LinearLaw(nonnegative_scalar(k, "k") / L, L, nonnegative_scalar(d, "d") / L)
    return axial_spring(body1, point1, body2, point2, law)


@dataclass(frozen=True, eq=False)
class _StressSpring(Force):
    """Two-point spring ``f₁ = σ(s) Δx``, ``f₂ = -f₁``, with a stress of ``s = |Δx|²``.

    ``∂f₁/∂x₁ = -2σ'(s) Δx Δxᵀ - σ 1``: the material and the geometric stiffness (ArtiSynth
    §0.13).  The energy is ``V(s)`` with ``2 V'(s) = σ(s)``.
    """

    body1: int
    point1: np.ndarray
    body2: int
    point2: np.ndarray

    def __post_init__(self) -> None:
        for k in (1, 2):
            object.__setattr__(
                self, f"body{k}", _body_number(getattr(self, f"body{k}"), f"body{k}")
            )
            object.__setattr__(self, f"point{k}", _point(getattr(self, f"point{k}"), f"point{k}"))

    @property
    def bodies(self) -> tuple[int, int]:
        return (self.body1, self.body2)

    @abstractmethod
    def _stress(self, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(σ(s), σ'(s))``."""

    @abstractmethod
    def _energy(self, s: np.ndarray) -> np.ndarray:
        """``V(s)``."""

    def _dx(self, T, phi):
        kin = _point_kinematics(T, phi, self.bodies, np.stack([self.point1, self.point2]))
        return kin, kin.x[..., 1, :] - kin.x[..., 0, :]

    def point_stiffness(self, T) -> tuple[np.ndarray, np.ndarray]:
        """Material and geometric parts of ``∂f₁/∂x₁`` (ArtiSynth §0.13), world coordinates.

        Parameters
        ----------
        T : array_like, shape (..., N, 4, 4)

        Returns
        -------
        material : ndarray, shape (..., 3, 3)
            ``-2σ'(s) Δx Δxᵀ`` (from the change of the stress).
        geometric : ndarray, shape (..., 3, 3)
            ``-σ 1`` (from the change of ``Δx`` at fixed stress).

        Raises
        ------
        ValueError
            If ``T`` is invalid.
        """
        T = self._frames(T)
        _, dx = self._dx(T, np.zeros(T.shape[:-2] + (6,)))
        sigma, dsigma = self._stress(np.sum(dx * dx, axis=-1))
        material = -2.0 * dsigma[..., None, None] * dx[..., :, None] * dx[..., None, :]
        return material, -sigma[..., None, None] * np.eye(3)

    def potential(self, T) -> np.ndarray:
        """Elastic energy ``V(|Δx|²)``.

        Parameters
        ----------
        T : array_like, shape (..., N, 4, 4)

        Returns
        -------
        ndarray, shape (...)

        Raises
        ------
        ValueError
            If ``T`` is invalid.
        """
        T = self._frames(T)
        _, dx = self._dx(T, np.zeros(T.shape[:-2] + (6,)))
        return self._energy(np.sum(dx * dx, axis=-1))

    def _terms(self, T, phi):
        kin, dx = self._dx(T, phi)
        sigma, dsigma = self._stress(np.sum(dx * dx, axis=-1))
        K11 = -(
            2.0 * dsigma[..., None, None] * dx[..., :, None] * dx[..., None, :]
            + sigma[..., None, None] * np.eye(3)
        )
        # ∂f₂/∂x₂ = ∂f₁/∂x₁ and ∂f₁/∂x₂ = ∂f₂/∂x₁ = -∂f₁/∂x₁ (ArtiSynth §0.12)
        sign = np.array([[1.0, -1.0], [-1.0, 1.0]])
        F_x = np.einsum("pq,...ab->...paqb", sign, K11).reshape(K11.shape[:-2] + (6, 6))
        f1 = sigma[..., None] * dx
        F = np.stack([f1, -f1], axis=-2)
        points = np.stack([self.point1, self.point2])
        return _point_force_terms(kin, self.bodies, points, F, F_x, None)


@dataclass(frozen=True, eq=False)
class PointToPointSpring(_StressSpring):
    """Zero-rest-length linear spring ``f₁ = k (x₂ - x₁)`` between two points (Sueda §1.9.3).

    The energy is ``½ k |Δx|²`` (Sueda eq. 1.36) and the generalized force eq. 1.35.  The exact
    stiffness is *minus* the matrix printed as eq. 1.37 (which, unlike eq. 1.33, carries the
    sign of ``-∂f/∂x``: moving body 1 by ``δv`` changes ``k R₁ᵀΔx`` by ``-k δv``).  As a stress
    spring ``σ = k`` (ArtiSynth §0.13 with ``r = 0``): ``∂f₁/∂x₁ = -k 1``, well defined even when
    the points coincide.

    Parameters
    ----------
    body1, body2 : int
        Body numbers of the two points (``0`` = the world).
    point1, point2 : array_like, shape (3,)
        The points in their bodies' coordinates.
    k : float
        Stiffness, >= 0.

    Raises
    ------
    ValueError
        If a body number, point or ``k`` is invalid.
    """

    k: float

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "k", nonnegative_scalar(self.k, "k"))

    def _stress(self, s):
        return np.full(s.shape, self.k), np.zeros(s.shape)

    def _energy(self, s):
        return 0.5 * self.k * s


@dataclass(frozen=True, eq=False)
class GreenStrainSpring(_StressSpring):
    """Spring with stress ``σ = k ε``, quadratic strain ``ε = (l² - r²)/(2r²)`` (ArtiSynth §0.13).

    The finite-element form of a two-node truss: ``∂f₁/∂x₁ = -(k/r²) Δx Δxᵀ - σ 1`` (material
    plus geometric stiffness), no division by ``l``.  Energy ``k (l² - r²)² / (8 r²)``.

    Parameters
    ----------
    body1, body2 : int
        Body numbers of the two points (``0`` = the world).
    point1, point2 : array_like, shape (3,)
        The points in their bodies' coordinates.
    k : float
        Stiffness, >= 0 (force per unit strain per unit length).
    rest_length : float
        ``r > 0``.

    Raises
    ------
    ValueError
        If a body number or point is invalid, ``k`` is negative or ``rest_length`` is not
        positive.
    """

    k: float
    rest_length: float

    def __post_init__(self) -> None:
        super().__post_init__()
        object.__setattr__(self, "k", nonnegative_scalar(self.k, "k"))
        object.__setattr__(self, "rest_length", positive_scalar(self.rest_length, "rest_length"))

    def _stress(self, s):
        r2 = self.rest_length**2
        return self.k * (s - r2) / (2.0 * r2), np.full(s.shape, self.k / (2.0 * r2))

    def _energy(self, s):
        r2 = self.rest_length**2
        return self.k * (s - r2) ** 2 / (8.0 * r2)
