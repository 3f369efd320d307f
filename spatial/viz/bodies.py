"""One rigid body drawn and animated: frames, boxes, inertia ellipsoids, velocity fields.

The drawings of the first chapters (notebooks 01–03), which study a single body rather than a
tree (for trees see :mod:`spatial.viz.models`):

* :func:`box_edges`, :func:`draw_box` — a box (the course's standard body) at a pose;
* :func:`draw_frame` — the three axes of a frame, coloured x red, y green, z blue;
* :func:`style_3d` — equal limits, few ticks and axis labels with units on 3D axes;
* :func:`draw_inertia_ellipsoid` — principal axes and inertia ellipsoid of a spatial inertia;
* :func:`draw_screw_field` — the point velocities of one rigid-body motion and its screw axis;
* :func:`draw_planar_field` — a planar velocity field with its instantaneous centre;
* :func:`animate_rigid_body` — a box moving through a sequence of poses, as an offline player.

Poses are 4x4 homogeneous frames ``T`` (body → world point coordinates; Sueda's ``E``).
"""

from __future__ import annotations

import itertools

import numpy as np

from .._validate import as_array, positive_array, positive_scalar
from ..inertia import principal_axes
from ..planar import embed_vector
from ..se3 import _as_frame
from ..vectors import point_velocity
from .player import animation_html, frame_indices

__all__ = [
    "box_edges",
    "draw_box",
    "draw_frame",
    "style_3d",
    "draw_inertia_ellipsoid",
    "draw_screw_field",
    "draw_planar_field",
    "animate_rigid_body",
]

#: Colours of a frame's x, y and z axes (red, green, blue in matplotlib's default cycle).
AXIS_COLORS = ("C3", "C2", "C0")

_CORNERS = np.array(list(itertools.product([-0.5, 0.5], repeat=3)))
_EDGES = np.array(
    [
        (i, j)
        for i, j in itertools.combinations(range(8), 2)
        if np.count_nonzero(_CORNERS[i] != _CORNERS[j]) == 1
    ]
)


def _frame_or_identity(T, name: str = "T") -> np.ndarray:
    return np.eye(4) if T is None else _as_frame(T, name)


def box_edges(size, T=None) -> np.ndarray:
    """The 12 edges of a box centred at the origin of frame ``T``, in world coordinates.

    Parameters
    ----------
    size : array_like, shape (3,)
        Side lengths along the frame's x, y and z axes (m).
    T : array_like, shape (..., 4, 4), optional
        Pose of the box (body → world); the identity if omitted.

    Returns
    -------
    ndarray, shape (..., 12, 2, 3)
        Start and end point of each edge.

    Raises
    ------
    ValueError
        If ``size`` is not three positive numbers or ``T`` is not a rigid frame.
    """
    size = positive_array(as_array(size, "size", (3,)), "size")
    if size.ndim != 1:
        raise ValueError(f"size must have shape (3,), got {size.shape}")
    T = _frame_or_identity(T)
    corners = _CORNERS * size
    world = corners @ np.swapaxes(T[..., :3, :3], -1, -2) + T[..., None, :3, 3]
    return world[..., _EDGES, :]


def _polyline(segments: np.ndarray) -> np.ndarray:
    """Segments (..., K, 2, 3) as one polyline (..., 3K, 3) with NaN breaks."""
    breaks = np.full(segments.shape[:-2] + (1, 3), np.nan)
    joined = np.concatenate([segments, breaks], -2)
    return joined.reshape(segments.shape[:-3] + (-1, 3))


def draw_box(ax, size, T=None, *, color: str = "0.3", lw: float = 1.0, alpha: float = 1.0, **kw):
    """Draw the edges of a box on 3D axes, as one line artist.

    Parameters
    ----------
    ax : Axes3D
    size : array_like, shape (3,)
        Side lengths (m).
    T : array_like, shape (4, 4), optional
        Pose of the box (body → world).
    color, lw, alpha
        Line style.
    **kw
        Passed to ``ax.plot`` (e.g. ``label``).

    Returns
    -------
    matplotlib line artist
        Update it with ``set_data_3d`` to move the box.

    Raises
    ------
    ValueError
        As :func:`box_edges`.
    """
    points = _polyline(box_edges(size, T))
    (line,) = ax.plot(*points.T, color=color, lw=lw, alpha=alpha, **kw)
    return line


