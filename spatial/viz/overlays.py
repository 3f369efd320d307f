"""Overlays on the stick figures of :mod:`spatial.viz.models`: vectors drawn as arrows, and a
motion drawn as a row of poses shaded from light (first) to dark (last).

Both work on ordinary 2D axes, where a planar mechanism is drawn in one world plane
(``"xy"`` for the planar builders).  :func:`draw_arrows` keeps the arrow tips inside the axes'
data limits (``quiver`` alone does not), so a figure of velocities or forces never cuts an
arrow off.
"""

from __future__ import annotations

import numpy as np

from .._validate import as_array, positive_scalar
from ..model import Model
from .models import (
    _PLANES,
    Skeleton,
    _check_plane,
    _coords,
    _is_3d,
    _trail,
    _update,
    draw_model,
    skeleton,
)
from .player import animation_html, frame_indices

__all__ = ["animate_members", "draw_arrows", "draw_poses"]


def _plane_coordinates(points: np.ndarray, plane: str, name: str) -> np.ndarray:
    """Points of shape (K, 2) as given, or (K, 3) projected onto ``plane``."""
    if points.ndim != 2 or points.shape[-1] not in (2, 3):
        raise ValueError(
            f"{name} must have shape (K, 2) or (K, 3) (one row per arrow), got {points.shape}"
        )
    return points if points.shape[-1] == 2 else points[:, list(_PLANES[plane])]


def draw_arrows(
    ax,
    tails,
    vectors,
    *,
    scale: float = 1.0,
    plane: str = "xy",
    color: str = "C0",
    width: float = 0.008,
    label: str | None = None,
    zorder: float = 4.0,
):
    """Draw vectors (velocities, accelerations, forces) as arrows starting at points.

    An arrow is ``vector / scale`` long in data units: with positions in metres and forces in
    newtons, ``scale = 150`` draws 150 N as 1 m of arrow.  The data limits are extended to
    every tail and tip, so autoscaled axes show whole arrows.

    Parameters
    ----------
    ax : matplotlib Axes
        2D axes (for a 3D scene, draw the vectors with ``ax.quiver`` directly).
    tails : array_like, shape (K, 2) or (K, 3)
        Where the arrows start; 3D points are projected onto ``plane``.
    vectors : array_like, shape (K, 2) or (K, 3)
        The vectors, in the units that ``scale`` converts to data units.
    scale : float
        Vector units per data unit of arrow length, > 0.
    plane : {"xy", "xz", "yz"}
        World plane of 3D points and vectors.
    color : str
    width : float
        Shaft width as a fraction of the axes' width (matplotlib's ``quiver``).
    label : str, optional
        Legend entry (one for all the arrows).
    zorder : float

    Returns
    -------
    matplotlib.quiver.Quiver

    Raises
    ------
    ValueError
        If ``ax`` is a 3D axes, ``plane`` is unknown, ``scale`` is not positive, or ``tails``
        and ``vectors`` are not finite arrays of matching shape (K, 2) or (K, 3).
    """
    if _is_3d(ax):
        raise ValueError("draw_arrows draws on 2D axes; use ax.quiver on 3D axes")
    _check_plane(plane)
    scale = positive_scalar(scale, "scale")
    tails = np.atleast_2d(as_array(tails, "tails", ()))
    vectors = np.atleast_2d(as_array(vectors, "vectors", ()))
    if tails.shape != vectors.shape:
        raise ValueError(
            f"tails and vectors must have the same shape, got {tails.shape} and {vectors.shape}"
        )
    tails = _plane_coordinates(tails, plane, "tails")
    vectors = _plane_coordinates(vectors, plane, "vectors")
    arrows = ax.quiver(
        tails[:, 0],
        tails[:, 1],
        vectors[:, 0],
        vectors[:, 1],
        angles="xy",
        scale_units="xy",
        scale=scale,
        color=color,
        width=width,
        label=label,
        zorder=zorder,
    )
    ax.update_datalim(np.concatenate([tails, tails + vectors / scale]))
    ax.autoscale_view()
    return arrows


def draw_poses(
    ax,
    model: Model,
    qs,
    *,
    plane: str = "xy",
    lightest: float = 0.8,
    darkest: float = 0.1,
    lw: float = 2.0,
    com_size: float = 6.0,
) -> list[list]:
    """Draw a motion as a row of poses, grey from light (the first) to dark (the last).

    Parameters
    ----------
    ax : matplotlib Axes or Axes3D
    model : Model
    qs : array_like, shape (K, nq)
        The configurations, in the order of the motion.
    plane : {"xy", "xz", "yz"}
        World plane of a 2D drawing.
    lightest, darkest : float
        Grey levels (0 black, 1 white) of the first and the last pose.
    lw, com_size : float
        Line width of the links and marker size of the centres of mass
        (:func:`~spatial.viz.draw_model`).

    Returns
    -------
    list
        One list of artists per pose, as :func:`~spatial.viz.draw_model` returns them.

    Raises
    ------
    ValueError
        If ``qs`` is not a (K, nq) array of valid configurations, a grey level is outside
        [0, 1], or ``plane`` is unknown.
    """
    qs = as_array(qs, "qs", ())
    if qs.ndim != 2:
        raise ValueError(f"qs must have shape (K, nq), one configuration per row, got {qs.shape}")
    for name, value in (("lightest", lightest), ("darkest", darkest)):
        if not 0.0 <= float(value) <= 1.0:
            raise ValueError(f"{name} must be a grey level in [0, 1], got {value!r}")
    shades = np.linspace(lightest, darkest, len(qs))
    return [
        draw_model(ax, model, q, plane=plane, color=str(shade), lw=lw, com_size=com_size)
        for q, shade in zip(qs, shades, strict=True)
    ]


