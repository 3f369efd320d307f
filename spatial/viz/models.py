"""Stick-figure drawings and animations of kinematic trees (planar projections or 3D).

A tree is drawn from the world positions of three kinds of points, all taken from the model's
own transforms (:func:`spatial.body_poses`, i.e. ``X_J X_T`` chained from the base, Featherstone
Example 4.3):

* the **joints**: the origin of each body's frame, where its joint's successor frame sits;
* the **attachments**: the origin of each joint's predecessor frame, fixed in the parent
  (``X_T(i)``); it coincides with the joint for revolute and spherical joints and is where a
  prismatic or free joint slides from;
* the **centres of mass** of the bodies that have mass.

The skeleton joins each attachment to its joint, each joint to the attachments of its children,
and each leaf's joint to its centre of mass.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import real_array
from ..inertia import inertia_params
from ..kinematics import body_poses
from ..model import Model
from ..vectors import unplux
from .frames import cube_axes
from .player import animation_html, frame_indices

__all__ = ["Skeleton", "skeleton", "draw_model", "animate"]

_PLANES = {"xy": (0, 1), "xz": (0, 2), "yz": (1, 2)}


@dataclass(frozen=True)
class Skeleton:
    """World positions of a stick figure (see :func:`skeleton`).

    Attributes
    ----------
    segments : ndarray, shape (..., K, 2, 3)
        Start and end point of each line segment.
    joints : ndarray, shape (..., NB + 1, 3)
        Origin of every body frame; row 0 is the base origin.
    coms : ndarray, shape (..., NB + 1, 3)
        Centre of mass of every body (NaN for massless bodies and for the base, row 0).
    """

    segments: np.ndarray
    joints: np.ndarray
    coms: np.ndarray


def skeleton(model: Model, q) -> Skeleton:
    """World positions of the joints, centres of mass and stick-figure segments of a tree.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)

    Returns
    -------
    Skeleton
        With the batch shape of ``q``.

    Raises
    ------
    ValueError
        If ``q`` has the wrong shape or is not a valid configuration.
    """
    T = body_poses(model, q)  # T_0i: body i → world
    R, o = T[..., :3, :3], T[..., :3, 3]
    nan = np.full(o.shape[:-2] + (3,), np.nan)
    coms, attachments, segments = [nan], [], []
    for i in range(1, model.NB + 1):
        p = model.parent[i]
        r_T = unplux(model.X_tree[i])[1]  # predecessor frame of joint i, in parent coordinates
        attachments.append((R[..., p, :, :] @ r_T) + o[..., p, :])
        segments.append((attachments[-1], o[..., i, :]))
        if model.inertia[i][3, 3] > 0:
            c = inertia_params(model.inertia[i])[1]
            coms.append((R[..., i, :, :] @ c) + o[..., i, :])
        else:
            coms.append(nan)
    for i in range(1, model.NB + 1):
        children = model.children(i)
        ends = [attachments[k - 1] for k in children] or [coms[i]]
        segments.extend((o[..., i, :], end) for end in ends)
    segments = np.stack([np.stack(s, -2) for s in segments], -3)
    return Skeleton(segments=segments, joints=o, coms=np.stack(coms, -2))


def _is_3d(ax) -> bool:
    return getattr(ax, "name", "") == "3d"


def _polyline(segments: np.ndarray) -> np.ndarray:
    """Segments (K, 2, 3) as one polyline (3K, 3) with NaN breaks, for a single artist."""
    breaks = np.full(segments.shape[:-2] + (1, 3), np.nan)
    return np.concatenate([segments, breaks], -2).reshape(-1, 3)


def _coords(ax, points: np.ndarray, plane: str) -> list[np.ndarray]:
    """The coordinates to plot: all three on 3D axes, the plane's two otherwise."""
    axes = (0, 1, 2) if _is_3d(ax) else _PLANES[plane]
    return [points[..., k] for k in axes]


def _figure_points(sk: Skeleton) -> list[np.ndarray]:
    """Points of the three artists of a stick figure: links (as a polyline), joints, centres."""
    return [
        _polyline(sk.segments.reshape(-1, 2, 3)),
        sk.joints[..., 1:, :].reshape(-1, 3),
        sk.coms[..., 1:, :].reshape(-1, 3),
    ]


def _check_plane(plane: str) -> None:
    if plane not in _PLANES:
        raise ValueError(f"plane must be one of {sorted(_PLANES)}, got {plane!r}")


def draw_model(
    ax,
    model: Model,
    q,
    *,
    plane: str = "xy",
    color: str = "C0",
    alpha: float = 1.0,
    lw: float = 2.5,
    com_size: float = 8.0,
) -> list:
    """Draw a tree as a stick figure: links, joints (open circles) and centres of mass (dots).

    Parameters
    ----------
    ax : matplotlib Axes or Axes3D
        On 3D axes the figure is drawn in 3D; on 2D axes it is projected onto ``plane``.
    model : Model
    q : array_like, shape (nq,) or (..., nq)
        One configuration, or a batch drawn on top of each other (use a small ``alpha``).
    plane : {"xy", "xz", "yz"}
        World plane of a 2D drawing (the planar builders move in "xy").
    color : str
        Matplotlib colour of the whole figure.
    alpha : float
        Opacity.
    lw : float
        Line width of the links.
    com_size : float
        Marker size of the centres of mass (0 hides them).

    Returns
    -------
    list of matplotlib artists
        ``[links, joints, coms]``, each a single line artist covering the whole batch (update
        them with ``set_data``/``set_data_3d`` to animate).

    Raises
    ------
    ValueError
        If ``plane`` is unknown or ``q`` is invalid.
    """
    _check_plane(plane)
    links, joints, coms = _figure_points(skeleton(model, q))
    style = dict(color=color, alpha=alpha, ls="")
    (links_artist,) = ax.plot(
        *_coords(ax, links, plane), color=color, alpha=alpha, lw=lw, solid_capstyle="round"
    )
    (joints_artist,) = ax.plot(
        *_coords(ax, joints, plane), "o", ms=2 * lw, mfc="white", mew=1.5, **style
    )
    (coms_artist,) = ax.plot(*_coords(ax, coms, plane), "o", ms=com_size, **style)
    return [links_artist, joints_artist, coms_artist]


