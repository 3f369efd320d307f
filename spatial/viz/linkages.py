"""Drawings and animations of closed mechanisms: a spanning tree plus loop joints.

:func:`~spatial.viz.draw_model` draws a tree: each body from its joint to its children.  A
closed mechanism (Featherstone §4.1–4.2, ch. 8) also has *loop joints*, each fixed in two bodies
by the frames ``X_P`` (in its predecessor) and ``X_S`` (in its successor).  A linkage is drawn
here body by body, as the outline through the points where the body meets others: its own
joint, its children's tree joints (at ``X_T``) and the ends of the loop joints on it (at ``X_P``
or ``X_S``), plus any *marker* points asked for (a foot, a coupler point).  Two points make a
bar, three or more a plate (a closed polygon; points on one line stay a bar).  A body with no
other point on it (a pendulum) is drawn to its centre of mass, and a body that slides on a
moving body (a piston in its cylinder) gets the segment of its parent's guide up to it.

The points are placed in the world by the body poses (Featherstone Example 4.3), computed from a
configuration ``q`` of the tree or given directly as ``poses`` (``T_world,i`` of bodies
``1 … NB``, e.g. ``system.poses(state)``), so that the same drawing serves every formulation of
the mechanism: a tree, a REDMAX system or a maximal-coordinate system of the same model.

Pins are open circles, sliders (bodies on a joint that only translates) filled squares, the
points where the mechanism is fixed to the ground black triangles and markers stars.  When the
loops are closed, the two frames of each loop joint coincide and the drawing is closed; an open
loop shows as a gap.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from .._validate import integer, positive_scalar, vector
from ..inertia import inertia_params
from ..kinematics import body_poses
from ..model import Model
from ..vectors import unplux
from .models import _check_plane, _coords, _is_3d, _polyline
from .player import animation_html, frame_indices

__all__ = ["Linkage", "linkage", "draw_linkage", "animate_linkage"]

_SAME = 1e-9  # points of a body closer than this (m) are one point


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
    markers : ndarray, shape (..., M, 3)
        The marker points, in the order given.
    """

    segments: np.ndarray
    pins: np.ndarray
    sliders: np.ndarray
    ground: np.ndarray
    rails: list
    markers: np.ndarray


def _translates(joint) -> bool:
    """True for a joint whose motion has no rotation (prismatic, planar translation, ...)."""
    S = np.asarray(joint.motion_subspace(joint.neutral()))
    return joint.nv > 0 and np.abs(S[:3]).max() == 0


def _check_markers(model: Model, markers) -> list[tuple[int, np.ndarray]]:
    """``markers`` as pairs (body 1 … NB, point in its coordinates)."""
    if isinstance(markers, str | bytes) or not hasattr(markers, "__iter__"):
        raise ValueError(f"markers must be a sequence of pairs (body, point), got {markers!r}")
    out = []
    for k, item in enumerate(markers):
        if isinstance(item, str | bytes) or not hasattr(item, "__len__") or len(item) != 2:
            raise ValueError(f"markers[{k}] must be a pair (body, point), got {item!r}")
        body = integer(item[0], f"markers[{k}]'s body", minimum=1, maximum=model.NB)
        out.append((body, vector(item[1], f"markers[{k}]'s point", 3)))
    return out


def _world_poses(model: Model, q, poses) -> np.ndarray:
    """``T_0i`` of the base and bodies ``1 … NB``, shape (..., NB + 1, 4, 4), from ``q`` or
    from the poses of bodies ``1 … NB``."""
    if not isinstance(model, Model):
        raise ValueError(f"model must be a spatial.Model, got {model!r}")
    if (q is None) == (poses is None):
        raise ValueError("give the configuration q or the body poses (poses=...), not both")
    if q is not None:
        return body_poses(model, q)
    T = np.asarray(poses, dtype=float)
    if T.ndim < 3 or T.shape[-3:] != (model.NB, 4, 4) or not np.all(np.isfinite(T)):
        raise ValueError(
            f"poses must be finite, of shape (..., NB={model.NB}, 4, 4), got {T.shape}"
        )
    base = np.broadcast_to(np.eye(4), T.shape[:-3] + (1, 4, 4))
    return np.concatenate([base, T], -3)


