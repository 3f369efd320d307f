"""What every force model shares: the (f, K, D) it returns, world coordinates, point attachments.

System state (maximal coordinates, Sueda part 1)
------------------------------------------------
``N`` free rigid bodies numbered ``1 … N``; ``0`` is the fixed world (ground), as in
Featherstone's regular numbering and :class:`spatial.Model`.  Body ``b`` has the frame
``T_world,b = [[R, p], [0, 1]]`` (a 4x4 frame; Sueda writes E for this frame) and the body twist
``φ_b = [ω; v]`` (body coordinates, ``Ṫ = T [φ]``, Sueda eq. 1.8).  The state arrays hold the
``N`` bodies without the world: body ``b`` is row ``b - 1`` of ``T (..., N, 4, 4)`` and of
``phi (..., N, 6)``, and block ``b - 1`` of every ``6N`` vector (the generalized velocity is
the stack of the ``N`` twists).  A force names the bodies it acts on by these numbers; its
attachments on the world (body ``0``) are given in world coordinates.

Sign conventions (plain derivatives, ArtiSynth style)
-----------------------------------------------------
* ``f`` (6N): generalized force, body ``i``'s block the wrench ``[n; f]`` on it in body
  coordinates (moment about the body origin), so that ``fᵀ φ`` is the power.
* ``K = ∂f/∂x`` (6N x 6N): the change of ``f`` when body ``j`` moves to ``T_j exp([δ_j])``
  (a body-twist perturbation, Sueda eqs. 1.11, 1.20) with every twist ``φ`` held fixed.
  It is *not* symmetric in general (ArtiSynth §0.23); ``symmetric=True`` returns
  ``½(K + Kᵀ)`` as Sueda does (§1.9.2).  At a stable equilibrium of a potential force ``K`` is
  symmetric and negative semi-definite.
* ``D = ∂f/∂φ`` (6N x 6N), positions held fixed; negative semi-definite for a damper.  Sueda's
  ``D`` in ``(M + hD - h²K)`` is ``-∂f/∂φ`` for the body damping of §1.9.1 (``D = d·1``).
  With the convention here the linearly implicit Euler step (Sueda eq. 1.30, Baraff–Witkin)
  reads ``(M - hD - h²K) φ⁺ = M φ + h (f - D φ + ad(φ)ᵀ M φ)``, then ``T⁺ = T exp(h[φ⁺])``.

World coordinates (``coords="world"``)
--------------------------------------
Velocities are spatial twists ``φʷ = Ad(T) φ`` (about the world origin), wrenches are world
wrenches ``Ad(T)⁻ᵀ f``, and positions are perturbed as ``exp([δʷ]) T``, with ``φʷ`` held
fixed.  With ``A = blockdiag(Ad(T_i)⁻¹)`` the conversion is ``fʷ = Aᵀ f``,
``Dʷ = Aᵀ D A`` and ``Kʷ = Aᵀ (K + D·blockdiag(ad(φ_i)) - blockdiag(C(f_i))) A``, where
``C(f) ε = ad(ε)ᵀ f`` (the extra terms: the body twist changes when the body turns under a
fixed world twist, and the force transform turns with the body).  Note ArtiSynth's "world
coordinates" (§0.22.3) use world-aligned axes at each body's origin instead.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np

from .._batched import T as _T
from .._batched import skew_matrix
from .._validate import as_array
from ..checks import check_jacobian
from ..se3 import _Ad, _as_frame, _frame_inverse, _material_jacobian
from ..vectors import _crm

__all__ = ["Force", "ForceTerms", "assemble", "derivative_error"]

_COORDS = ("body", "world")


class ForceTerms(NamedTuple):
    """Generalized force and its Jacobians for a system of ``N`` bodies (see module docstring).

    Attributes
    ----------
    f : ndarray, shape (..., 6N)
    K : ndarray, shape (..., 6N, 6N)
        ``∂f/∂x`` (position Jacobian, stiffness).
    D : ndarray, shape (..., 6N, 6N)
        ``∂f/∂φ`` (velocity Jacobian, damping).
    """

    f: np.ndarray
    K: np.ndarray
    D: np.ndarray


def _block_diag(A: np.ndarray) -> np.ndarray:
    """``(..., N, 6, 6) -> (..., 6N, 6N)`` block-diagonal matrix."""
    n = A.shape[-3]
    out = np.einsum("...iab,ij->...iajb", A, np.eye(n))
    return out.reshape(A.shape[:-3] + (6 * n, 6 * n))


def _coadjoint_matrix(f: np.ndarray) -> np.ndarray:
    """``C(f)`` with ``C(f) ε = ad(ε)ᵀ f`` for a wrench ``f = [n; g]``: ``[[n×, g×], [g×, 0]]``."""
    C = np.zeros(f.shape[:-1] + (6, 6))
    C[..., :3, :3] = skew_matrix(f[..., :3])
    C[..., :3, 3:] = skew_matrix(f[..., 3:])
    C[..., 3:, :3] = skew_matrix(f[..., 3:])
    return C


def _system_frames(T) -> np.ndarray:
    """Validate ``T (..., N, 4, 4)``: one rigid frame per body."""
    T = _as_frame(T, "T")
    if T.ndim < 3:
        raise ValueError(
            f"T must have shape (..., N, 4, 4), one frame per body, got {T.shape}; "
            "for a single body pass T[None]"
        )
    return T


def _system_state(T, phi) -> tuple[np.ndarray, np.ndarray]:
    """Validate ``T (..., N, 4, 4)`` and ``phi (..., N, 6)`` and broadcast their batch shapes."""
    T = _system_frames(T)
    phi = as_array(phi, "phi", (6,))
    n = T.shape[-3]
    if phi.ndim < 2 or phi.shape[-2] != n:
        raise ValueError(
            f"phi must have shape (..., {n}, 6) to match T's {n} bodies, got {phi.shape}"
        )
    return _broadcast_state(T, phi)


def _broadcast_state(T: np.ndarray, phi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``T (..., N, 4, 4)`` and ``phi (..., N, 6)`` broadcast to their common batch shape."""
    if T.shape[:-3] == phi.shape[:-2]:
        return T, phi
    batch = np.broadcast_shapes(T.shape[:-3], phi.shape[:-2])
    return np.broadcast_to(T, batch + T.shape[-3:]), np.broadcast_to(phi, batch + phi.shape[-2:])