def _update(ax, artists: list, sk: Skeleton, plane: str) -> None:
    """Move the artists of :func:`draw_model` to the stick figure ``sk``."""
    for artist, points in zip(artists, _figure_points(sk), strict=True):
        xyz = _coords(ax, points, plane)
        if _is_3d(ax):
            artist.set_data_3d(*xyz)
        else:
            artist.set_data(*xyz)


def _trail(sk: Skeleton, body: int, t: int) -> np.ndarray:
    """Path of ``body``'s centre of mass up to frame ``t``, one polyline per batch member."""
    path = np.moveaxis(sk.coms[: t + 1, ..., body, :], 0, -2)  # (..., t + 1, 3)
    return _polyline(path[..., None, :, :]) if path.ndim > 2 else path


def animate(
    model: Model,
    qs,
    *,
    times=None,
    plane: str = "xy",
    three_d: bool = False,
    max_frames: int = 60,
    interval: int = 80,
    figsize: tuple = (4.5, 4.5),
    title: str = "",
    trace: int | None = None,
):
    """Animate a trajectory of a tree as a stick figure, as an HTML/JavaScript player.

    Parameters
    ----------
    model : Model
    qs : array_like, shape (T, nq) or (T, ..., nq)
        Configurations over time; extra batch dimensions draw several copies at once.
    times : array_like, shape (T,), optional
        Times of the rows of ``qs``, shown in the title.
    plane : {"xy", "xz", "yz"}
        Projection plane of a 2D animation.
    three_d : bool
        Draw on 3D axes instead.
    max_frames : int
        At most this many evenly spaced rows of ``qs`` become frames.
    interval : int
        Delay between frames in milliseconds.
    figsize : tuple
        Figure size in inches.
    title : str
        Title; the time is appended when ``times`` is given.
    trace : int, optional
        Body number whose centre of mass leaves a trail.

    Returns
    -------
    IPython.display.HTML
        The animation as matplotlib's JavaScript player, made to work offline by
        :func:`~spatial.viz.animation_html`; the figure is closed.  Needs IPython (installed
        with the ``notebooks`` extra).

    Raises
    ------
    ValueError
        If ``qs`` is not a sequence of configurations, ``times`` has the wrong length,
        ``plane`` or ``trace`` is invalid, or ``max_frames < 1``.
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation

    _check_plane(plane)
    qs = real_array(qs, "qs")
    if qs.ndim < 2:
        raise ValueError(f"qs must have shape (T, ..., nq) with T frames, got {qs.shape}")
    if times is not None and np.shape(times) != qs.shape[:1]:
        raise ValueError(f"times must have shape ({len(qs)},), got {np.shape(times)}")
    if trace is not None and not 1 <= trace <= model.NB:
        raise ValueError(f"trace must be a body number in 1 … {model.NB}, got {trace!r}")
    frames = frame_indices(len(qs), max_frames)
    sk = skeleton(model, qs)  # validates qs and gives the extent of the motion

    fig = plt.figure(figsize=figsize, dpi=70)
    ax = fig.add_subplot(projection="3d" if three_d else None)
    points = np.concatenate([sk.segments.reshape(-1, 3), sk.coms.reshape(-1, 3)])
    lo, hi = np.nanmin(points, axis=0), np.nanmax(points, axis=0)
    centre, half = (lo + hi) / 2, 0.55 * (hi - lo).max() + 1e-9
    if three_d:  # one scale on the three axes, a few round ticks so that labels do not collide
        cube_axes(ax, centre, half)
    else:
        for axis, k in zip("xy", _PLANES[plane], strict=True):
            getattr(ax, f"set_{axis}lim")(centre[k] - half, centre[k] + half)
            getattr(ax, f"set_{axis}label")(f"{'xyz'[k]} (m)")
        ax.set_aspect("equal")
        # keep the axis labels inside the figure, with room for the title
        ax.set_title(f"{title}  t = 0.00 s" if times is not None else title)
        fig.tight_layout()
    artists = draw_model(ax, model, qs[frames[0]], plane=plane)
    trail = None
    if trace is not None:
        (trail,) = ax.plot(*_coords(ax, _trail(sk, trace, 0), plane), "C1-", lw=1)

    def show(k: int):
        t = frames[k]
        _update(ax, artists, Skeleton(sk.segments[t], sk.joints[t], sk.coms[t]), plane)
        if trail is not None:
            path = _coords(ax, _trail(sk, trace, t), plane)
            if three_d:
                trail.set_data_3d(*path)
            else:
                trail.set_data(*path)
        if times is not None:
            ax.set_title(f"{title}  t = {float(np.asarray(times)[t]):.2f} s".strip())
        else:
            ax.set_title(title)
        return artists if trail is None else [*artists, trail]

    animation = FuncAnimation(fig, show, frames=len(frames), interval=interval)
    html = animation_html(animation)
    plt.close(fig)
    return html