def draw_frame(
    ax,
    T=None,
    *,
    scale: float = 1.0,
    label: str | None = None,
    color: str | None = None,
    alpha: float = 1.0,
    lw: float = 2.0,
) -> list:
    """Draw the axes of a frame as arrows: x red, y green, z blue (or all in ``color``).

    On 3D axes all three axes are drawn; on 2D axes the x and y axes, projected on the page.

    Parameters
    ----------
    ax : Axes or Axes3D
    T : array_like, shape (4, 4), optional
        The frame (its columns are the axes and origin in world coordinates); the identity if
        omitted.
    scale : float
        Length of the arrows (m).
    label : str, optional
        Name of the frame: the arrow tips are labelled ``x_label``, ``y_label`` (, ``z_label``).
    color : str, optional
        One colour for the whole frame instead of red, green, blue.
    alpha, lw
        Opacity and line width.

    Returns
    -------
    list of matplotlib artists

    Raises
    ------
    ValueError
        If ``T`` is not a rigid frame or ``scale`` is not positive.
    """
    T = _frame_or_identity(T)
    if T.ndim != 2:
        raise ValueError(f"T must be one frame of shape (4, 4), got {T.shape}")
    scale = positive_scalar(scale, "scale")
    three_d = getattr(ax, "name", "") == "3d"
    origin, R = T[:3, 3], T[:3, :3]
    artists = []
    for k in range(3 if three_d else 2):
        c = color or AXIS_COLORS[k]
        tip = scale * R[:, k]
        if three_d:
            artists.append(
                ax.quiver(*origin, *tip, color=c, alpha=alpha, lw=lw, arrow_length_ratio=0.15)
            )
        else:
            arrow = dict(arrowstyle="->", color=c, lw=lw, alpha=alpha)
            artists.append(ax.annotate("", origin[:2] + tip[:2], origin[:2], arrowprops=arrow))
        if label is not None:
            where = origin + 1.15 * tip
            text = f"${'xyz'[k]}_{{{label}}}$"
            kw = dict(color=c, alpha=alpha, ha="center", va="center")
            artists.append(
                ax.text(*where, text, **kw) if three_d else ax.text(*where[:2], text, **kw)
            )
    return artists


def style_3d(ax, half: float, *, centre=(0.0, 0.0, 0.0), unit: str = "m", nticks: int = 5) -> None:
    """Cube-shaped 3D axes: equal limits, at most ``nticks`` ticks each, labels with units.

    Parameters
    ----------
    ax : Axes3D
    half : float
        Half the side of the cube shown.
    centre : array_like, shape (3,)
        Its centre.
    unit : str
        Unit of the coordinates, written in the axis labels (``"x (m)"``).
    nticks : int
        Largest number of ticks per axis (few enough not to overlap at the default size).

    Raises
    ------
    ValueError
        If ``half`` is not positive, ``centre`` not a 3-vector or ``nticks < 2``.
    """
    from matplotlib.ticker import MaxNLocator

    half = positive_scalar(half, "half")
    centre = as_array(centre, "centre", (3,))
    if nticks < 2:
        raise ValueError(f"nticks must be ≥ 2, got {nticks!r}")
    for k, name in enumerate("xyz"):
        getattr(ax, f"set_{name}lim")(centre[k] - half, centre[k] + half)
        getattr(ax, f"set_{name}label")(f"{name} ({unit})" if unit else name)
        getattr(ax, f"{name}axis").set_major_locator(MaxNLocator(nticks - 1))
    ax.set_box_aspect((1, 1, 1))


def draw_inertia_ellipsoid(ax, I, *, scale: float = 0.45, legend: bool = True) -> dict:
    """Principal axes and inertia ellipsoid ``xᵀ Ī_C x = const`` of a spatial inertia (3D).

    The ellipsoid is centred at the centre of mass, its axes are the principal axes, and its
    semi-axes are proportional to ``1/√dᵢ`` (longest along the axis of smallest moment), scaled so
    that the longest is ``scale``.  Each principal axis is an arrow labelled with its moment.

    Parameters
    ----------
    ax : Axes3D
    I : array_like, shape (6, 6)
        Rigid-body spatial inertia in world coordinates.
    scale : float
        Longest semi-axis (m).
    legend : bool
        Add a legend naming the principal moments.

    Returns
    -------
    dict
        ``centre``, ``axes`` (columns), ``moments`` and ``semi_axes`` of the drawn ellipsoid.

    Raises
    ------
    ValueError
        If ``I`` is not a rigid-body inertia or ``scale`` is not positive.
    """
    scale = positive_scalar(scale, "scale")
    _, c, R, d = principal_axes(I)
    semi = scale * np.sqrt(d.min() / d)
    u, v = np.meshgrid(np.linspace(0, 2 * np.pi, 25), np.linspace(0, np.pi, 13))
    sphere = np.stack([np.cos(u) * np.sin(v), np.sin(u) * np.sin(v), np.cos(v)], -1)
    surface = (sphere * semi) @ R.T + c
    ax.plot_wireframe(*np.moveaxis(surface, -1, 0), color="C0", alpha=0.35, lw=0.6)
    for k in range(3):
        label = f"principal axis {k + 1}, $d_{k + 1}$ = {d[k]:.3f} kg m²"
        ax.quiver(*c, *(semi[k] * 1.3 * R[:, k]), color=f"C{k + 1}", lw=2, label=label)
    if legend:
        ax.legend(loc="upper left", fontsize=8)
    return {"centre": c, "axes": R, "moments": d, "semi_axes": semi}