def _check_coords(coords: str) -> None:
    """``ValueError`` unless ``coords`` is ``"body"`` or ``"world"``."""
    if coords not in _COORDS:
        raise ValueError(f"coords must be one of {_COORDS}, got {coords!r}")


def _body_number(b, name: str) -> int:
    """A body number: ``0`` for the fixed world (ground), ``1 … N`` for the bodies."""
    if b is None:
        raise ValueError(
            f"{name} must be a body number, got None: 0 is the world (bodies are numbered 1 … N)"
        )
    if isinstance(b, bool) or not isinstance(b, int | np.integer) or b < 0:
        raise ValueError(f"{name} must be a body number (0 = world, 1 … N), got {b!r}")
    return int(b)


def _to_world(T, phi, f, K, D) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Convert body-coordinate ``(f, K, D)`` to world coordinates (see module docstring)."""
    n = T.shape[-3]
    A = _block_diag(_Ad(_frame_inverse(T)))
    At = _T(A)
    f_bodies = f.reshape(f.shape[:-1] + (n, 6))
    K_corr = K + D @ _block_diag(_crm(phi)) - _block_diag(_coadjoint_matrix(f_bodies))
    return (At @ f[..., None])[..., 0], At @ K_corr @ A, At @ D @ A


class Force(ABC):
    """A force acting on some bodies of a maximal-coordinate system; see the module docstring.

    Subclasses define :attr:`bodies` and the body-coordinate terms; :meth:`evaluate` does the
    validation, the world-coordinate conversion and the optional symmetrization once for all.
    """

    @property
    @abstractmethod
    def bodies(self) -> tuple[int, ...]:
        """Numbers of the bodies the force acts on (``0`` = the world, ``1 … N`` bodies)."""

    @abstractmethod
    def _terms(self, T: np.ndarray, phi: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Body-coordinate ``(f, K, D)`` on validated ``T (..., N, 4, 4)``, ``phi (..., N, 6)``."""

    def _force(self, T: np.ndarray, phi: np.ndarray) -> np.ndarray:
        """Body-coordinate ``f`` alone (no Jacobians) on a validated state.

        By default the ``f`` of :meth:`_terms`; a force whose Jacobians cost much more than
        ``f`` overrides it with the same computation of ``f`` (an explicit integrator needs
        only ``f``).
        """
        return self._terms(T, phi)[0]

    def _check_bodies(self, n: int) -> None:
        for b in self.bodies:
            if b > n:
                raise ValueError(
                    f"{type(self).__name__} acts on body {b}, but T has only {n} bodies "
                    f"(1 … {n}; 0 is the world)"
                )

    def _frames(self, T) -> np.ndarray:
        """Validated system frames for :meth:`potential`-style functions of ``T`` alone."""
        T = _system_frames(T)
        self._check_bodies(T.shape[-3])
        return T

    def evaluate(self, T, phi, *, coords: str = "body", symmetric: bool = False) -> ForceTerms:
        """Generalized force ``f``, stiffness ``K = ∂f/∂x`` and damping ``D = ∂f/∂φ``.

        Parameters
        ----------
        T : array_like, shape (..., N, 4, 4)
            Frames of all ``N`` bodies of the system (world from body).
        phi : array_like, shape (..., N, 6)
            Their twists ``[ω; v]``: body twists, or spatial (world) twists if
            ``coords="world"``.
        coords : {"body", "world"}
            Coordinates of velocities, wrenches and position perturbations.
        symmetric : bool
            Return ``½(K + Kᵀ)`` instead of the exact ``K`` (Sueda §1.9.2, after Baraff and
            Witkin).  ``D`` is returned as is.

        Returns
        -------
        ForceTerms
            ``(f, K, D)`` of shapes ``(..., 6N)``, ``(..., 6N, 6N)``, ``(..., 6N, 6N)``; zero
            outside the blocks of the bodies the force acts on.

        Raises
        ------
        ValueError
            If ``T`` is not a stack of rigid frames, ``phi`` does not match it, ``coords`` is
            unknown, the force names a body beyond ``N``, or the geometry is degenerate
            (e.g. a zero-length spring segment).
        """
        _check_coords(coords)
        T, phi = _system_state(T, phi)
        return self._evaluate(T, phi, coords, symmetric)

    def _evaluate(self, T: np.ndarray, phi: np.ndarray, coords: str, symmetric: bool) -> ForceTerms:
        """:meth:`evaluate` of a state already validated and broadcast (internal callers)."""
        self._check_bodies(T.shape[-3])
        if coords == "world":
            phi = (_Ad(_frame_inverse(T)) @ phi[..., None])[..., 0]
        f, K, D = self._terms(T, phi)
        if coords == "world":
            f, K, D = _to_world(T, phi, f, K, D)
        if symmetric:
            K = 0.5 * (K + _T(K))
        return ForceTerms(f, K, D)


