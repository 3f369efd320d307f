"""Side views of contact scenes: shapes on bodies, contact normals, and their motion.

The drawings of the contact chapters (notebooks 11 and 17), for a
:class:`~spatial.contact.Scene` — free bodies or a tree with spheres, boxes, capsules, point sets
and planes on its bodies:

* :func:`draw_scene` — every collider of the scene at one configuration, projected on a world
  plane (a side view), with the tree's stick figure when the system is a :class:`Model`;
* :func:`draw_contacts` — contact points and normals, arrows scaled by the contact forces or
  impulses when they are given;
* :func:`animate_scene` — a trajectory of the scene as an offline HTML player.

Spheres carry a spoke along their body's x axis, so that rolling and spin show in an animation.
"""

from __future__ import annotations

import numpy as np

from .._validate import real_array
from ..contact import geometry as geo
from ..model import Model
from .models import _PLANES, _check_plane, draw_model
from .player import animation_html, frame_indices

__all__ = ["draw_scene", "draw_contacts", "animate_scene"]

_CIRCLE = np.linspace(0.0, 2.0 * np.pi, 48)


def _hull(points: np.ndarray) -> np.ndarray:
    """Convex hull of 2D points (Andrew's monotone chain), closed polygon, counter-clockwise."""
    pts = sorted(set(map(tuple, np.round(points, 12))))
    if len(pts) < 3:
        return np.array(pts + pts[:1])

    def half(seq):
        out: list = []
        for p in seq:
            while len(out) >= 2:
                (ax, ay), (bx, by) = out[-2], out[-1]
                if (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax) > 0:
                    break
                out.pop()
            out.append(p)
        return out

    lower, upper = half(pts), half(pts[::-1])
    ring = lower[:-1] + upper[:-1]
    return np.array(ring + ring[:1])


def _outline(shape, T: np.ndarray) -> np.ndarray | None:
    """World points whose projection's hull is the shape's silhouette (None for planes)."""

    R, p = T[:3, :3], T[:3, 3]
    if isinstance(shape, geo.Box):
        return geo.box_vertices(T, shape.half_extents)
    if isinstance(shape, geo.Capsule):
        ends = p + np.outer([-shape.half_length, shape.half_length], R[:, 2])
        ball = shape.radius * np.stack(
            [np.cos(_CIRCLE), np.sin(_CIRCLE), np.zeros_like(_CIRCLE)], axis=1
        )
        sphere = np.concatenate([ball, ball[:, [0, 2, 1]], ball[:, [2, 0, 1]]])
        return np.concatenate([e + sphere for e in ends])
    if isinstance(shape, geo.Points):
        return shape.points @ R.T + p
    return None


def _shape_lines(ax, shape, T: np.ndarray, plane: str, color: str, span: float) -> list:
    """Draw one collider at world pose ``T``; returns its artists."""

    i, j = _PLANES[plane]
    R, p = T[:3, :3], T[:3, 3]
    if isinstance(shape, geo.Plane):
        n = R @ shape.normal
        foot = p + R @ (shape.offset * shape.normal)
        d2 = np.array([-n[j], n[i]])  # the plane's trace in the view is normal to n's projection
        if np.linalg.norm(d2) < 1e-12:
            return []  # the plane is the view plane itself: nothing to draw
        d2 = d2 / np.linalg.norm(d2)
        ends = foot[[i, j]] + np.outer([-span, span], d2)
        (line,) = ax.plot(ends[:, 0], ends[:, 1], color="k", lw=2.5)
        return [line]
    if isinstance(shape, geo.Sphere):
        r = shape.radius
        (rim,) = ax.plot(p[i] + r * np.cos(_CIRCLE), p[j] + r * np.sin(_CIRCLE), color=color, lw=2)
        spoke = np.stack([p, p + r * R[:, 0]])
        (line,) = ax.plot(spoke[:, i], spoke[:, j], color=color, lw=1)
        return [rim, line]
    pts = _outline(shape, T)
    if isinstance(shape, geo.Points):
        (line,) = ax.plot(pts[:, i], pts[:, j], "o-", color=color, lw=3, ms=5)
        return [line]
    ring = _hull(pts[:, [i, j]])
    (poly,) = ax.fill(ring[:, 0], ring[:, 1], color=color, alpha=0.35, lw=2, ec=color)
    return [poly]


def draw_scene(
    ax, scene, q, *, plane: str = "xz", color: str = "C0", span: float = 1.0, model: bool = True
) -> list:
    """Draw a contact scene at configuration ``q`` as a side view on a world plane.

    Parameters
    ----------
    ax : matplotlib Axes (2D)
    scene : spatial.contact.Scene
    q : array_like
        A configuration of the scene's system (joint positions of a tree, or the stack of 4x4
        frames of free bodies).
    plane : {"xy", "xz", "yz"}
        World plane of the view; ``"xz"`` looks along y at a floor with normal z.
    color : str
        Matplotlib colour of the bodies (the fixed world's shapes are black).
    span : float
        Half length (m) of the line that draws a plane.
    model : bool
        Also draw the tree's stick figure (:func:`~spatial.viz.draw_model`) when the system is
        a :class:`~spatial.model.Model`.

    Returns
    -------
    list of matplotlib artists

    Raises
    ------
    ValueError
        If ``plane`` is unknown or ``q`` is not a configuration of the scene.
    """

    _check_plane(plane)
    span = float(span)
    if not np.isfinite(span) or span <= 0:
        raise ValueError(f"span must be a positive number, got {span!r}")
    poses = scene.poses(q)
    artists = []
    if model and isinstance(scene.system, Model):
        artists += draw_model(ax, scene.system, q, plane=plane, color=color, com_size=0)
    for c in scene.colliders:
        T = poses[c.body] @ c.pose
        artists += _shape_lines(ax, c.shape, T, plane, "k" if c.body == 0 else color, span)
    ax.set_aspect("equal")
    return artists