def _outline(points: list[np.ndarray]) -> np.ndarray:
    """A body's distinct points in drawing order, shape (k, 3): along the line when they are on
    one line, else around their centre and back to the first (a closed polygon)."""
    distinct: list[np.ndarray] = []
    for p in points:
        if all(np.linalg.norm(p - d) > _SAME for d in distinct):
            distinct.append(p)
    P = np.array(distinct).reshape(-1, 3)
    if len(P) < 3:
        return P
    centred = P - P.mean(0)
    _, s, Vt = np.linalg.svd(centred)
    if s[1] <= 1e-9 * s[0]:  # on one line: from one end to the other
        return P[np.argsort(centred @ Vt[0])]
    order = np.argsort(np.arctan2(centred @ Vt[1], centred @ Vt[0]))
    return np.concatenate([P[order], P[order[:1]]])


def _linkage(model: Model, T: np.ndarray, marks: list) -> Linkage:
    """The drawing at the world poses ``T`` (..., NB + 1, 4, 4) of the base and the bodies."""

    def world(i, r):  # world positions of the points r (..., 3) of body i
        return np.einsum("...ij,...kj->...ki", T[..., i, :3, :3], r) + T[..., i, None, :3, 3]

    points: dict[int, list] = {i: [np.zeros(3)] for i in range(model.NB + 1)}
    for i in range(1, model.NB + 1):
        points[model.parent[i]].append(unplux(model.X_tree[i])[1])
    for lj in model.loop_joints:
        for body, X in ((lj.predecessor, lj.X_p), (lj.successor, lj.X_s)):
            points[body].append(unplux(X)[1])
    for body, r in marks:
        points[body].append(r)
    segments, pins, sliders = [], [], []
    for i in range(1, model.NB + 1):
        if len(points[i]) == 1 and model.inertia[i][3, 3] > 0:  # a pendulum: to its centre
            points[i].append(inertia_params(model.inertia[i])[1])
        outline = world(i, _outline(points[i]))  # (..., k, 3): k - 1 segments
        segments.append(np.stack([outline[..., :-1, :], outline[..., 1:, :]], -2))
        p = model.parent[i]
        if p > 0 and _translates(model.joints[i]):  # a piston: its parent's guide, up to it
            start = world(p, unplux(model.X_tree[i])[1][None])
            segments.append(np.stack([start, T[..., i, None, :3, 3]], -2))
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
                pins.append(world(body, unplux(X)[1][None])[..., 0, :])
    batch = T.shape[:-3]
    empty = np.zeros(batch + (0, 3))
    stack = lambda points: np.stack(points, -2) if points else empty  # noqa: E731
    return Linkage(
        segments=np.concatenate(segments, -3) if segments else np.zeros(batch + (0, 2, 3)),
        pins=stack(pins),
        sliders=stack(sliders),
        ground=np.array(ground).reshape(-1, 3),
        rails=rails,
        markers=stack([world(b, r[None])[..., 0, :] for b, r in marks]),
    )


def linkage(model: Model, q=None, *, poses=None, markers=()) -> Linkage:
    """World positions of the links, pins, sliders, ground points and markers of a mechanism.

    Parameters
    ----------
    model : Model
        A tree, with or without loop joints.
    q : array_like, shape (..., nq), optional
        The tree's configuration; or give ``poses``.
    poses : array_like, shape (..., NB, 4, 4), optional
        Instead of ``q``: the world frames of bodies ``1 … NB`` (row ``i - 1``), e.g.
        ``system.poses(state)`` of any formulation of ``model``.
    markers : sequence of (int, array_like (3,))
        Points ``(body, point in body coordinates)`` to mark; each also joins its body's
        outline.

    Returns
    -------
    Linkage
        With the batch shape of ``q`` (or of ``poses``).

    Raises
    ------
    ValueError
        If ``model`` is not a Model; if neither or both of ``q`` and ``poses`` are given; if
        ``q`` has the wrong shape or is not a valid configuration, ``poses`` is not finite and
        shaped ``(..., NB, 4, 4)`` or a marker is not a pair (body ``1 … NB``, 3-vector).
    """
    T = _world_poses(model, q, poses)
    return _linkage(model, T, _check_markers(model, markers))


def _points(lk: Linkage) -> list[np.ndarray]:
    """Points of the four moving artists: links (one polyline), pins, sliders, markers."""
    return [
        _polyline(lk.segments.reshape(-1, 2, 3)),
        lk.pins.reshape(-1, 3),
        lk.sliders.reshape(-1, 3),
        lk.markers.reshape(-1, 3),
    ]


def _frame(lk: Linkage, k: int) -> Linkage:
    """Frame ``k`` of the drawing of a motion."""
    return Linkage(lk.segments[k], lk.pins[k], lk.sliders[k], lk.ground, lk.rails, lk.markers[k])