def assemble(
    forces: Iterable[Force], T, phi, *, coords: str = "body", symmetric: bool = False
) -> ForceTerms:
    """Sum ``(f, K, D)`` over several forces acting on the same system of bodies.

    Parameters
    ----------
    forces : iterable of Force
    T, phi, coords, symmetric
        As in :meth:`Force.evaluate`.

    Returns
    -------
    ForceTerms
        The sums; zeros if ``forces`` is empty.

    Raises
    ------
    ValueError
        As :meth:`Force.evaluate`.
    """
    _check_coords(coords)
    T, phi = _system_state(T, phi)
    return _assemble(forces, T, phi, coords, symmetric)


def _assemble(
    forces: Iterable[Force], T: np.ndarray, phi: np.ndarray, coords: str = "body", symmetric=False
) -> ForceTerms:
    """:func:`assemble` on a state already validated (internal callers: a step's forces).

    ``T`` and ``phi`` are valid but may still differ in batch shape (a stage of a step whose
    forces added a batch dimension); they are broadcast here as :func:`assemble` does.
    """
    T, phi = _broadcast_state(T, phi)
    n = T.shape[-3]
    batch = T.shape[:-3]
    total = ForceTerms(np.zeros(batch + (6 * n,)), *2 * (np.zeros(batch + (6 * n, 6 * n)),))
    for force in forces:
        terms = force._evaluate(T, phi, coords, symmetric)
        total = ForceTerms(*(a + b for a, b in zip(total, terms, strict=True)))
    return total