def draw_screw_field(
    ax, v, point, direction, *, half: float = 1.5, grid: int = 3, length: float = 0.25
) -> np.ndarray:
    """Point velocities of the motion ``v = [ω; v_O]`` on a grid, its screw axis, and frame A.

    Draws the velocity of the body point at each grid point (blue), the screw axis through
    ``point`` along ``direction`` (dashed red) and the velocities of three points on the axis
    (thick orange, longer than the grid's): they lie along the axis (Featherstone eq. 2.10).

    Parameters
    ----------
    ax : Axes3D
    v : array_like, shape (6,)
        Motion vector in A coordinates (rad/s, m/s).
    point, direction : array_like, shape (3,)
        A point of the screw axis and its unit direction, in A coordinates.
    half : float
        The grid spans ``[-half, half]`` on each axis (m).
    grid : int
        Points per side of the grid (≥ 2).
    length : float
        Scale of the grid's arrows (s: an arrow is ``length`` times the velocity).

    Returns
    -------
    ndarray, shape (3, 3)
        Velocities of the three points drawn on the axis.

    Raises
    ------
    ValueError
        If an array has the wrong shape or is not finite, or ``grid < 2``.
    """
    v = as_array(v, "v", (6,))
    point, direction = as_array(point, "point", (3,)), as_array(direction, "direction", (3,))
    if grid < 2:
        raise ValueError(f"grid must be ≥ 2 points per side, got {grid!r}")
    g = np.linspace(-half, half, grid)
    pts = np.stack(np.meshgrid(g, g, g), -1).reshape(-1, 3)
    vel = point_velocity(v, pts)
    ax.quiver(*pts.T, *vel.T, length=length, color="C0", alpha=0.6, label="point velocities")
    line = point + np.outer([-2.5, 2.5], direction)
    ax.plot(*line.T, "C3--", lw=1.2, label="screw axis")
    on_axis = point + np.outer([-1.0, 0.0, 1.0], direction)
    vel_axis = point_velocity(v, on_axis)
    ax.quiver(*on_axis.T, *vel_axis.T, length=0.6, color="C1", lw=3.5, label="on the axis")
    draw_frame(ax, label="A", color="k", lw=1.5)
    style_3d(ax, half + 0.5)
    ax.legend(loc="upper left", fontsize=8)
    return vel_axis


def draw_planar_field(ax, v, points, *, frames=(), scale: float = 2.5) -> np.ndarray:
    """Draw a planar velocity field, coloured by speed, with its instantaneous centre.

    Parameters
    ----------
    ax : Axes
    v : array_like, shape (3,)
        Planar motion vector ``[ω_z, v_x, v_y]`` in the coordinates of the page (Featherstone
        §2.16).
    points : array_like, shape (N, 2)
        Where to draw arrows, in the same coordinates.
    frames : sequence of (origin, angle, name, colour)
        Frames to draw: origin (2,), angle of the x axis (rad), name and colour.
    scale : float
        Arrows are drawn ``1/scale`` times the velocity (s).

    Returns
    -------
    ndarray, shape (N, 2)
        The velocities drawn (m/s).

    Raises
    ------
    ValueError
        If ``v`` or ``points`` has the wrong shape or is not finite.
    """

    v = as_array(v, "v", (3,))
    points = as_array(points, "points", (2,))
    pts3 = np.concatenate([points, np.zeros(points.shape[:-1] + (1,))], -1)
    vel = point_velocity(embed_vector(v), pts3)[..., :2]
    speed = np.hypot(*vel.T)
    ax.quiver(*points.T, *vel.T, speed, cmap="viridis", angles="xy", scale_units="xy", scale=scale)
    if v[0] != 0:
        ax.plot(-v[2] / v[0], v[1] / v[0], "r*", ms=14, label="instantaneous centre")
    for origin, angle, name, colour in frames:
        c, s = np.cos(angle), np.sin(angle)
        T = np.eye(4)
        T[:2, :2], T[:2, 3] = [[c, -s], [s, c]], origin
        draw_frame(ax, T, scale=0.8, label=name, color=colour)
        ax.plot(*origin, "o", color=colour, ms=4)
    return vel


