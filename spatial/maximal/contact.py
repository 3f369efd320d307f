"""Contact of body-fixed points with a ground plane in maximal coordinates (Sueda §1.11–1.13).

Body-fixed contact points (:meth:`System.add_contact_points`) meet a plane
``nᵀx = offset``.  Each candidate point within ``margin`` of the plane contributes a normal row
``nᵀ R Γ(r)`` (Sueda eqs. 1.75–1.76) with ``J_n Φ⁺ >= b`` and two tangent rows
``t_kᵀ R Γ(r)``, where ``R`` is the rotation of the body's frame ``T = [[R, p], [0, 1]]`` (Sueda
writes E for this frame).  The bound ``b = -max(gap, 0)/h - γ min(gap, 0)`` lets a separated point
approach just until it touches at the end of the step and pushes a penetrating one out with the
Baumgarte gain.  The rows go to :func:`spatial.integrators.constrained_step` together with the
joints' rows (joints as equalities, contacts as complementarity), which reduces the mixed problem
to contact space and solves it with a friction model of :mod:`spatial.solvers.friction`
(Sueda's pyramid QP, eq. 1.88, by default; Lemke on the normal rows when ``μ = 0``).

Contact points are registered on bodies ``1 … N`` (the world ``0`` is the ground itself); body
``b`` is row ``b - 1`` of the frames and owns columns ``6(b - 1) … 6b - 1`` of the rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from .._validate import as_array, as_scalar_array, nonnegative_scalar
from ..se3 import material_jacobian
from ..solvers import FRICTION_MODELS, tangent_basis
from .state import _check_system_state

if TYPE_CHECKING:
    from .system import System

__all__ = ["GroundPlane", "ContactResult", "contact_jacobian"]


@dataclass(frozen=True)
class GroundPlane:
    """A fixed plane ``nᵀx = offset`` that the contact points of a :class:`System` cannot cross.

    Parameters
    ----------
    normal : array_like, shape (3,)
        Unit normal pointing out of the ground (world coordinates); default ``+z``.
    offset : float
        The plane's signed distance from the world origin along ``normal``.
    mu : float
        Coulomb friction coefficient, >= 0 (0: frictionless contact, normal rows only).
    friction : {"pyramid", "polyhedral", "box", "gauss-seidel"}
        Friction model of :func:`spatial.solvers.solve_impulses` (pyramid: Sueda eq. 1.88, with
        4 facets; polyhedral: Anitescu–Stewart with 8; box; Gauss–Seidel with the disc).
    margin : float
        Contact points up to this height above the plane (m) are kept as contacts, higher ones
        are ignored.  The default 1e-6 keeps the touching and penetrating points, with room for
        round-off so that a resting contact does not flicker; a larger margin adds speculative
        contacts that stop an approaching point just as it reaches the plane.

    Raises
    ------
    ValueError
        If the normal is not a unit 3-vector, ``mu`` or ``margin`` is negative, or the friction
        model is unknown.
    """

    normal: np.ndarray = field(default_factory=lambda: np.array([0.0, 0.0, 1.0]))
    offset: float = 0.0
    mu: float = 0.0
    friction: str = "pyramid"
    margin: float = 1e-6

    def __post_init__(self) -> None:
        n = as_array(self.normal, "normal", (3,))
        if n.shape != (3,) or abs(np.linalg.norm(n) - 1.0) > 1e-9:
            raise ValueError(f"normal must be a unit 3-vector, got {self.normal!r}")
        object.__setattr__(self, "normal", n)
        offset = as_scalar_array(self.offset, "offset")
        if offset.shape != ():
            raise ValueError(f"offset must be a number, got {self.offset!r}")
        object.__setattr__(self, "offset", float(offset))
        object.__setattr__(self, "mu", nonnegative_scalar(self.mu, "mu"))
        # an infinite margin keeps every contact point (used to read off contact rows)
        if not (np.ndim(self.margin) == 0 and self.margin == np.inf):
            object.__setattr__(self, "margin", nonnegative_scalar(self.margin, "margin"))
        if self.friction not in FRICTION_MODELS:
            raise ValueError(f"friction must be one of {FRICTION_MODELS}, got {self.friction!r}")

    def tangents(self) -> np.ndarray:
        """Two unit tangents ``t₁, t₂`` with ``(t₁, t₂, n)`` right-handed, shape (2, 3).

        :func:`spatial.solvers.tangent_basis` of the normal.
        """
        return tangent_basis(self.normal)


@dataclass
class ContactResult:
    """Contacts with the ground during one step (single state).

    Attributes
    ----------
    body : ndarray of int, shape (nc,)
        Body number (``1 … N``) of each contact point.
    point : ndarray, shape (nc, 3)
        The contact points in world coordinates at the start of the step.
    gap : ndarray, shape (nc,)
        Signed distance above the plane (negative: penetration).
    normal_impulse : ndarray, shape (nc,)
        ``λ_n >= 0`` (N s).
    tangent_impulse : ndarray, shape (nc, 2)
        Friction impulses along the plane's tangents (:meth:`GroundPlane.tangents`).
    """

    body: np.ndarray
    point: np.ndarray
    gap: np.ndarray
    normal_impulse: np.ndarray
    tangent_impulse: np.ndarray


def _contact_rows(system: System, T: np.ndarray, ground: GroundPlane):
    """Candidate contacts: bodies, world points, gaps and rows ``[J_n; J_t]`` (Sueda §1.11)."""
    n, tangents = ground.normal, ground.tangents()
    bodies, points, gaps, normal_rows, tangent_rows = [], [], [], [], []
    for b, pts in system.contact_points:
        i = b - 1  # body b is row b - 1 of T and block b - 1 of Φ
        R, p = T[i, :3, :3], T[i, :3, 3]
        x = pts @ R.T + p
        gap = x @ n - ground.offset
        for r, xk, gk in zip(pts, x, gap, strict=True):
            if gk > ground.margin:
                continue
            RG = R @ material_jacobian(r)  # world velocity of the point = R Γ(r) φ_b
            row = np.zeros((3, 6 * system.N))
            row[:, 6 * i : 6 * i + 6] = np.vstack([n, tangents]) @ RG
            bodies.append(b)
            points.append(xk)
            gaps.append(gk)
            normal_rows.append(row[0])
            tangent_rows.append(row[1:])
    nc = len(bodies)
    J = np.zeros((3 * nc, 6 * system.N))
    if nc:
        J[:nc] = np.array(normal_rows)
        J[nc:] = np.concatenate(tangent_rows)
    return (
        np.array(bodies, dtype=int),
        np.array(points).reshape(nc, 3),
        np.array(gaps),
        J,
    )


def contact_jacobian(system: System, T, ground: GroundPlane):
    """Contact rows of the system's contact points against a ground plane (Sueda §1.11).

    For a point ``r`` on body ``b`` the normal row is ``nᵀ R_b Γ(r)`` in body ``b``'s columns
    (Sueda eq. 1.76) and the tangent rows are ``t_kᵀ R_b Γ(r)``: they map the stacked body
    twists to the point's world velocity along ``n``, ``t₁``, ``t₂``.

    Parameters
    ----------
    system : System
    T : array_like, shape (N, 4, 4)
        A single state.
    ground : GroundPlane

    Returns
    -------
    J : ndarray, shape (3 nc, 6N)
        ``[J_n; J_t]``: the ``nc`` normal rows, then two tangent rows per contact, contact by
        contact (the layout of :mod:`spatial.solvers.friction`).
    gap : ndarray, shape (nc,)
        Signed distances of the contact points (within ``ground.margin``) above the plane.

    Raises
    ------
    ValueError
        If ``T`` does not match the system or has batch dimensions, or ``ground`` is not a
        :class:`GroundPlane`.
    """
    T, _ = _check_system_state(system, T)
    if T.ndim != 3:
        raise ValueError("contact needs a single state: T of shape (N, 4, 4), no batch dimensions")
    if not isinstance(ground, GroundPlane):
        raise ValueError(f"ground must be a GroundPlane, got {ground!r}")
    _, _, gap, J = _contact_rows(system, T, ground)
    return J, gap
