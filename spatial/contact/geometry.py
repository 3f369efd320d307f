"""Contact geometry: shapes, signed gaps, contact points and normals (Featherstone §11.6).

A contact between two surfaces is described, as in Featherstone §11.3, by a point ``C`` where
they touch (or come closest), a unit normal ``n`` pointing from the first surface (the
*predecessor*) to the second (the *successor*), and the signed gap ``φ``: the separation
distance along ``n``, negative when the surfaces overlap (minus the penetration depth).  The
contact constraint is ``φ >= 0`` (eq. 11.37).

Every routine here works in world coordinates and returns a :class:`ContactGeometry` with
arrays ``point (..., k, 3)``, ``normal (..., k, 3)``, ``gap (..., k)``: ``k`` candidate contacts
per pair of shapes, always the same ``k`` for a given pair of shape types (a box on a plane
has 8 candidates, one per vertex, whether or not they touch), so candidates keep their
identity from one configuration to the next.  Poses are 4x4 frames ``T_world,shape`` (Sueda
writes E for this frame); their leading batch dimensions broadcast.

Line and surface contacts are represented by finitely many point contacts, as §11.6
recommends for polyhedra: a box face on a plane by its four vertices, a capsule lying on a
plane by the two ends of its axis.  Box–box contact is vertex-in-face only (the eight vertices
of each box tested against the faces of the other); edge–edge contacts are not detected, which
is enough for boxes resting on each other face to face (stacks).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .._validate import (
    as_array,
    as_scalar_array,
    nonnegative_scalar,
    positive_scalar,
    real_array,
    unit_vectors,
)
from ..se3 import _as_frame
from ..solvers.friction import tangent_basis  # re-exported: the contact frames use it

__all__ = [
    "Box",
    "Capsule",
    "ContactGeometry",
    "Plane",
    "Points",
    "Sphere",
    "box_box",
    "box_plane",
    "box_vertices",
    "capsule_plane",
    "points_plane",
    "sphere_plane",
    "sphere_sphere",
    "tangent_basis",
]


class ContactGeometry(NamedTuple):
    """Candidate contacts between two shapes, in world coordinates.

    Attributes
    ----------
    point : numpy.ndarray, shape (..., k, 3)
        Contact points: the point of the successor's surface deepest into (or closest to) the
        predecessor.
    normal : numpy.ndarray, shape (..., k, 3)
        Unit normals from the predecessor to the successor.
    gap : numpy.ndarray, shape (..., k)
        Signed distances ``φ``: positive apart, zero touching, negative overlapping; ``+inf``
        marks a candidate that is not a contact in this configuration (box–box only).
    """

    point: np.ndarray
    normal: np.ndarray
    gap: np.ndarray


# ----------------------------------------------------------------------------- shapes


@dataclass(frozen=True)
class Sphere:
    """A sphere of the given radius centred on its frame's origin.

    Raises
    ------
    ValueError
        If the radius is not a positive number.
    """

    radius: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "radius", positive_scalar(self.radius, "Sphere radius"))


@dataclass(frozen=True)
class Box:
    """A box centred on its frame's origin with half side lengths ``half_extents`` along x, y, z.

    Raises
    ------
    ValueError
        If ``half_extents`` is not three positive numbers.
    """

    half_extents: np.ndarray

    def __post_init__(self) -> None:
        h = real_array(self.half_extents, "Box half_extents")
        if h.shape != (3,) or not np.all(np.isfinite(h)) or np.any(h <= 0):
            raise ValueError(
                f"Box half_extents must be three positive numbers, got {self.half_extents!r}"
            )
        object.__setattr__(self, "half_extents", h)


@dataclass(frozen=True)
class Capsule:
    """A capsule: the points within ``radius`` of the segment ``z ∈ [-half_length, half_length]``.

    Raises
    ------
    ValueError
        If the radius is not positive or the half length is negative.
    """

    radius: float
    half_length: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "radius", positive_scalar(self.radius, "Capsule radius"))
        L = nonnegative_scalar(self.half_length, "Capsule half_length")
        object.__setattr__(self, "half_length", L)


@dataclass(frozen=True)
class Points:
    """Body-fixed contact points (a point cloud), coordinates in the shape's frame.

    Raises
    ------
    ValueError
        If ``points`` is not a non-empty finite array of shape (k, 3).
    """

    points: np.ndarray

    def __post_init__(self) -> None:
        p = real_array(self.points, "Points")
        if p.ndim != 2 or p.shape[0] < 1 or p.shape[1] != 3 or not np.all(np.isfinite(p)):
            raise ValueError(
                f"Points needs a finite array of shape (k, 3), k >= 1, got shape {p.shape}"
            )
        object.__setattr__(self, "points", p)


@dataclass(frozen=True)
class Plane:
    """The half-space below the plane ``n·x = offset`` of its frame (solid where ``n·x < offset``).

    ``normal`` is normalized; it points out of the solid, towards the bodies it supports.

    Raises
    ------
    ValueError
        If the normal is zero or not a 3-vector, or the offset is not a finite number.
    """

    normal: np.ndarray = (0.0, 0.0, 1.0)
    offset: float = 0.0

    def __post_init__(self) -> None:
        n = unit_vectors(self.normal, "Plane normal")
        if n.shape != (3,):
            raise ValueError(f"Plane normal must be a single 3-vector, got shape {n.shape}")
        off = real_array(self.offset, "Plane offset")
        if off.shape != () or not np.isfinite(off):
            raise ValueError(f"Plane offset must be a finite number, got {self.offset!r}")
        object.__setattr__(self, "normal", n)
        object.__setattr__(self, "offset", float(off))


# ----------------------------------------------------------------------------- helpers


def _plane(normal, offset) -> tuple[np.ndarray, np.ndarray]:
    n = unit_vectors(normal, "normal")
    return n, as_scalar_array(offset, "offset")


def _pose(T, name: str) -> tuple[np.ndarray, np.ndarray]:
    T = _as_frame(T, name)
    return T[..., :3, :3], T[..., :3, 3]


_SIGNS = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], float)


def box_vertices(pose, half_extents) -> np.ndarray:
    """World coordinates of a box's eight vertices, ordered by the signs of ``(x, y, z)``.

    Parameters
    ----------
    pose : array_like, shape (..., 4, 4)
        The box's frame in the world (``T_world,box``).
    half_extents : array_like, shape (3,)

    Returns
    -------
    numpy.ndarray, shape (..., 8, 3)

    Raises
    ------
    ValueError
        If ``pose`` is not a rigid frame or the half extents are not positive.
    """
    R, o = _pose(pose, "pose")
    h = Box(half_extents).half_extents
    local = _SIGNS * h  # (8, 3)
    return np.einsum("...ij,kj->...ki", R, local) + o[..., None, :]


# ----------------------------------------------------------------------------- shape pairs


def points_plane(points, normal, offset=0.0) -> ContactGeometry:
    """Points against the plane ``n·x = offset``: gap ``n·p - offset``, contact at ``p``.

    Parameters
    ----------
    points : array_like, shape (..., k, 3)
        World coordinates of body-fixed points.
    normal : array_like, shape (..., 3)
        The plane's normal (normalized here), pointing towards the points' body.
    offset : float or array_like, shape (...)
        The plane's distance from the origin along the normal.

    Returns
    -------
    ContactGeometry
        ``k`` candidates; the plane is the predecessor.

    Raises
    ------
    ValueError
        For non-finite input, a zero normal or a bad shape.
    """
    p = as_array(points, "points", (3,))
    if p.ndim < 2:
        raise ValueError(f"points must have shape (..., k, 3), got {p.shape}")
    n, off = _plane(normal, offset)
    gap = np.einsum("...kj,...j->...k", p, n) - off[..., None]
    normals = np.broadcast_to(n[..., None, :], gap.shape + (3,))
    return ContactGeometry(np.broadcast_to(p, gap.shape + (3,)), normals, gap)


def sphere_plane(center, radius, normal, offset=0.0) -> ContactGeometry:
    """A sphere against a plane: contact at ``c - r n``, gap ``n·c - offset - r``.

    Parameters
    ----------
    center : array_like, shape (..., 3)
        World coordinates of the centre.
    radius : float
    normal, offset :
        The plane, as for :func:`points_plane`.

    Returns
    -------
    ContactGeometry
        ``k = 1``.

    Raises
    ------
    ValueError
        For non-finite input, a non-positive radius or a zero normal.
    """
    c = as_array(center, "center", (3,))
    r = Sphere(radius).radius
    n, _ = _plane(normal, offset)
    return points_plane(c[..., None, :] - r * n[..., None, :], normal, offset)


def capsule_plane(pose, radius, half_length, normal, offset=0.0) -> ContactGeometry:
    """A capsule against a plane: the two end spheres of its axis, each a candidate contact.

    A capsule lying flat on a plane has a line contact; by §11.6 the two ends represent it.

    Parameters
    ----------
    pose : array_like, shape (..., 4, 4)
        The capsule's frame (axis along its z axis).
    radius, half_length : float
    normal, offset :
        The plane, as for :func:`points_plane`.

    Returns
    -------
    ContactGeometry
        ``k = 2`` (the ends at ``z = -L`` and ``z = +L``).

    Raises
    ------
    ValueError
        For a bad pose or capsule dimensions, or a zero normal.
    """
    shape = Capsule(radius, half_length)
    R, o = _pose(pose, "pose")
    ends = o[..., None, :] + np.array([-1.0, 1.0])[:, None] * shape.half_length * R[..., None, :, 2]
    n, _ = _plane(normal, offset)
    return points_plane(ends - shape.radius * n[..., None, :], normal, offset)


def box_plane(pose, half_extents, normal, offset=0.0) -> ContactGeometry:
    """A box against a plane: its eight vertices (Featherstone §11.6, Figure 11.7 c).

    Parameters
    ----------
    pose : array_like, shape (..., 4, 4)
        The box's frame.
    half_extents : array_like, shape (3,)
    normal, offset :
        The plane, as for :func:`points_plane`.

    Returns
    -------
    ContactGeometry
        ``k = 8``, in the order of :func:`box_vertices`.

    Raises
    ------
    ValueError
        For a bad pose or half extents, or a zero normal.
    """
    return points_plane(box_vertices(pose, half_extents), normal, offset)


def sphere_sphere(center1, radius1, center2, radius2) -> ContactGeometry:
    """Two spheres: normal along the line of centres, gap ``|c₂ - c₁| - r₁ - r₂``.

    The contact point is the midpoint of the two surface points on the line of centres.

    Parameters
    ----------
    center1, center2 : array_like, shape (..., 3)
    radius1, radius2 : float

    Returns
    -------
    ContactGeometry
        ``k = 1``; sphere 1 is the predecessor (the normal points from 1 to 2).

    Raises
    ------
    ValueError
        For non-finite input, a non-positive radius, or coincident centres (no normal).
    """
    c1 = as_array(center1, "center1", (3,))
    c2 = as_array(center2, "center2", (3,))
    r1, r2 = Sphere(radius1).radius, Sphere(radius2).radius
    d = c2 - c1
    dist = np.linalg.norm(d, axis=-1, keepdims=True)
    if np.any(dist < 1e-12):
        raise ValueError("sphere_sphere: the centres coincide, so the contact normal is undefined")
    n = d / dist
    gap = dist[..., 0] - r1 - r2
    point = c1 + (r1 + 0.5 * gap[..., None]) * n
    return ContactGeometry(point[..., None, :], n[..., None, :], gap[..., None])


def _vertices_in_box(vertices, R, o, h) -> tuple[np.ndarray, np.ndarray]:
    """Vertex–face gaps and outward face normals of ``vertices`` against one box.

    For a vertex with box coordinates ``x`` the face of least penetration is ``k* = argmax_k
    (|x_k| - h_k)``; the gap is that value when the vertex lies over the face (``|x_j| <= h_j``
    for the other two axes) and ``+inf`` otherwise.
    """
    x = np.einsum("...ji,...kj->...ki", R, vertices - o[..., None, :])  # box coordinates
    depth = np.abs(x) - h
    k = np.argmax(depth, axis=-1)
    gap = np.take_along_axis(depth, k[..., None], -1)[..., 0]
    tol = 1e-9 * h.max()
    over_face = np.all((depth <= tol) | (np.arange(3) == k[..., None]), axis=-1)
    sign = np.sign(np.take_along_axis(x, k[..., None], -1))
    sign[sign == 0] = 1.0
    local_normal = np.eye(3)[k] * sign
    normal = np.einsum("...ij,...kj->...ki", R, local_normal)
    return np.where(over_face, gap, np.inf), normal


def box_box(pose1, half_extents1, pose2, half_extents2) -> ContactGeometry:
    """Vertex–face contacts between two boxes (Featherstone §11.6, Figure 11.7 c).

    Candidates 0–7 are the vertices of box 2 against the faces of box 1 (normal: the outward
    normal of box 1's face), candidates 8–15 the vertices of box 1 against the faces of box 2
    (normal: minus the outward normal of box 2's face), so every normal points from box 1 to
    box 2 and box 1 is the predecessor of all sixteen.  A vertex that does not lie over a face
    of the other box has gap ``+inf``.  Edge–edge contacts are not detected.

    Parameters
    ----------
    pose1, pose2 : array_like, shape (..., 4, 4)
        The boxes' frames.
    half_extents1, half_extents2 : array_like, shape (3,)

    Returns
    -------
    ContactGeometry
        ``k = 16``.

    Raises
    ------
    ValueError
        For a bad pose or half extents.
    """
    R1, o1 = _pose(pose1, "pose1")
    R2, o2 = _pose(pose2, "pose2")
    h1, h2 = Box(half_extents1).half_extents, Box(half_extents2).half_extents
    v2 = box_vertices(pose2, h2)
    v1 = box_vertices(pose1, h1)
    gap_a, n_a = _vertices_in_box(v2, R1, o1, h1)
    gap_b, n_b = _vertices_in_box(v1, R2, o2, h2)
    batch = np.broadcast_shapes(gap_a.shape, gap_b.shape)
    point = np.concatenate(
        [np.broadcast_to(v2, batch + (3,)), np.broadcast_to(v1, batch + (3,))], -2
    )
    normal = np.concatenate(
        [np.broadcast_to(n_a, batch + (3,)), -np.broadcast_to(n_b, batch + (3,))], -2
    )
    gap = np.concatenate([np.broadcast_to(gap_a, batch), np.broadcast_to(gap_b, batch)], -1)
    return ContactGeometry(point, normal, gap)