def animate_members(
    model: Model,
    qs,
    colors,
    *,
    times=None,
    labels=None,
    plane: str = "xy",
    max_frames: int = 60,
    interval: int = 80,
    figsize: tuple = (4.5, 4.5),
    title: str = "",
    trace: int | None = None,
):
    """Animate a few members of a batch of trajectories, each member in its own colour.

    Where :func:`~spatial.viz.animate` draws a whole batch in one colour, this draws member
    ``k`` in ``colors[k]`` (and, with ``trace``, the path of one body's centre of mass in the
    same colour), so that diverging members can be told apart.

    Parameters
    ----------
    model : Model
    qs : array_like, shape (T, K, nq)
        ``T`` configurations of each of ``K`` members.
    colors : sequence of K matplotlib colours
    times : array_like, shape (T,), optional
        Shown in the title.
    labels : sequence of K str, optional
        Legend entries of the members.
    plane : {"xy", "xz", "yz"}
        Projection plane (the animation is 2D).
    max_frames, interval, figsize, title :
        As for :func:`~spatial.viz.animate`.
    trace : int, optional
        Body number whose centre of mass leaves a trail.

    Returns
    -------
    IPython.display.HTML
        The offline player (:func:`~spatial.viz.animation_html`); the figure is closed.

    Raises
    ------
    ValueError
        If ``qs`` is not (T, K, nq), ``colors`` or ``labels`` do not have K entries,
        ``times`` has the wrong length, ``plane`` or ``trace`` is invalid, or
        ``max_frames < 1``.
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation

    _check_plane(plane)
    qs = as_array(qs, "qs", ())
    if qs.ndim != 3:
        raise ValueError(f"qs must have shape (T, K, nq): T frames of K members, got {qs.shape}")
    n_frames, k_members = qs.shape[:2]
    colors = list(colors)
    if len(colors) != k_members:
        raise ValueError(f"colors must have one entry per member ({k_members}), got {len(colors)}")
    if labels is not None and len(labels) != k_members:
        raise ValueError(f"labels must have one entry per member ({k_members}), got {len(labels)}")
    if times is not None and np.shape(times) != (n_frames,):
        raise ValueError(f"times must have shape ({n_frames},), got {np.shape(times)}")
    if trace is not None and not 1 <= trace <= model.NB:
        raise ValueError(f"trace must be a body number in 1 … {model.NB}, got {trace!r}")
    frames = frame_indices(n_frames, max_frames)
    sk = skeleton(model, qs)

    fig = plt.figure(figsize=figsize, dpi=70)
    ax = fig.add_subplot()
    points = np.concatenate([sk.segments.reshape(-1, 3), sk.coms.reshape(-1, 3)])
    lo, hi = np.nanmin(points, axis=0), np.nanmax(points, axis=0)
    centre, half = (lo + hi) / 2, 0.55 * (hi - lo).max() + 1e-9
    for axis, k in zip("xy", _PLANES[plane], strict=True):
        getattr(ax, f"set_{axis}lim")(centre[k] - half, centre[k] + half)
        getattr(ax, f"set_{axis}label")(f"{'xyz'[k]} (m)")
    ax.set_aspect("equal")
    members = [
        draw_model(ax, model, qs[frames[0], k], plane=plane, color=colors[k], lw=2.0)
        for k in range(k_members)
    ]
    if labels is not None:
        for artists, label in zip(members, labels, strict=True):
            artists[0].set_label(label)
        ax.legend(loc="upper right", fontsize=8)
    trails = []
    if trace is not None:
        trails = [ax.plot([], [], "-", color=c, lw=0.8, alpha=0.6)[0] for c in colors]

    def frame_title(t: int) -> str:
        return (
            f"{title}  t = {float(np.asarray(times)[t]):.2f} s".strip()
            if times is not None
            else title
        )

    ax.set_title(frame_title(frames[0]))
    fig.tight_layout()  # keeps the axis labels inside the figure

    def show(i: int):
        t = frames[i]
        for k, artists in enumerate(members):
            member = Skeleton(sk.segments[t, k], sk.joints[t, k], sk.coms[t, k])
            _update(ax, artists, member, plane)
        for k, line in enumerate(trails):
            path = _trail(Skeleton(sk.segments[:, k], sk.joints[:, k], sk.coms[:, k]), trace, t)
            line.set_data(*_coords(ax, path, plane))
        ax.set_title(frame_title(t))
        return [a for artists in members for a in artists] + trails

    html = animation_html(FuncAnimation(fig, show, frames=len(frames), interval=interval))
    plt.close(fig)
    return html
