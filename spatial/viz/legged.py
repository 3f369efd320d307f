"""Legged robots on the ground: a floating-base robot drawn with its feet, the ground and the
ground's forces, still or animated (projects P1; notebook 11 §7.5).

The feet are the contact points of :func:`spatial.contact.foot_points`; a URDF robot's foot
links are merged into its lower legs, so each lower leg is drawn on to its foot.
"""

from __future__ import annotations

import numpy as np

from .._validate import real_array
from ..kinematics import body_poses
from ..model import Model
from .overlays import draw_arrows
from .player import animation_html, frame_count

__all__ = ["foot_positions", "draw_legged", "animate_legged"]

_PLANES = {"xz": (0, 2), "yz": (1, 2)}


def _plane(plane: str) -> tuple[int, int]:
    if plane not in _PLANES:
        raise ValueError(f"plane must be 'xz' (side view) or 'yz' (front view), got {plane!r}")
    return _PLANES[plane]


def foot_positions(model: Model, feet, q) -> np.ndarray:
    """World positions of the feet at ``q``, shape (n_feet, 3)."""
    return _feet(body_poses(model, q), feet)


def _feet(poses: np.ndarray, feet) -> np.ndarray:
    """The feet's world positions from the bodies' world frames ``poses``."""
    return np.array([(poses[int(b)] @ np.r_[np.asarray(p, float), 1.0])[:3] for b, p in feet])


def _figure(model: Model, feet, q, i: int, j: int):
    """The stick figure projected on coordinates ``i, j``: link polyline (NaN-separated) and
    joints (NB, 2), and the feet's world positions (n_feet, 3).  Every joint is joined to its
    parent's (the floating base's own joint, from the world, is not drawn) and each foot's body
    to its foot."""
    poses = body_poses(model, q)
    tips = _feet(poses, feet)
    segments = [(poses[model.parent[b]][:3, 3], poses[b][:3, 3]) for b in range(2, model.NB + 1)]
    segments += [(poses[int(b)][:3, 3], tip) for (b, _), tip in zip(feet, tips, strict=True)]
    xs, ys = [], []
    for a, b in segments:
        xs += [a[i], b[i], np.nan]
        ys += [a[j], b[j], np.nan]
    joints = np.array([poses[b][:3, 3] for b in range(1, model.NB + 1)])
    return (xs, ys), joints[:, [i, j]], tips


def draw_legged(
    ax,
    model: Model,
    feet,
    q,
    *,
    plane: str = "yz",
    color: str = "C0",
    alpha: float = 1.0,
    forces=None,
    scale: float = 100.0,
    ground: bool = True,
    label: str | None = None,
) -> list:
    """Draw a legged robot at ``q`` on the ground ``z = 0``, projected onto a vertical plane.

    Parameters
    ----------
    ax : matplotlib Axes
    model : Model
        Floating-base robot.
    feet : list of (int, array_like of shape (3,))
        ``(body, point)`` per foot (:func:`spatial.contact.foot_points`).
    q : array_like, shape (nq,)
    plane : {"yz", "xz"}
        Front view (``"yz"``) or side view (``"xz"``).
    color : str
        Colour of the robot.
    alpha : float
        Opacity.
    forces : array_like, shape (n_feet, 3), optional
        Ground forces on the feet (N, world), drawn as arrows from the feet.
    scale : float
        Newtons per metre of arrow.
    ground : bool
        Draw the ground line (thick black) at ``z = 0``.
    label : str, optional
        Legend label of the robot's links.

    Returns
    -------
    list of matplotlib artists

    Raises
    ------
    ValueError
        For an unknown plane, invalid ``q`` or forces of the wrong shape.
    """
    i, j = _plane(plane)
    (xs, ys), joints, tips = _figure(model, feet, q, i, j)
    artists = ax.plot(xs, ys, color=color, alpha=alpha, lw=2.5, solid_capstyle="round",
                      label=label)  # fmt: skip
    artists += ax.plot(joints[:, 0], joints[:, 1], "o", color=color, mfc="white", mew=1.5,
                       ms=5, alpha=alpha)  # fmt: skip
    artists += ax.plot(tips[:, i], tips[:, j], "v", color="C3", ms=7, alpha=alpha)
    if forces is not None:
        forces = real_array(forces, "forces")
        if forces.shape != (len(feet), 3):
            raise ValueError(f"forces must have shape ({len(feet)}, 3), got {forces.shape}")
        artists.append(draw_arrows(ax, tips, forces, scale=scale, plane=plane, color="C1"))
    if ground:
        artists.append(ax.axhline(0.0, color="k", lw=3, zorder=0))
    return artists


