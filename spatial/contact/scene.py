"""Contact scenes: bodies carrying shapes, contact detection and contact Jacobians.

A :class:`Scene` couples a rigid-body system with the shapes attached to its bodies.  The
system is either

* a kinematic tree (:class:`~spatial.Model`), state ``q (nq,)``, ``v = q̇ (nv,)``, with
  ``H`` from the CRBA and ``C`` from the RNEA (Featherstone eq. 11.23), or
* free rigid bodies in maximal coordinates (:class:`FreeBodies`), state ``T (N, 4, 4)`` (the
  bodies' 4x4 frames; Sueda writes E for this frame) and ``v (6N,)``, the stacked body twists
  ``φ_i = [ω; v]`` (Sueda §1.6–1.8).

Bodies are numbered as in Featherstone: 0 is the fixed world (the base), ``1 … NB`` the moving
bodies (for free bodies, ``1 … N`` in the order of their inertias).

**Contact Jacobian** (Featherstone §11.3, Sueda §1.11).  A contact between a predecessor body
``pc`` and a successor ``sc`` at the world point ``p`` with normal ``n`` and tangents
``t₁, t₂`` has the rows

    nᵀ (J_sc(p) - J_pc(p)),    t_kᵀ (J_sc(p) - J_pc(p)),

where ``J_b(p)`` (3 × nv) maps the generalized velocity to the world velocity of the point of
body ``b`` that coincides with ``p`` (zero for the world).  The normal row is Featherstone's
``t_iᵀ`` (eq. 11.25), so ``ζ_i = t_iᵀ q̇`` is the separation velocity (eq. 11.28) and an impulse
``λ_i`` along the normal acts on the system as ``t_i λ_i`` (eq. 11.26).  ``J_b(p)`` comes from
the body Jacobian in world coordinates, ``J_b(p) = [-p×, 1] ^0J_b``, for trees and for free
bodies alike (for a free body ``^0J_b`` is ``Ad(T_b)`` in its own columns, Sueda eq. 1.75).  For a
tree this is :func:`spatial.point_jacobian`, computed once per body rather than once per point.

The rows are stacked in the layout of :mod:`spatial.solvers.friction`: first the ``nc`` normal
rows, then the tangent rows contact by contact.  Planar scenes (motion in a plane, given by its
normal ``planar``) have one tangent per contact, ``planar × n``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._batched import xinv
from .._validate import as_array, finite_scalar, real_array, unit_vectors
from ..dynamics import aba, bias_force, crba
from ..inertia import inertia_params, validate_inertia
from ..kinematics import (
    _body_jacobian,
    _forward_pass,
    body_jacobian,
    forward_kinematics,
    kinetic_energy,
    potential_energy,
)
from ..maximal import rigid_body
from ..model import Model
from ..se3 import _Ad, _as_frame, _exp_se3, frame_inverse, log_se3
from ..solvers.friction import tangent_basis
from ..vectors import skew, unskew
from . import geometry as geo

__all__ = ["Collider", "Contacts", "FreeBodies", "Scene"]


# ----------------------------------------------------------------------------- systems


@dataclass
class FreeBodies:
    """Free rigid bodies in maximal coordinates (Sueda §1.6–1.8), bodies numbered ``1 … N``.

    Parameters
    ----------
    inertias : sequence of array_like, shape (6, 6) each
        Spatial inertias in body coordinates (the frame need not be at the centre of mass);
        each must be positive definite.
    gravity : array_like, shape (3,)
        Gravitational acceleration in world coordinates.

    Raises
    ------
    ValueError
        If there are no bodies, an inertia is not a positive-definite rigid-body inertia, or
        ``gravity`` is not a finite 3-vector.
    """

    inertias: list
    gravity: np.ndarray = field(default_factory=lambda: np.array([0.0, 0.0, -9.81]))

    def __post_init__(self) -> None:
        inertias = [
            validate_inertia(M, f"inertia of body {i + 1}") for i, M in enumerate(self.inertias)
        ]  # positive definite: validate_inertia asks for m > 0 and I_c positive definite
        if not inertias:
            raise ValueError("FreeBodies needs at least one body")
        self.inertias = inertias
        g = as_array(self.gravity, "gravity", (3,))
        if g.shape != (3,):
            raise ValueError(f"gravity must be a 3-vector, got shape {g.shape}")
        self.gravity = g

    @property
    def N(self) -> int:
        """Number of bodies."""
        return len(self.inertias)

    @property
    def NB(self) -> int:
        """Number of bodies (the tree name, so scenes treat both systems alike)."""
        return len(self.inertias)


class _Tree:
    """Adapter: a kinematic tree as the system of a scene."""

    def __init__(self, model: Model):
        self.model = model
        self.NB, self.nv = model.NB, model.nv

    def check(self, q, v):
        q, v, _, _ = self.model.check_state(q, v)
        if q.ndim != 1 or v.ndim != 1:
            raise ValueError("contact simulation takes a single state: q (nq,) and v (nv,)")
        return q, v

    def mass_matrix(self, q):
        return crba(self.model, q)

    def force(self, q, v, tau):
        return tau - bias_force(self.model, q, v)

    def poses(self, q):
        X0 = forward_kinematics(self.model, q)  # ^iX_0 = rot(E) xlt(o): R = Eᵀ, o from -E o×
        R = np.swapaxes(X0[:, :3, :3], -1, -2)
        T = np.zeros((self.NB + 1, 4, 4))
        T[:, :3, :3] = R
        T[:, :3, 3] = unskew(-R @ X0[:, 3:, :3])
        T[:, 3, 3] = 1.0
        return T

    def world_jacobian(self, q, i):
        return body_jacobian(self.model, q, i, frame="world")

    def world_jacobians(self, q, bodies) -> dict:
        """``{b: world_jacobian(q, b)}`` for several bodies from one forward pass."""
        q, _, _, _ = self.model.check_state(q)
        fp = _forward_pass(self.model, q)
        return {b: xinv(fp.X0[b]) @ _body_jacobian(self.model, fp, b) for b in bodies}

    def integrate(self, q, v, h):  # q and v validated by Scene.check_state
        return self.model._per_joint("integrate", q, v, h)

    def difference(self, q0, q1):
        return self.model.difference(q0, q1)

    def energy(self, q, v):
        return float(kinetic_energy(self.model, q, v)), float(potential_energy(self.model, q))

    def acceleration(self, q, v, tau, f_ext):
        return aba(self.model, q, v, tau, f_ext)


class _Free:
    """Adapter: free bodies in maximal coordinates as the system of a scene."""

    def __init__(self, bodies: FreeBodies):
        self.bodies = bodies
        self.M = np.stack(bodies.inertias)
        self.mass, self.com, _ = inertia_params(self.M)
        self.NB, self.nv = bodies.N, 6 * bodies.N

    def check(self, q, v):
        T = _as_frame(q, "q (the body frames T)")
        if T.shape != (self.NB, 4, 4):
            raise ValueError(f"q must hold the {self.NB} body frames, shape ({self.NB}, 4, 4)")
        v = as_array(v, "v", (self.nv,))
        if v.ndim != 1:
            raise ValueError(f"v must have shape ({self.nv},)")
        return T, v

    def mass_matrix(self, q):
        H = np.zeros((self.nv, self.nv))
        for i in range(self.NB):
            H[6 * i : 6 * i + 6, 6 * i : 6 * i + 6] = self.M[i]
        return H

    def _wrench(self, q, v):
        """Coriolis and gravity body wrenches (Sueda eqs. 1.21–1.22), (N, 6)."""
        phi = v.reshape(self.NB, 6)
        return rigid_body._coriolis(self.M, phi) + rigid_body._gravity(
            self.M, q, self.bodies.gravity
        )

    def force(self, q, v, tau):
        return tau + self._wrench(q, v).ravel()

    def poses(self, q):
        return np.concatenate([np.eye(4)[None], q])

    def world_jacobian(self, q, i):
        J = np.zeros((6, self.nv))
        J[:, 6 * (i - 1) : 6 * i] = _Ad(q[i - 1])
        return J

    def world_jacobians(self, q, bodies) -> dict:
        """``{b: world_jacobian(q, b)}`` for several bodies."""
        return {b: self.world_jacobian(q, b) for b in bodies}

    def integrate(self, q, v, h):
        return q @ _exp_se3(h * v.reshape(self.NB, 6))

    def difference(self, q0, q1):
        return log_se3(frame_inverse(q0) @ q1).reshape(6 * self.NB)

    def energy(self, q, v):
        phi = v.reshape(self.NB, 6)
        kinetic = 0.5 * np.einsum("ni,nij,nj->", phi, self.M, phi)
        com = q[:, :3, 3] + np.einsum("nij,nj->ni", q[:, :3, :3], self.com)
        return float(kinetic), float(-np.sum(self.mass * (com @ self.bodies.gravity)))

    def acceleration(self, q, v, tau, f_ext):
        wrench = np.einsum("nji,nj->ni", _Ad(q), f_ext[1:])  # ^iX_0* f = Ad(T_i)ᵀ f
        wrench = wrench + self._wrench(q, v) + tau.reshape(self.NB, 6)
        return np.linalg.solve(self.M, wrench[..., None])[..., 0].ravel()


# ----------------------------------------------------------------------------- colliders


_SHAPES = (geo.Sphere, geo.Box, geo.Capsule, geo.Points, geo.Plane)


@dataclass(frozen=True)
class Collider:
    """A shape fixed to a body.

    Attributes
    ----------
    body : int
        Body number (0: the fixed world).
    shape : Sphere, Box, Capsule, Points or Plane
    pose : numpy.ndarray, shape (4, 4)
        The shape's frame in the body frame, ``T_body,shape``.
    name : str
    """

    body: int
    shape: object
    pose: np.ndarray
    name: str


@dataclass
class Contacts:
    """Candidate contacts of a scene in one configuration (world coordinates).

    Attributes
    ----------
    predecessor, successor : numpy.ndarray of int, shape (K,)
        Body numbers ``pc(i)``, ``sc(i)`` (Featherstone §11.3); the normal points from the
        predecessor to the successor.
    point : numpy.ndarray, shape (K, 3)
    normal : numpy.ndarray, shape (K, 3)
    gap : numpy.ndarray, shape (K,)
        Signed distances (``+inf``: not a contact in this configuration).
    pair : numpy.ndarray of int, shape (K,)
        Index of the collider pair in ``scene.pairs`` that produced the candidate.
    """

    predecessor: np.ndarray
    successor: np.ndarray
    point: np.ndarray
    normal: np.ndarray
    gap: np.ndarray
    pair: np.ndarray

    def __len__(self) -> int:
        return len(self.gap)

    def select(self, index) -> Contacts:
        """The candidates picked by a boolean mask or an index array."""
        return Contacts(*(getattr(self, f)[index] for f in self.__dataclass_fields__))


def _world_plane(shape: geo.Plane, T: np.ndarray) -> tuple[np.ndarray, float]:
    n = T[:3, :3] @ shape.normal
    return n, float(n @ (T[:3, :3] @ (shape.offset * shape.normal) + T[:3, 3]))


def _plane_shape(plane: geo.Plane, T_plane, shape, T) -> geo.ContactGeometry:
    """Candidates of ``shape`` (world frame ``T``) against ``plane`` (world frame ``T_plane``)."""
    n, offset = _world_plane(plane, T_plane)
    if isinstance(shape, geo.Sphere):
        return geo.sphere_plane(T[:3, 3], shape.radius, n, offset)
    if isinstance(shape, geo.Box):
        return geo.box_plane(T, shape.half_extents, n, offset)
    if isinstance(shape, geo.Capsule):
        return geo.capsule_plane(T, shape.radius, shape.half_length, n, offset)
    return geo.points_plane(shape.points @ T[:3, :3].T + T[:3, 3], n, offset)


_PLANE_PARTNERS = (geo.Sphere, geo.Box, geo.Capsule, geo.Points)


def _pair_routine(a: Collider, b: Collider):
    """``(first, second, routine)`` for a supported pair, with ``first`` the predecessor."""
    sa, sb = a.shape, b.shape
    if isinstance(sa, geo.Plane) and isinstance(sb, _PLANE_PARTNERS):
        return a, b, lambda Ta, Tb: _plane_shape(sa, Ta, sb, Tb)
    if isinstance(sb, geo.Plane) and isinstance(sa, _PLANE_PARTNERS):
        return b, a, lambda Tb, Ta: _plane_shape(sb, Tb, sa, Ta)
    if isinstance(sa, geo.Sphere) and isinstance(sb, geo.Sphere):
        return a, b, lambda Ta, Tb: geo.sphere_sphere(Ta[:3, 3], sa.radius, Tb[:3, 3], sb.radius)
    if isinstance(sa, geo.Box) and isinstance(sb, geo.Box):
        return a, b, lambda Ta, Tb: geo.box_box(Ta, sa.half_extents, Tb, sb.half_extents)
    return None


# ----------------------------------------------------------------------------- scene


class Scene:
    """A rigid-body system with shapes on its bodies: contact detection and contact Jacobians.

    Shape pairs that collide: a plane with a sphere, box, capsule or point set; two spheres;
    two boxes (vertex–face).  Other pairs (sphere–box, capsule–capsule, ...) and shapes on the
    same body do not collide.  See the module docstring for body numbers and row layout.

    Parameters
    ----------
    system : Model or FreeBodies
    planar : array_like, shape (3,), optional
        Normal of the plane of motion for planar systems (e.g. ``[0, 0, 1]`` for a mechanism
        moving in the x–y plane): contacts then have one tangent direction, ``planar × n``.

    Raises
    ------
    ValueError
        If ``system`` is neither a Model nor FreeBodies, or ``planar`` is not a nonzero 3-vector.
    """

    def __init__(self, system: Model | FreeBodies, planar=None):
        if isinstance(system, Model):
            self._sys = _Tree(system)
        elif isinstance(system, FreeBodies):
            self._sys = _Free(system)
        else:
            raise ValueError(f"system must be a Model or FreeBodies, got {type(system).__name__}")
        self.system = system
        self.planar = None if planar is None else unit_vectors(planar, "planar")
        if self.planar is not None and self.planar.shape != (3,):
            raise ValueError("planar must be a single 3-vector")
        self.colliders: list[Collider] = []
        self.pairs: list[tuple[Collider, Collider, object]] = []

    # ------------------------------------------------------------------ construction

    @property
    def NB(self) -> int:
        """Number of moving bodies."""
        return self._sys.NB

    @property
    def nv(self) -> int:
        """Number of velocity variables."""
        return self._sys.nv

    @property
    def tangent_dim(self) -> int:
        """Tangent directions per contact: 1 for planar scenes, 2 otherwise."""
        return 1 if self.planar is not None else 2

    def add(self, body: int, shape, pose=None, name: str | None = None) -> int:
        """Attach ``shape`` to ``body`` at ``pose`` (``T_body,shape``); return the collider index.

        Parameters
        ----------
        body : int
            Body number ``0 … NB`` (0: the fixed world).
        shape : Sphere, Box, Capsule, Points or Plane
        pose : array_like, shape (4, 4), optional
            The shape's frame in the body frame (identity by default).
        name : str, optional

        Returns
        -------
        int

        Raises
        ------
        ValueError
            For an invalid body number, shape or pose.
        """
        if isinstance(body, bool) or not isinstance(body, (int, np.integer)):
            raise ValueError(f"body must be a body number, got {body!r}")
        if not 0 <= body <= self.NB:
            raise ValueError(f"body must be in 0 … {self.NB} (0 is the fixed world), got {body}")
        if not isinstance(shape, _SHAPES):
            raise ValueError(
                f"shape must be a Sphere, Box, Capsule, Points or Plane, got {type(shape).__name__}"
            )
        T = np.eye(4) if pose is None else _as_frame(pose, "pose")
        if T.shape != (4, 4):
            raise ValueError(f"pose must be a single 4x4 frame, got shape {T.shape}")
        index = len(self.colliders)
        collider = Collider(int(body), shape, T, f"collider{index}" if name is None else name)
        for other in self.colliders:
            if other.body == collider.body:
                continue
            pair = _pair_routine(other, collider)
            if pair is not None:
                self.pairs.append(pair)
        self.colliders.append(collider)
        return index

    # ------------------------------------------------------------------ the system

    def check_state(self, q, v) -> tuple[np.ndarray, np.ndarray]:
        """Validate a single state: ``q (nq,)`` (tree) or ``(N, 4, 4)`` (free bodies), ``v (nv,)``.

        Raises
        ------
        ValueError
            Naming the argument, for a wrong shape or an invalid configuration.
        """
        return self._sys.check(q, v)

    def mass_matrix(self, q) -> np.ndarray:
        """Generalized inertia ``H`` (CRBA for trees, block diagonal for free bodies)."""
        return self._sys.mass_matrix(q)

    def generalized_force(self, q, v, tau=None) -> np.ndarray:
        """``τ - C(q, v)``: applied force minus the bias force (gravity, Coriolis), eq. 11.23."""
        return self._sys.force(q, v, np.zeros(self.nv) if tau is None else tau)

    def acceleration(self, q, v, tau, f_ext) -> np.ndarray:
        """Forward dynamics with external forces ``f_ext (NB + 1, 6)`` in world coordinates.

        Trees use the articulated-body algorithm (:func:`spatial.aba`), free bodies Newton–Euler.

        Raises
        ------
        ValueError
            As :meth:`check_state`.
        """
        q, v = self.check_state(q, v)
        return self._acceleration(q, v, tau, f_ext)

    def _acceleration(self, q, v, tau, f_ext) -> np.ndarray:
        """:meth:`acceleration` of arguments already validated (the steps' core)."""
        return self._sys.acceleration(q, v, tau, f_ext)

    def integrate(self, q, v, h: float):
        """Configuration after moving with velocity ``v`` for time ``h`` (quaternions / SE(3)).

        Raises
        ------
        ValueError
            As :meth:`check_state`, or if ``h`` is not a finite number.
        """
        q, v = self.check_state(q, v)
        return self._integrate(q, v, finite_scalar(h, "h"))

    def _integrate(self, q, v, h: float):
        """:meth:`integrate` of a state already validated (the steps' core)."""
        return self._sys.integrate(q, v, h)

    def difference(self, q0, q1) -> np.ndarray:
        """Velocity ``v`` with ``integrate(q0, v, 1) == q1`` (joint differences / SE(3) logs)."""
        return self._sys.difference(q0, q1)

    def energy(self, q, v) -> tuple[float, float]:
        """Kinetic and gravitational potential energy, ``(kinetic, potential)``."""
        return self._sys.energy(q, v)

    def poses(self, q) -> np.ndarray:
        """World frames ``T_world,body`` of all bodies, shape (NB + 1, 4, 4); row 0 is the world."""
        return self._sys.poses(q)

    # ------------------------------------------------------------------ contacts

    def detect(self, q) -> Contacts:
        """All candidate contacts at configuration ``q`` (Featherstone §11.6).

        Returns
        -------
        Contacts
            The same number of candidates ``K`` in every configuration, in the order of
            ``scene.pairs``.
        """
        poses = self.poses(q)
        parts = []
        for k, (a, b, routine) in enumerate(self.pairs):
            g = routine(poses[a.body] @ a.pose, poses[b.body] @ b.pose)
            m = g.gap.shape[-1]
            parts.append(
                (np.full(m, a.body), np.full(m, b.body), g.point, g.normal, g.gap, np.full(m, k))
            )
        if not parts:
            empty = np.zeros(0, dtype=int)
            return Contacts(empty, empty, np.zeros((0, 3)), np.zeros((0, 3)), np.zeros(0), empty)
        cols = list(zip(*parts, strict=True))
        return Contacts(*(np.concatenate(c) for c in cols))

    def tangents(self, normal) -> np.ndarray:
        """Tangent directions of contacts with the given normals, shape (nc, tangent_dim, 3).

        Raises
        ------
        ValueError
            In a planar scene, if a normal is parallel to the plane's normal.
        """
        normal = real_array(normal, "normal").reshape(-1, 3)
        if self.planar is None:
            return tangent_basis(normal) if len(normal) else np.zeros((0, 2, 3))
        t = np.cross(self.planar, normal)
        size = np.linalg.norm(t, axis=-1, keepdims=True)
        if np.any(size < 1e-9):
            raise ValueError("a contact normal is perpendicular to the plane of motion")
        return (t / size)[:, None, :]

    def point_jacobians(self, q, contacts: Contacts) -> np.ndarray:
        """``J_sc(p) - J_pc(p)`` for each contact: the relative point velocity, (nc, 3, nv)."""
        nc = len(contacts)
        out = np.zeros((nc, 3, self.nv))
        if nc == 0:
            return out
        lever = np.concatenate([-skew(contacts.point), np.broadcast_to(np.eye(3), (nc, 3, 3))], -1)
        bodies = [
            b for b in set(contacts.predecessor.tolist()) | set(contacts.successor.tolist()) if b
        ]
        world = self._sys.world_jacobians(q, bodies)  # ^0J_b of each, one forward pass (a tree)
        for b in bodies:
            J0 = world[b]  # the point's velocity is [-p×, 1] ^0J_b q̇
            succ, pred = contacts.successor == b, contacts.predecessor == b
            out[succ] += lever[succ] @ J0
            out[pred] -= lever[pred] @ J0
        return out

    def jacobian(self, q, contacts: Contacts) -> tuple[np.ndarray, np.ndarray]:
        """Contact Jacobian ``[N; T]`` (Featherstone eq. 11.25, Sueda eqs. 1.76–1.78).

        Parameters
        ----------
        q : configuration
        contacts : Contacts
            The contacts to include (e.g. ``scene.detect(q).select(gap <= margin)``).

        Returns
        -------
        J : numpy.ndarray, shape (nc (1 + tangent_dim), nv)
            ``nc`` normal rows, then ``tangent_dim`` tangent rows per contact.
        tangents : numpy.ndarray, shape (nc, tangent_dim, 3)
            The tangent directions of the tangent rows.
        """
        nc, d = len(contacts), self.tangent_dim
        P = self.point_jacobians(q, contacts)
        tangents = self.tangents(contacts.normal)
        J = np.zeros((nc * (1 + d), self.nv))
        if nc:
            J[:nc] = np.einsum("ck,ckv->cv", contacts.normal, P)
            J[nc:] = np.einsum("cdk,ckv->cdv", tangents, P).reshape(nc * d, self.nv)
        return J, tangents
