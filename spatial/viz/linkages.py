"""Drawings and animations of closed mechanisms: a spanning tree plus loop joints.

:func:`~spatial.viz.draw_model` draws a tree: each body from its joint to its children.  A
closed mechanism (Featherstone §4.1–4.2, ch. 8) also has *loop joints*, each fixed in two bodies
by the frames ``X_P`` (in its predecessor) and ``X_S`` (in its successor).  A linkage is drawn
here as its links: each body is the set of segments from its own joint to every other joint on
it (its children's tree joints, at ``X_T``, and its loop joints, at ``X_P`` or ``X_S``), all
placed in the world by the body poses (Featherstone Example 4.3).  A body with no other joint
on it (a pendulum) is drawn to its centre of mass, and a body that slides on a moving body (a
piston in its cylinder) gets the segment of its parent's guide up to it.

Pins are open circles, sliders (bodies on a joint that only translates) filled squares, the
points where the mechanism is fixed to the ground black triangles.  When the loops are closed,
the two frames of each loop joint coincide and the drawing is a closed polygon; an open loop
shows as a gap.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import positive_scalar
from ..inertia import inertia_params
from ..kinematics import body_poses
from ..model import Model
from ..vectors import unplux
from .models import _check_plane, _coords, _is_3d, _polyline
from .player import animation_html

__all__ = ["Linkage", "linkage", "draw_linkage", "animate_linkage"]


@dataclass(frozen=True)
class Linkage:
    """World positions of a linkage drawing (see :func:`linkage`).

    Attributes
    ----------
    segments : ndarray, shape (..., K, 2, 3)
        The links: start and end of each segment.
    pins : ndarray, shape (..., P, 3)
        Joints that turn: the origins of the bodies on such joints and both frames of every loop
        joint (they coincide on a closed loop).
    sliders : ndarray, shape (..., L, 3)
        Origins of the bodies on joints that only translate.
    ground : ndarray, shape (G, 3)
        Where joints meet the base (fixed, so without batch dimensions).
    rails : list of (int, ndarray (3,), ndarray (3,))
        For each translating joint on the base: its body, the point where it is fixed and its
        unit axis, both in world coordinates.
    """

    segments: np.ndarray
    pins: np.ndarray
    sliders: np.ndarray
    ground: np.ndarray
    rails: list


def _translates(joint) -> bool:
    """True for a joint whose motion has no rotation (prismatic, planar translation, ...)."""
    S = np.asarray(joint.motion_subspace(joint.neutral()))
    return joint.nv > 0 and np.abs(S[:3]).max() == 0


def linkage(model: Model, q) -> Linkage:
    """World positions of the links, pins, sliders and ground points of a closed mechanism.

    Parameters
    ----------
    model : Model
        A tree, with or without loop joints.
    q : array_like, shape (..., nq)

    Returns
    -------
    Linkage
        With the batch shape of ``q``.

    Raises
    ------
    ValueError
        If ``q`` has the wrong shape or is not a valid configuration.
    """
    T = body_poses(model, q)  # T_0i: body i → world

    def world(i, r):  # world position of the point r (body i coordinates)
        return T[..., i, :3, :3] @ r + T[..., i, :3, 3]

    segments, pins, sliders = [], [], []
    for i in range(1, model.NB + 1):
        ends = [world(i, unplux(model.X_tree[j])[1]) for j in model.children(i)]
        for lj in model.loop_joints:
            for body, X in ((lj.predecessor, lj.X_p), (lj.successor, lj.X_s)):
                if body == i:
                    ends.append(world(i, unplux(X)[1]))
        if not ends and model.inertia[i][3, 3] > 0:
            ends.append(world(i, inertia_params(model.inertia[i])[1]))
        segments += [np.stack([T[..., i, :3, 3], end], -2) for end in ends]
        p = model.parent[i]
        if p > 0 and _translates(model.joints[i]):  # a piston: its parent's guide, up to it
            start = world(p, unplux(model.X_tree[i])[1])
            segments.append(np.stack([start, T[..., i, :3, 3]], -2))
        (sliders if _translates(model.joints[i]) else pins).append(T[..., i, :3, 3])
    ground, rails = [], []
    for i in model.children(0):
        r = unplux(model.X_tree[i])[1]
        ground.append(r)
        if _translates(model.joints[i]) and model.joints[i].nv == 1:
            S = model.joints[i].motion_subspace(model.joints[i].neutral())
            E = unplux(model.X_tree[i])[0]  # F_p's axes are the rows of E in base coordinates
            rails.append((i, r, E.T @ S[3:, 0]))
    for lj in model.loop_joints:
        for body, X in ((lj.predecessor, lj.X_p), (lj.successor, lj.X_s)):
            if body == 0:
                ground.append(unplux(X)[1])
            else:
                pins.append(world(body, unplux(X)[1]))
    batch = T.shape[:-3]
    empty = np.zeros(batch + (0, 3))
    stack = lambda points: np.stack(points, -2) if points else empty  # noqa: E731
    return Linkage(
        segments=np.stack(segments, -3) if segments else np.zeros(batch + (0, 2, 3)),
        pins=stack(pins),
        sliders=stack(sliders),
        ground=np.array(ground).reshape(-1, 3),
        rails=rails,
    )


def _points(lk: Linkage) -> list[np.ndarray]:
    """Points of the three moving artists: links (one polyline), pins, sliders."""
    return [
        _polyline(lk.segments.reshape(-1, 2, 3)),
        lk.pins.reshape(-1, 3),
        lk.sliders.reshape(-1, 3),
    ]


def draw_linkage(
    ax,
    model: Model,
    q,
    *,
    plane: str = "xy",
    color: str = "C0",
    alpha: float = 1.0,
    lw: float = 3.0,
    label: str | None = None,
    ground: bool = True,
) -> list:
    """Draw a mechanism with loop joints: links, pins (open circles), sliders and ground.

    Parameters
    ----------
    ax : matplotlib Axes or Axes3D
        On 3D axes the drawing is 3D; on 2D axes it is projected onto ``plane`` (with equal
        scales).
    model : Model
    q : array_like, shape (nq,) or (..., nq)
        One configuration, or a batch drawn on top of each other.
    plane : {"xy", "xz", "yz"}
        World plane of a 2D drawing (the planar builders move in "xy").
    color : str
        Matplotlib colour of the links.
    alpha : float
        Opacity.
    lw : float
        Line width of the links (> 0).
    label : str, optional
        Legend entry of the links.
    ground : bool
        Mark the points fixed to the base (black triangles).

    Returns
    -------
    list of matplotlib artists
        ``[links, pins, sliders]`` (each one line artist, to update for an animation) and, with
        ``ground``, the ground markers.

    Raises
    ------
    ValueError
        If ``plane`` is unknown, ``lw`` not positive or ``q`` invalid.
    """
    _check_plane(plane)
    lw = positive_scalar(lw, "lw")
    lk = linkage(model, q)
    links, pins, sliders = _points(lk)
    artists = ax.plot(*_coords(ax, links, plane), "-", color=color, alpha=alpha, lw=lw, label=label)
    artists += ax.plot(
        *_coords(ax, pins, plane), "o", ls="", color=color, alpha=alpha, ms=2.2 * lw, mfc="white"
    )
    artists += ax.plot(
        *_coords(ax, sliders, plane), "s", ls="", color=color, alpha=alpha, ms=4 * lw
    )
    if ground and len(lk.ground):
        artists += ax.plot(*_coords(ax, lk.ground, plane), "k^", ls="", ms=10)
    if not _is_3d(ax):
        ax.set_aspect("equal")
    return artists


def animate_linkage(
    model: Model,
    qs,
    *,
    times=None,
    plane: str = "xy",
    title: str = "",
    figsize: tuple = (5.0, 4.0),
    interval: int = 80,
    max_frames: int = 60,
    margin: float = 0.1,
):
    """Animate a trajectory of a mechanism with loop joints, as an offline HTML player.

    The view is fixed to the extent of the whole motion (plus ``margin``), with equal scales;
    a translating joint on the base gets a grey rail along its axis over the range it travels.

    Parameters
    ----------
    model : Model
    qs : array_like, shape (T, nq)
        Configurations over time.
    times : array_like, shape (T,), optional
        Times of the rows of ``qs``, shown in the title.
    plane : {"xy", "xz", "yz"}
        Projection plane.
    title : str
        Title; the time is appended when ``times`` is given.
    figsize : tuple
        Figure size in inches.
    interval : int
        Delay between frames in milliseconds.
    max_frames : int
        At most this many evenly spaced rows of ``qs`` become frames (≥ 1).
    margin : float
        Space around the motion (m), > 0.

    Returns
    -------
    IPython.display.HTML
        Matplotlib's JavaScript player, made to work offline by
        :func:`~spatial.viz.animation_html`; the figure is closed.

    Raises
    ------
    ValueError
        If ``qs`` is not a sequence of configurations, ``times`` has the wrong length,
        ``plane`` is unknown, ``max_frames < 1`` or ``margin`` is not positive.
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation

    _check_plane(plane)
    margin = positive_scalar(margin, "margin")
    qs = np.asarray(qs, dtype=float)
    if qs.ndim != 2:
        raise ValueError(f"qs must have shape (T, nq) with T frames, got {qs.shape}")
    if times is not None and np.shape(times) != qs.shape[:1]:
        raise ValueError(f"times must have shape ({len(qs)},), got {np.shape(times)}")
    if max_frames < 1:
        raise ValueError(f"max_frames must be ≥ 1, got {max_frames!r}")
    frames = np.unique(np.linspace(0, len(qs) - 1, min(max_frames, len(qs))).round().astype(int))
    lk = linkage(model, qs)  # validates qs; the extent of the whole motion
    fig, ax = plt.subplots(figsize=figsize, dpi=70)
    origins = body_poses(model, qs)[..., :3, 3]  # (T, NB + 1, 3)
    for body, start, axis in lk.rails:
        travel = (origins[:, body] - start) @ axis
        ends = start + np.outer([min(0.0, travel.min()), travel.max()], axis)
        ends += np.outer([-2 * margin, 2 * margin], axis)
        ax.plot(*_coords(ax, ends, plane), color="0.6", lw=1.5)
    artists = draw_linkage(ax, model, qs[frames[0]], plane=plane)
    ax.set_title(title + (f"  t = {times[frames[0]]:.2f} s" if times is not None else ""))
    everything = np.concatenate([lk.segments.reshape(-1, 3), lk.ground.reshape(-1, 3)])
    x, y = _coords(ax, everything, plane)
    ax.set(xlim=(x.min() - margin, x.max() + margin), ylim=(y.min() - margin, y.max() + margin))
    ax.set_xlabel(f"{plane[0]} (m)")
    ax.set_ylabel(f"{plane[1]} (m)")
    fig.tight_layout()

    def show(k):
        one = Linkage(lk.segments[k], lk.pins[k], lk.sliders[k], lk.ground, lk.rails)
        for artist, points in zip(artists[:3], _points(one), strict=True):
            artist.set_data(*_coords(ax, points, plane))
        ax.set_title(title + (f"  t = {times[k]:.2f} s" if times is not None else ""))
        return artists[:3]

    animation = FuncAnimation(fig, show, frames=frames, interval=interval)
    player = animation_html(animation)
    plt.close(fig)
    return player