def draw_contacts(ax, contacts, forces=None, *, plane: str = "xz", scale: float = 0.1) -> list:
    """Mark contact points and draw their normals (arrows ``scale`` m long, or scaled by force).

    Parameters
    ----------
    ax : matplotlib Axes (2D)
    contacts : spatial.contact.Contacts
    forces : array_like, shape (K,), optional
        Normal forces or impulses of the contacts; an arrow is then ``scale * force / max|force|``
        long, and contacts with zero force get no arrow.
    plane : {"xy", "xz", "yz"}
    scale : float
        Length (m) of the longest arrow.

    Returns
    -------
    list of matplotlib artists

    Raises
    ------
    ValueError
        If ``plane`` is unknown or ``forces`` does not have one entry per contact.
    """
    _check_plane(plane)
    i, j = _PLANES[plane]
    point, normal = np.asarray(contacts.point), np.asarray(contacts.normal)
    length = np.full(len(point), float(scale))
    if forces is not None:
        f = real_array(forces, "forces").ravel()
        if f.shape != (len(point),):
            raise ValueError(
                f"forces must have one entry per contact ({len(point)}), got {f.shape}"
            )
        top = np.abs(f).max()
        length = scale * (f / top if top > 0 else np.zeros_like(f))
    artists = list(ax.plot(point[:, i], point[:, j], "o", color="C3", ms=5, mfc="white"))
    for p, n, ell in zip(point, normal, length, strict=True):
        if abs(ell) > 1e-12:
            artists.append(
                ax.annotate(
                    "",
                    (p[i] + ell * n[i], p[j] + ell * n[j]),
                    (p[i], p[j]),
                    arrowprops={"arrowstyle": "->", "color": "C3", "lw": 1.8},
                )
            )
    return artists


def animate_scene(
    scene,
    qs,
    *,
    times=None,
    plane: str = "xz",
    limits=None,
    max_frames: int = 60,
    interval: int = 80,
    figsize: tuple = (5.0, 3.2),
    title: str = "",
    span: float = 1.0,
):
    """Animate a trajectory of a contact scene (a side view) as an offline HTML player.

    Parameters
    ----------
    scene : spatial.contact.Scene
    qs : sequence of configurations
        E.g. ``trajectory.q`` of :func:`spatial.contact.simulate`.
    times : array_like, shape (T,), optional
        Times of the configurations, shown in the title.
    plane : {"xy", "xz", "yz"}
    limits : tuple ``((x0, x1), (y0, y1))``, optional
        Axis limits (m) of the view; by default the motion's extent with a margin.
    max_frames : int
        At most this many evenly spaced configurations become frames.
    interval : int
        Delay between frames (ms).
    figsize : tuple
    title : str
        Title; the time is appended when ``times`` is given.
    span : float
        Half length (m) of the line that draws a plane.

    Returns
    -------
    IPython.display.HTML
        The player (:func:`~spatial.viz.animation_html`); the figure is closed.

    Raises
    ------
    ValueError
        If ``plane`` is unknown, ``qs`` is empty, ``times`` has the wrong length or
        ``max_frames < 1``.
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation

    _check_plane(plane)
    qs = list(qs)
    if not qs:
        raise ValueError("qs must hold at least one configuration")
    if times is not None and len(times) != len(qs):
        raise ValueError(f"times must have {len(qs)} entries, got {len(times)}")
    frames = frame_indices(len(qs), max_frames)
    fig, ax = plt.subplots(figsize=figsize, dpi=70)
    i, j = _PLANES[plane]
    if limits is None:
        centres = np.concatenate([scene.poses(qs[k])[1:, :3, 3] for k in frames])
        lo, hi = centres.min(axis=0) - 0.3, centres.max(axis=0) + 0.3
        limits = ((lo[i], hi[i]), (min(lo[j], -0.05), hi[j]))
    artists: list = []

    def show(k: int):
        for a in artists:
            a.remove()
        artists.clear()
        artists.extend(draw_scene(ax, scene, qs[frames[k]], plane=plane, span=span))
        ax.set(xlim=limits[0], ylim=limits[1])
        stamp = "" if times is None else f"  t = {float(times[frames[k]]):.2f} s"
        ax.set_title((title + stamp).strip())
        return artists

    ax.set_xlabel(f"{'xyz'[i]} (m)")
    ax.set_ylabel(f"{'xyz'[j]} (m)")
    animation = FuncAnimation(fig, show, frames=len(frames), interval=interval)
    html = animation_html(animation)
    plt.close(fig)
    return html
