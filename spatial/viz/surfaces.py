"""A body moving on a surface, in 3D: the surface of a spline surface joint and the body's frame.

Notebook 14 draws the two-parameter spline joint of Sueda §2.4.13 (:class:`spatial.joints.
SplineSurface`): the surface the joint frame's origin sweeps over its parameter box, and a body
sliding on it.

* :func:`surface_points` — the origins of the joint frame over a grid of the two parameters;
* :func:`draw_on_surface` — the surface as a wireframe, a path on it and body triads;
* :func:`animate_on_surface` — the body's triad and trail moving over the surface, as an
  offline HTML player.
"""

from __future__ import annotations

import numpy as np

from ..vectors import unplux
from .player import animation_html, frame_indices

__all__ = ["surface_points", "joint_frames", "draw_on_surface", "animate_on_surface"]


def joint_frames(joint, q) -> np.ndarray:
    """The successor frames ``Q(q) = [[R, p], [0, 1]]`` of a joint, from its ``X_J = plux(Rᵀ, p)``.

    Parameters
    ----------
    joint : Joint
    q : array_like, shape (..., nq)

    Returns
    -------
    ndarray, shape (..., 4, 4)
    """
    E, r = unplux(joint.transform(np.asarray(q, dtype=float)))
    Q = np.zeros(E.shape[:-2] + (4, 4))
    Q[..., :3, :3], Q[..., :3, 3], Q[..., 3, 3] = np.swapaxes(E, -1, -2), r, 1.0
    return Q


def surface_points(joint, count: int = 25) -> np.ndarray:
    """Origins of a two-parameter joint's frame over a ``count x count`` grid of its box.

    Parameters
    ----------
    joint : Joint
        A joint with ``nq == 2`` and an ``upper`` bound per parameter (its box is
        ``[0, upper]``), e.g. :class:`spatial.joints.SplineSurface`.
    count : int
        Samples per parameter, ≥ 2.

    Returns
    -------
    ndarray, shape (count, count, 3)

    Raises
    ------
    ValueError
        If the joint does not have two parameters and an ``upper`` bound, or ``count < 2``.
    """
    upper = np.asarray(getattr(joint, "upper", None), dtype=float)
    if getattr(joint, "nq", None) != 2 or upper.shape != (2,):
        raise ValueError("joint must have two parameters and their upper bounds (a SplineSurface)")
    if isinstance(count, bool) or int(count) != count or count < 2:
        raise ValueError(f"count must be an integer ≥ 2, got {count!r}")
    a, b = np.linspace(0.0, upper[0], count), np.linspace(0.0, upper[1], count)
    q = np.stack(np.meshgrid(a, b, indexing="ij"), -1)
    return joint_frames(joint, q)[..., :3, 3]


def _triad(ax, T, length, artists=None):
    """Draw (or move) the x, y, z axes of frame ``T`` as three 3D lines."""
    o = T[:3, 3]
    out = []
    for k, color in enumerate(("C3", "C2", "C0")):
        end = o + length * T[:3, k]
        xyz = [[o[i], end[i]] for i in range(3)]
        if artists is None:
            out.append(ax.plot(*xyz, color=color, lw=2)[0])
        else:
            artists[k].set_data_3d(*xyz)
    return out if artists is None else artists


def draw_on_surface(ax, points, frames=None, path=None, *, length: float = 0.06):
    """Draw a surface (wireframe), an optional path on it and body triads on 3D axes.

    Parameters
    ----------
    ax : Axes3D
    points : array_like, shape (m, n, 3)
        Surface points, e.g. :func:`surface_points`.
    frames : array_like, shape (k, 4, 4), optional
        Body frames to draw as triads (x red, y green, z blue).
    path : array_like, shape (p, 3), optional
        A curve drawn on the surface (e.g. the body's origin over time).
    length : float
        Length of the triads' axes (m).

    Raises
    ------
    ValueError
        If ``points`` is not an (m, n, 3) grid.
    """
    P = np.asarray(points, dtype=float)
    if P.ndim != 3 or P.shape[-1] != 3:
        raise ValueError(f"points must have shape (m, n, 3), got {P.shape}")
    ax.plot_wireframe(P[..., 0], P[..., 1], P[..., 2], color="0.6", lw=0.6)
    if path is not None:
        path = np.asarray(path, dtype=float)
        ax.plot(*path.T, color="C1", lw=1.5, label="path of the body's origin")
    if frames is not None:
        for T in np.asarray(frames, dtype=float):
            _triad(ax, T, length)
    ax.set(xlabel="x (m)", ylabel="y (m)", zlabel="z (m)")
    # a flat surface would be drawn paper-thin: give the height at least 0.4 of the width, and
    # few ticks on each axis so that their labels do not overlap
    extent = np.ptp(P.reshape(-1, 3), axis=0) + 1e-9
    extent[2] = max(extent[2], 0.4 * extent[:2].max())
    ax.set_box_aspect(extent)
    from matplotlib.ticker import MaxNLocator

    for axis, bins in ((ax.xaxis, 4), (ax.yaxis, 4), (ax.zaxis, 3)):
        axis.set_major_locator(MaxNLocator(bins))


def animate_on_surface(
    points, frames, times=None, *, length: float = 0.08, max_frames: int = 40, interval: int = 80
):
    """Animate a body's frame (triad and trail) moving over a surface, as an HTML player.

    Parameters
    ----------
    points : array_like, shape (m, n, 3)
        The surface (:func:`surface_points`).
    frames : array_like, shape (T, 4, 4)
        The body's frame at each time.
    times : array_like, shape (T,), optional
        Shown in the title (s).
    length : float
        Length of the triad's axes (m).
    max_frames, interval : int
        At most this many evenly spaced frames; milliseconds between frames.

    Returns
    -------
    IPython.display.HTML
        The offline player (:func:`spatial.viz.animation_html`); the figure is closed.

    Raises
    ------
    ValueError
        If ``frames`` is not (T, 4, 4), ``times`` does not match it, or ``max_frames < 1``.
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation

    F = np.asarray(frames, dtype=float)
    if F.ndim != 3 or F.shape[1:] != (4, 4):
        raise ValueError(f"frames must have shape (T, 4, 4), got {F.shape}")
    if times is not None and np.shape(times) != (len(F),):
        raise ValueError(f"times must have shape ({len(F)},), got {np.shape(times)}")
    shown = frame_indices(len(F), max_frames)
    fig = plt.figure(figsize=(5.0, 4.4), dpi=70)
    ax = fig.add_subplot(projection="3d")
    draw_on_surface(ax, points)
    (trail,) = ax.plot([], [], [], color="C1", lw=1.5)
    triad = _triad(ax, F[0], length)

    def show(k: int):
        t = shown[k]
        _triad(ax, F[t], length, triad)
        trail.set_data_3d(*F[: t + 1, :3, 3].T)
        if times is not None:
            ax.set_title(f"t = {float(np.asarray(times)[t]):.2f} s")
        return [*triad, trail]

    animation = FuncAnimation(fig, show, frames=len(shown), interval=interval)
    html = animation_html(animation)
    plt.close(fig)
    return html