def animate_legged(
    model: Model,
    feet,
    runs,
    *,
    titles=None,
    plane: str = "yz",
    max_frames: int = 40,
    interval: int = 80,
    span: float = 0.35,
    height: float = 0.45,
    figsize=None,
):
    """Animate one or more runs of a legged robot side by side, each on its own axes.

    Parameters
    ----------
    model : Model
    feet : list of (int, array_like of shape (3,))
    runs : sequence of (t, q)
        Times (T,) and configurations (T, nq) of each run (e.g. a
        :class:`~spatial.contact.LeggedRun`'s ``t`` and ``q``).
    titles : sequence of str, optional
        One per run; the time is appended.
    plane : {"yz", "xz"}
    max_frames : int
        Frames of the animation (evenly spaced in time over the longest run).
    interval : int
        Delay between frames (ms).
    span : float
        Half width (m) of each view around the trunk's initial position.
    height : float
        Top of each view (m).
    figsize : tuple, optional

    Returns
    -------
    IPython.display.HTML
        The offline player of :func:`~spatial.viz.animation_html`; the figure is closed.

    Raises
    ------
    ValueError
        For an unknown plane, no runs, mismatched ``t`` and ``q`` or titles, or
        ``max_frames < 1``.
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation

    i, j = _plane(plane)
    runs = [(real_array(t, "t"), real_array(q, "q")) for t, q in runs]
    if not runs:
        raise ValueError("runs must hold at least one (t, q)")
    if any(q.ndim != 2 or len(t) != len(q) for t, q in runs):
        raise ValueError("each run must be (t of shape (T,), q of shape (T, nq))")
    titles = [""] * len(runs) if titles is None else list(titles)
    if len(titles) != len(runs):
        raise ValueError(f"titles must have one entry per run ({len(runs)})")
    end = max(float(t[-1]) for t, _ in runs)
    clock = np.linspace(0.0, end, frame_count(max_frames))
    figsize = figsize or (3.6 * len(runs), 3.0)
    fig, axes = plt.subplots(1, len(runs), figsize=figsize, dpi=70, squeeze=False)
    axes = axes[0]
    centres = [float(body_poses(model, q[0])[1][i, 3]) for _, q in runs]

    rows = [np.minimum(np.searchsorted(t, clock), len(t) - 1) for t, _ in runs]
    drawn = []
    for ax, (_, q), c in zip(axes, runs, centres, strict=True):
        drawn.append(draw_legged(ax, model, feet, q[0], plane=plane)[:3])
        ax.set(xlim=(c - span, c + span), ylim=(-0.05, height), aspect="equal",
               xlabel=f"{plane[0]} (m)", ylabel="z (m)")  # fmt: skip

    def draw(k):  # move the lines drawn above: re-creating axes every frame is slow
        for ax, (t, q), title, row, (links, joints, tips) in zip(
            axes, runs, titles, rows, drawn, strict=True
        ):
            (xs, ys), at_joints, at_feet = _figure(model, feet, q[row[k]], i, j)
            links.set_data(xs, ys)
            joints.set_data(at_joints[:, 0], at_joints[:, 1])
            tips.set_data(at_feet[:, i], at_feet[:, j])
            ax.set_title(f"{title}  t = {t[row[k]]:.2f} s".strip(), fontsize=9)

    draw(0)
    fig.tight_layout()
    anim = FuncAnimation(fig, draw, frames=len(clock), interval=interval)
    html = animation_html(anim)
    plt.close(fig)
    return html