def _assemble_force(forces: Iterable[Force], T: np.ndarray, phi: np.ndarray) -> np.ndarray:
    """The ``f`` of :func:`_assemble` (body coordinates) without the Jacobians ``K`` and ``D``."""
    T, phi = _broadcast_state(T, phi)
    total = np.zeros(T.shape[:-3] + (6 * T.shape[-3],))
    for force in forces:
        force._check_bodies(T.shape[-3])
        total = total + force._force(T, phi)
    return total


def derivative_error(force: Force, T, phi) -> float:
    """Worst relative error of a force's ``K`` and ``D`` against central differences.

    For every body the force acts on, the columns of ``K`` are compared with central
    differences of ``f`` as that body's frame moves to ``T exp(±ε[e_k])`` (Sueda eq. 1.20,
    :func:`spatial.check_jacobian` with ``space="se3"``), and the columns of ``D`` with
    differences of ``f`` as its twist moves by ``±ε e_k``; the largest of the relative errors
    ``‖J − J_fd‖ / max(‖J‖, ‖J_fd‖)`` is returned (about 1e-9 or below for exact derivatives;
    a wrong term gives an error of order one).  The check of notebook 13, section 1.

    Parameters
    ----------
    force : Force
    T : array_like, shape (N, 4, 4)
        Frames of the system's ``N`` bodies (one state, no batch).
    phi : array_like, shape (N, 6)
        Their body twists.

    Returns
    -------
    float

    Raises
    ------
    ValueError
        As :meth:`Force.evaluate`, or if the state is batched.
    """

    T, phi = _system_state(T, phi)
    if T.ndim != 3:
        raise ValueError(f"T must hold one state, shape (N, 4, 4), got {T.shape}")
    _, K, D = force.evaluate(T, phi)
    worst = 0.0
    for body in sorted(set(force.bodies) - {0}):
        i = body - 1
        cols = slice(6 * i, 6 * i + 6)

        def f_of_frame(T_i, i=i):
            moved = T.copy()
            moved[i] = T_i
            return force.evaluate(moved, phi).f

        def f_of_twist(phi_i, i=i):
            moved = phi.copy()
            moved[i] = phi_i
            return force.evaluate(T, moved).f

        for res in (
            check_jacobian(f_of_frame, K[:, cols], T[i], space="se3"),
            check_jacobian(f_of_twist, D[:, cols], phi[i]),
        ):
            worst = max(worst, float(res.error))
    return worst


# ----------------------------------------------------------------------- point attachments


class _PointKinematics(NamedTuple):
    """World positions/velocities of attachment points and their Jacobians (``m`` points)."""

    x: np.ndarray  # (..., m, 3) world positions
    xd: np.ndarray  # (..., m, 3) world velocities
    J: np.ndarray  # (..., 3m, 6N): ∂x/∂δ = ∂ẋ/∂φ, block R Γ(r) in the body's columns
    L: np.ndarray  # (..., 3m, 6N): ∂ẋ/∂δ at fixed φ, block [-R [Γ(r) φ], 0]
    R_bodies: tuple  # per point: the body's rotation (..., 3, 3), or None for the world


def _point(p, name: str) -> np.ndarray:
    """A single finite 3-vector."""
    p = as_array(p, name, (3,))
    if p.shape != (3,):
        raise ValueError(f"{name} must have shape (3,), got {p.shape}")
    return p


