"""Coordinate frames in 3D drawings: body triads, what a joint lets a frame do, equal-scale boxes.

A body frame is drawn as a triad of short axes, ``x`` red, ``y`` green, ``z`` blue, read off its
4x4 pose ``T_0i`` (:func:`spatial.body_poses`; the columns of the rotation block are the frame's
axes in world coordinates).  A joint is drawn as the motion of its successor frame ``F_s``
relative to its predecessor frame ``F_p`` (Featherstone §4.4): ``X_J(q) = ^sX_p`` places ``F_s``,
so ``F_s``'s origin sits at ``r`` and its axes are the rows of ``E`` in ``F_p`` coordinates
(``X_J = rot(E) xlt(r)``, eq. 2.24).

A 3D view is only readable when its three axes share one scale: :func:`cube_axes` sets a cube
around a centre with a few ticks per axis, and :func:`reach_box` computes a cube that holds every
pose of a chain of turning joints, from the model's geometry alone.
"""

from __future__ import annotations

import numpy as np

from .._validate import nonnegative_scalar, positive_scalar, square_matrix, vector
from ..kinematics import body_poses
from ..model import Model
from ..vectors import unplux

__all__ = [
    "AXIS_COLORS",
    "draw_triad",
    "draw_frames",
    "draw_joint_motion",
    "cube_axes",
    "bounding_cube",
    "reach_box",
]

#: Colours of a frame's x, y and z axes.
AXIS_COLORS = ("tab:red", "tab:green", "tab:blue")


def draw_triad(ax, T, length: float = 0.1, *, alpha: float = 1.0, lw: float = 1.2) -> list:
    """Draw the x, y, z axes of one frame given by its 4x4 pose ``T`` (frame to world).

    Parameters
    ----------
    ax : matplotlib Axes3D
    T : array_like, shape (4, 4)
        Pose of the frame: its rotation block's columns are its axes, its last column its origin.
    length : float
        Length of each axis (m).
    alpha, lw : float
        Opacity and line width.

    Returns
    -------
    list of matplotlib artists
        The three axis lines.

    Raises
    ------
    ValueError
        If ``T`` is not a 4x4 matrix or ``length`` is not positive.
    """
    T = square_matrix(T, "T")
    if T.shape != (4, 4):
        raise ValueError(f"T must be a 4x4 pose, got shape {T.shape}")
    length = positive_scalar(length, "length")
    lines = []
    for k, color in enumerate(AXIS_COLORS):
        ends = np.stack([T[:3, 3], T[:3, 3] + length * T[:3, k]])
        lines += ax.plot(*ends.T, color=color, lw=lw, alpha=alpha)
    return lines


def draw_frames(ax, model: Model, q, length: float = 0.1, **style) -> list:
    """Draw the triad of every body frame of a tree at configuration ``q``.

    Parameters
    ----------
    ax : matplotlib Axes3D
    model : Model
    q : array_like, shape (nq,)
    length : float
        Length of each axis (m).
    **style
        ``alpha`` and ``lw``, as :func:`draw_triad`.

    Returns
    -------
    list of matplotlib artists

    Raises
    ------
    ValueError
        If ``q`` is not one valid configuration of ``model``.
    """
    T = body_poses(model, q)
    if T.ndim != 3:
        raise ValueError(f"q must be one configuration of shape ({model.nq},), got a batch")
    return [line for i in range(1, model.NB + 1) for line in draw_triad(ax, T[i], length, **style)]


def draw_joint_motion(ax, joint, qs, length: float = 0.3, *, fade: bool = True) -> list:
    """Draw a joint as its successor frame ``F_s`` at several configurations, over ``F_p``.

    ``F_p`` is drawn at the origin in grey; ``F_s`` is drawn at each row of ``qs``, placed by
    ``X_J(q) = rot(E) xlt(r)``: origin ``r``, axes the rows of ``E`` (Featherstone eq. 2.24).
    With ``fade`` the earlier rows are fainter, so the drawing reads as a motion.

    Parameters
    ----------
    ax : matplotlib Axes3D
    joint : spatial.joints.Joint
    qs : array_like, shape (K, nq)
        Joint configurations, in order.
    length : float
        Length of each axis (m).
    fade : bool
        Draw the earlier configurations fainter.

    Returns
    -------
    list of matplotlib artists

    Raises
    ------
    ValueError
        If ``qs`` is not a sequence of configurations of ``joint``.
    """
    qs = np.asarray(qs, dtype=float)
    if qs.ndim != 2 or qs.shape[1] != joint.nq:
        raise ValueError(f"qs must have shape (K, {joint.nq}) for {joint!r}, got {qs.shape}")
    artists = []
    for k, c in enumerate("xyz"):  # F_p: grey axes, labelled at their tips
        end = length * np.eye(3)[k]
        artists += ax.plot(*np.stack([np.zeros(3), end]).T, color="0.55", lw=2.5)
        artists.append(ax.text(*(1.15 * end), c, color="0.4", fontsize=7))
    for k, q in enumerate(qs):
        E, r = unplux(joint.transform(q))
        T = np.eye(4)
        T[:3, :3], T[:3, 3] = E.T, r  # F_s in F_p coordinates: axes = rows of E
        alpha = 0.25 + 0.75 * (k + 1) / len(qs) if fade else 1.0
        artists += draw_triad(ax, T, length, alpha=alpha, lw=1.5)
    return artists