def animate_rigid_body(
    poses,
    size,
    *,
    times=None,
    half: float | None = None,
    body_axes: str = "xyz",
    axes_length: float | None = None,
    trail=None,
    lines=(),
    max_frames: int = 60,
    interval: int = 80,
    figsize: tuple = (5.0, 5.0),
    title: str = "",
):
    """Animate a box moving through a sequence of poses, as an HTML player that works offline.

    Parameters
    ----------
    poses : array_like, shape (T, 4, 4)
        Poses of the box over time (body → world).
    size : array_like, shape (3,)
        Side lengths of the box (m).
    times : array_like, shape (T,), optional
        Times of the poses, shown in the title (s).
    half : float, optional
        Half the side of the cube shown (m); by default it holds the whole motion.
    body_axes : str
        Which body axes to draw as coloured lines from the body origin (any of ``"xyz"``).
    axes_length : float, optional
        Length of those lines (m); by default 0.6 of the box's largest side.
    trail : array_like, shape (3,), optional
        A body-fixed point (body coordinates) whose world path is drawn up to each frame.
    lines : sequence of (points, style)
        Fixed world lines: ``points`` (K, 3) and a dict of ``ax.plot`` keywords (give a
        ``label`` to name it in the legend).
    max_frames : int
        At most this many evenly spaced poses become frames.
    interval : int
        Delay between frames (ms).
    figsize : tuple
        Figure size in inches.
    title : str
        Title; the time is appended when ``times`` is given.

    Returns
    -------
    IPython.display.HTML
        The player (:func:`~spatial.viz.animation_html`); the figure is closed.

    Raises
    ------
    ValueError
        If ``poses`` are not rigid frames of shape (T, 4, 4), ``times`` has the wrong length,
        ``body_axes`` names another axis, or ``max_frames < 1``.
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation

    poses = _as_frame(poses, "poses")
    if poses.ndim != 3:
        raise ValueError(f"poses must have shape (T, 4, 4), got {poses.shape}")
    size = positive_array(as_array(size, "size", (3,)), "size")
    if times is not None and np.shape(times) != poses.shape[:1]:
        raise ValueError(f"times must have shape ({len(poses)},), got {np.shape(times)}")
    if set(body_axes) - set("xyz"):
        raise ValueError(f"body_axes must be letters of 'xyz', got {body_axes!r}")
    frames = frame_indices(len(poses), max_frames)
    edges = _polyline(box_edges(size, poses))  # (T, 36, 3)
    length = 0.6 * size.max() if axes_length is None else positive_scalar(axes_length, "length")
    path = None
    if trail is not None:
        path = poses[:, :3, :3] @ as_array(trail, "trail", (3,)) + poses[:, :3, 3]
    if half is None:
        extent = np.concatenate([edges.reshape(-1, 3), poses[:, :3, 3]])
        extent = extent[np.isfinite(extent).all(-1)]
        half = 0.55 * (extent.max(0) - extent.min(0)).max()
        centre = 0.5 * (extent.max(0) + extent.min(0))
    else:
        centre = np.zeros(3)

    fig = plt.figure(figsize=figsize, dpi=80)
    fig.subplots_adjust(left=0, right=0.95, bottom=0.02, top=0.95)
    ax = fig.add_subplot(projection="3d")
    style_3d(ax, half, centre=centre, nticks=4)
    (box,) = ax.plot(*edges[frames[0]].T, color="0.3", lw=1.5)
    axis_lines = {
        k: ax.plot([], [], [], color=AXIS_COLORS["xyz".index(k)], lw=3)[0] for k in body_axes
    }
    if body_axes:  # one legend entry for the axes drawn
        names = ", ".join(body_axes)
        plural = "axes" if len(body_axes) > 1 else "axis"
        axis_lines[body_axes[0]].set_label(f"body {names} {plural}")
    trail_line = None
    if path is not None:
        (trail_line,) = ax.plot([], [], [], "C1-", lw=1, label="path of a body point")
    for points, style in lines:
        ax.plot(*as_array(points, "line points", (3,)).T, **style)
    if axis_lines or trail_line is not None or lines:
        ax.legend(loc="upper left", fontsize=8)

    def show(i: int):
        n = frames[i]
        box.set_data_3d(*edges[n].T)
        for k, line in axis_lines.items():
            tip = poses[n, :3, 3] + length * poses[n, :3, "xyz".index(k)]
            line.set_data_3d(*np.stack([poses[n, :3, 3], tip], -1))
        if trail_line is not None:
            trail_line.set_data_3d(*path[: n + 1].T)
        if times is not None:
            ax.set_title(f"{title}  t = {float(np.asarray(times)[n]):.2f} s".strip())
        else:
            ax.set_title(title)
        return [box, *axis_lines.values()]

    animation = FuncAnimation(fig, show, frames=len(frames), interval=interval)
    html = animation_html(animation)
    plt.close(fig)
    return html