def _point_array(points, name: str, count: int) -> np.ndarray:
    p = as_array(points, name, (3,))
    if p.shape != (count, 3):
        raise ValueError(f"{name} must have shape ({count}, 3), one point per body, got {p.shape}")
    return p


def _point_kinematics(
    T: np.ndarray, phi: np.ndarray, bodies: Sequence[int], points: np.ndarray
) -> _PointKinematics:
    """Kinematics of body-fixed points (Sueda eq. 1.12: ``ẋ = R Γ(r) φ``).

    A point ``r`` on body ``b`` (body coordinates) is at ``x = R r + p``; under
    ``T exp([δ])`` it moves by ``R Γ(r) δ``, so the position and velocity Jacobians coincide.
    Its velocity ``R Γ φ`` also changes with the body's orientation, ``∂ẋ/∂δ = [-R[Γφ], 0]``.
    A point on the world (``b = 0``) is given in world coordinates and does not move; body ``b``
    is row ``b - 1`` of the state and block ``b - 1`` of the Jacobians.
    """
    n = T.shape[-3]
    m = len(bodies)
    batch = T.shape[:-3]
    x = np.zeros(batch + (m, 3))
    xd = np.zeros(batch + (m, 3))
    J = np.zeros(batch + (3 * m, 6 * n))
    L = np.zeros(batch + (3 * m, 6 * n))
    R_bodies = []
    for j, (b, r) in enumerate(zip(bodies, points, strict=True)):
        if b == 0:
            x[..., j, :] = r
            R_bodies.append(None)
            continue
        i = b - 1
        R, p = T[..., i, :3, :3], T[..., i, :3, 3]
        G = _material_jacobian(r)
        RG = R @ G
        point_velocity_body = (G @ phi[..., i, :, None])[..., 0]
        x[..., j, :] = (R @ r) + p
        xd[..., j, :] = (R @ point_velocity_body[..., None])[..., 0]
        J[..., 3 * j : 3 * j + 3, 6 * i : 6 * i + 6] = RG
        L[..., 3 * j : 3 * j + 3, 6 * i : 6 * i + 3] = -R @ skew_matrix(point_velocity_body)
        R_bodies.append(R)
    return _PointKinematics(x, xd, J, L, tuple(R_bodies))


def _point_force_terms(
    kin: _PointKinematics,
    bodies: Sequence[int],
    points: np.ndarray,
    F: np.ndarray,
    F_x: np.ndarray | None,
    F_v: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Generalized ``(f, K, D)`` of world point forces ``F`` at body-fixed points.

    ``f = Jᵀ F`` (Sueda eq. 1.13: each point force becomes the body wrench ``Γᵀ Rᵀ F``);
    ``K = Jᵀ (F_x J + F_v L) + G`` where ``G`` is the geometric term of the rotating force
    transform, ``Γᵀ [Rᵀ F]`` in the body's angular columns (Sueda eqs. 1.33–1.34,
    ArtiSynth §0.23); ``D = Jᵀ F_v J``.

    Parameters
    ----------
    F : (..., m, 3) world forces on the points
    F_x, F_v : (..., 3m, 3m) ``∂F/∂x`` and ``∂F/∂ẋ`` (stacked points), or None for zero.
    """
    Jt = _T(kin.J)
    F_flat = F.reshape(F.shape[:-2] + (-1,))
    f = (Jt @ F_flat[..., None])[..., 0]
    K = np.zeros(f.shape + (f.shape[-1],))
    if F_x is not None:
        K = K + Jt @ F_x @ kin.J
    D = np.zeros_like(K)
    if F_v is not None:
        K = K + Jt @ F_v @ kin.L
        D = Jt @ F_v @ kin.J
    for j, (b, r) in enumerate(zip(bodies, points, strict=True)):
        if b == 0:
            continue
        F_body = (_T(kin.R_bodies[j]) @ F[..., j, :, None])[..., 0]
        i = b - 1
        G = _material_jacobian(r)
        K[..., 6 * i : 6 * i + 6, 6 * i : 6 * i + 3] += _T(G) @ skew_matrix(F_body)
    return f, K, D