def cube_axes(ax, center=(0.0, 0.0, 0.0), half: float = 1.0, *, nticks: int = 3, unit="m"):
    """Give a 3D axes one scale: a cube of half-width ``half`` around ``center``, few ticks.

    Sets equal limits and box aspect on the three axes, at most ``nticks`` round-numbered ticks
    on each (so that the tick labels do not run into each other) and the labels ``x (m)``,
    ``y (m)``, ``z (m)``.

    Parameters
    ----------
    ax : matplotlib Axes3D
    center : array_like, shape (3,)
    half : float
        Half the side of the cube, > 0.
    nticks : int
        Ticks per axis, ≥ 2.
    unit : str
        Unit in the axis labels.

    Raises
    ------
    ValueError
        If ``half`` is not positive, ``center`` not three numbers or ``nticks < 2``.
    """
    from matplotlib.ticker import MaxNLocator

    center, half = vector(center, "center", 3), positive_scalar(half, "half")
    if not isinstance(nticks, (int, np.integer)) or nticks < 2:
        raise ValueError(f"nticks must be at least 2, got {nticks!r}")
    setters = (ax.set_xlim, ax.set_ylim, ax.set_zlim)
    ticks = (ax.set_xticks, ax.set_yticks, ax.set_zticks)
    labels = (ax.set_xlabel, ax.set_ylabel, ax.set_zlabel)
    for set_lim, set_ticks, set_label, c, name in zip(
        setters, ticks, labels, center, "xyz", strict=True
    ):
        set_lim(c - half, c + half)
        values = MaxNLocator(nticks, steps=[1, 2, 2.5, 5, 10]).tick_values(c - half, c + half)
        set_ticks(values[(values >= c - half) & (values <= c + half)])
        set_label(f"{name} ({unit})")
    ax.set_box_aspect((1, 1, 1))


def bounding_cube(points, margin: float = 0.05) -> tuple:
    """The smallest axis-aligned cube around ``points`` (NaNs ignored), widened by ``margin``.

    Parameters
    ----------
    points : array_like, shape (..., 3)
        Any batch of points, e.g. ``sp.viz.skeleton(model, qs).segments`` for every pose drawn.
    margin : float
        Added to the half-width (m), ≥ 0.

    Returns
    -------
    center : ndarray, shape (3,)
    half : float
        Pass both to :func:`cube_axes`.

    Raises
    ------
    ValueError
        If ``points`` does not end in a dimension of 3 or holds no finite point, or ``margin``
        is negative.
    """
    points = np.asarray(points, dtype=float)
    if points.ndim < 1 or points.shape[-1] != 3:
        raise ValueError(f"points must have shape (..., 3), got {points.shape}")
    margin = nonnegative_scalar(margin, "margin")
    points = points.reshape(-1, 3)
    points = points[np.all(np.isfinite(points), axis=1)]
    if not len(points):
        raise ValueError("points holds no finite point")
    lo, hi = points.min(0), points.max(0)
    return (lo + hi) / 2, float((hi - lo).max() / 2) + margin


def reach_box(model: Model, body: int, point=None, margin: float = 0.05) -> tuple:
    """A cube that holds every pose of the path from the base to a point on ``body``.

    For a chain of joints that only turn about their frame's origin (revolute, spherical,
    universal ..., as every joint whose motion subspace has no linear part at the origin), each
    joint's origin stays at a fixed distance from the previous one: the length of the
    translation in its tree transform ``X_T``.  So every point of the path lies within the sum
    of those lengths (plus ``|point|``) of the first joint's origin, which the base holds
    still.  The cube around that origin with that half-width (plus ``margin``) contains the
    whole reachable workspace, whatever the joint angles.

    Parameters
    ----------
    model : Model
    body : int
        Body number, ``1 … NB``.
    point : array_like, shape (3,), optional
        A point fixed in ``body`` (body coordinates), e.g. a tool tip; default its origin.
    margin : float
        Added to the half-width (m), ≥ 0.

    Returns
    -------
    center : ndarray, shape (3,)
        The first joint's origin, in base coordinates.
    half : float
        Half the side of the cube.

    Raises
    ------
    ValueError
        If ``body`` is not a body of ``model``, ``point`` not three numbers, ``margin``
        negative, or a joint on the path translates (then no such bound follows from the
        geometry alone).
    """
    if (
        isinstance(body, bool)
        or not isinstance(body, (int, np.integer))
        or not 1 <= body <= model.NB
    ):
        raise ValueError(f"body must be a body number in 1 … {model.NB}, got {body!r}")
    point = np.zeros(3) if point is None else vector(point, "point", 3)
    margin = nonnegative_scalar(margin, "margin")
    path = model.support(body)
    for j in path:
        joint = model.joints[j]
        S = np.asarray(joint.motion_subspace(joint.neutral()))
        if joint.nv and np.abs(S[3:]).max() > 1e-12:
            raise ValueError(
                f"joint {j} ({joint!r}) translates its frame's origin: reach_box needs joints "
                "that only turn about their origin"
            )
    center = unplux(model.X_tree[path[0]])[1]  # the first joint hangs from the base
    half = sum(float(np.linalg.norm(unplux(model.X_tree[j])[1])) for j in path[1:])
    return center, half + float(np.linalg.norm(point)) + margin