def _draw(ax, lk: Linkage, plane, color, alpha, lw, label, ground, markers, ls="-") -> list:
    """Artists ``[links, pins, sliders]``, then ground (if ``ground``), markers (if any)."""
    links, pins, sliders, marked = _points(lk)
    artists = ax.plot(*_coords(ax, links, plane), ls, color=color, alpha=alpha, lw=lw, label=label)
    artists += ax.plot(
        *_coords(ax, pins, plane), "o", ls="", color=color, alpha=alpha, ms=2.2 * lw, mfc="white"
    )
    artists += ax.plot(
        *_coords(ax, sliders, plane), "s", ls="", color=color, alpha=alpha, ms=4 * lw
    )
    if ground and len(lk.ground):
        artists += ax.plot(*_coords(ax, lk.ground, plane), "k^", ls="", ms=10)
    if markers:
        artists += ax.plot(*_coords(ax, marked, plane), "*", ls="", color="C3", ms=4 * lw)
    if not _is_3d(ax):
        ax.set_aspect("equal")
    return artists


def draw_linkage(
    ax,
    model: Model,
    q=None,
    *,
    poses=None,
    markers=(),
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
    q : array_like, shape (nq,) or (..., nq), optional
        One configuration, or a batch drawn on top of each other; or give ``poses``.
    poses : array_like, shape (NB, 4, 4) or (..., NB, 4, 4), optional
        Instead of ``q``: the world frames of bodies ``1 … NB`` (:func:`linkage`).
    markers : sequence of (int, array_like (3,))
        Points ``(body, point in body coordinates)`` drawn as red stars (:func:`linkage`).
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
        ``[links, pins, sliders]`` (each one line artist, to update for an animation), then,
        with ``ground``, the ground markers, and, with ``markers``, the marker points.

    Raises
    ------
    ValueError
        If ``plane`` is unknown or ``lw`` not positive, or as :func:`linkage`.
    """
    _check_plane(plane)
    lw = positive_scalar(lw, "lw")
    lk = linkage(model, q, poses=poses, markers=markers)
    return _draw(ax, lk, plane, color, alpha, lw, label, ground, lk.markers.shape[-2] > 0)


def _motions(model: Model, qs, poses, markers) -> tuple[list[Linkage], list[np.ndarray]]:
    """The drawings and the world poses of one motion or of a list of motions."""
    if (qs is None) == (poses is None):
        raise ValueError("give the configurations qs or the body poses (poses=...), not both")
    given, ndim, name = (qs, 2, "qs") if poses is None else (poses, 4, "poses")
    many = isinstance(given, list | tuple) and len(given) and np.ndim(given[0]) == ndim
    motions = [np.asarray(m, dtype=float) for m in (given if many else [given])]
    if any(m.ndim != ndim for m in motions) or len({len(m) for m in motions}) != 1:
        shape = "(T, nq)" if poses is None else "(T, NB, 4, 4)"
        raise ValueError(f"{name} must have shape {shape}, or be a list of such motions of the "
                         f"same T frames, got shapes {[m.shape for m in motions]}")  # fmt: skip
    marks = _check_markers(model, markers)
    T = [_world_poses(model, m, None) if poses is None else _world_poses(model, None, m)
         for m in motions]  # fmt: skip
    return [_linkage(model, t, marks) for t in T], T


def animate_linkage(
    model: Model,
    qs=None,
    *,
    poses=None,
    markers=(),
    labels=None,
    trace: bool = True,
    times=None,
    plane: str = "xy",
    title: str = "",
    figsize: tuple = (5.0, 4.0),
    dpi: int = 70,
    interval: int = 80,
    max_frames: int = 60,
    margin: float = 0.1,
):
    """Animate a trajectory of a mechanism with loop joints, as an offline HTML player.

    The view is fixed to the extent of the whole motion (plus ``margin``), with equal scales;
    a translating joint on the base gets a grey rail along its axis over the range it travels.
    Several motions of the same mechanism (e.g. computed by three formulations) are overlaid in
    the colours C0, C1, … and the line styles solid, dashed, dotted, … (so that motions that
    coincide stay distinguishable), with their ``labels`` in a legend outside the axes, to the
    right.

    Parameters
    ----------
    model : Model
    qs : array_like, shape (T, nq), or a list of them, optional
        Configurations over time; or give ``poses``.
    poses : array_like, shape (T, NB, 4, 4), or a list of them, optional
        Instead of ``qs``: the world frames of bodies ``1 … NB`` over time (:func:`linkage`).
    markers : sequence of (int, array_like (3,))
        Points ``(body, point in body coordinates)`` drawn as red stars.
    labels : sequence of str, optional
        One legend entry per motion.
    trace : bool
        With ``markers``, draw the path of the first marker (of the first motion) so far.
    times : array_like, shape (T,), optional
        Times of the frames, shown in the title.
    plane : {"xy", "xz", "yz"}
        Projection plane.
    title : str
        Title; the time is appended when ``times`` is given.
    figsize : tuple
        Figure size in inches (a legend outside the axes takes part of its width).
    dpi : int
        Pixels per inch of the frames (``figsize`` times ``dpi`` is the frame size), > 0.
    interval : int
        Delay between frames in milliseconds.
    max_frames : int
        At most this many evenly spaced frames of the motion are shown (≥ 1).
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
        If ``qs`` (or ``poses``) is not a motion or a list of motions of the same length,
        ``labels`` does not give one label per motion, ``times`` has the wrong length,
        ``plane`` is unknown, ``max_frames < 1``, ``dpi`` or ``margin`` is not positive; or as
        :func:`linkage`.
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation

    _check_plane(plane)
    margin = positive_scalar(margin, "margin")
    dpi = positive_scalar(dpi, "dpi")
    drawings, T = _motions(model, qs, poses, markers)  # validates; the extent of every motion
    n, marked = len(T[0]), drawings[0].markers.shape[-2] > 0
    if labels is not None and len(labels) != len(drawings):
        raise ValueError(f"labels must give one label per motion ({len(drawings)})")
    if times is not None and np.shape(times) != (n,):
        raise ValueError(f"times must have shape ({n},), got {np.shape(times)}")
    frames = frame_indices(n, max_frames)

    def stamp(k):  # the title's time
        return "" if times is None else f"  t = {float(np.asarray(times)[k]):.2f} s"

    fig, ax = plt.subplots(figsize=figsize, dpi=dpi)
    for body, start, axis in drawings[0].rails:
        travel = np.concatenate([(t[:, body, :3, 3] - start) @ axis for t in T])
        ends = start + np.outer([min(0.0, travel.min()), travel.max()], axis)
        ends += np.outer([-2 * margin, 2 * margin], axis)
        ax.plot(*_coords(ax, ends, plane), color="0.6", lw=1.5)
    drawn = []
    for k, lk in enumerate(drawings):
        label = None if labels is None else labels[k]
        lw = 3.0 - 0.75 * min(k, 2)  # later motions thinner, over the first
        ls = ("-", "--", ":", "-.")[k % 4]
        first = _frame(lk, frames[0])
        drawn.append(_draw(ax, first, plane, f"C{k}", 1.0, lw, label, k == 0, marked, ls))
    trail = None
    if trace and marked:
        (trail,) = ax.plot([], [], "C3-", lw=1, label="path of the marker")
    if labels is not None or trail is not None:
        ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), fontsize=8, borderaxespad=0.0)
    ax.set_title(title + stamp(frames[0]))
    everything = [lk.segments.reshape(-1, 3) for lk in drawings] + [drawings[0].ground]
    everything += [lk.markers.reshape(-1, 3) for lk in drawings]
    x, y = _coords(ax, np.concatenate(everything), plane)
    ax.set(xlim=(x.min() - margin, x.max() + margin), ylim=(y.min() - margin, y.max() + margin))
    ax.set_xlabel(f"{plane[0]} (m)")
    ax.set_ylabel(f"{plane[1]} (m)")
    with warnings.catch_warnings():  # a figure too small for the legend keeps its margins
        warnings.filterwarnings("ignore", "Tight layout not applied", UserWarning)
        fig.tight_layout()

    def show(k):
        moving = []
        for artists, lk in zip(drawn, drawings, strict=True):
            targets = artists[:3] + artists[-1:] if marked else artists[:3]
            for artist, points in zip(targets, _points(_frame(lk, k))[: len(targets)], strict=True):
                artist.set_data(*_coords(ax, points, plane))
            moving += targets
        if trail is not None:
            trail.set_data(*_coords(ax, drawings[0].markers[: k + 1, 0], plane))
            moving.append(trail)
        ax.set_title(title + stamp(k))
        return moving

    animation = FuncAnimation(fig, show, frames=frames, interval=interval)
    player = animation_html(animation)
    plt.close(fig)
    return player
