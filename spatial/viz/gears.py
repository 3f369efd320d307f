"""A sketch of a body driven through a gear pair: Featherstone's Example 3.2 (Figure 3.3).

A body ``B`` turns about the z axis at the origin on a revolute joint; a gear wheel of radius
``r`` is fixed to it; a motor ``M`` drives it through a pinion that touches the wheel at
``(-r, 0, 0)``.  The motor's push is a force along y at that point: the joint's *active force*,
while the bearing at the origin supplies the *constraint force* (§3.5).
"""

from __future__ import annotations

import numpy as np

from .._validate import nonnegative_scalar, positive_scalar

__all__ = ["gear_outline", "draw_gear_drive"]


def gear_outline(center, radius: float, angle: float = 0.0, pitch: float = 0.1) -> np.ndarray:
    """Points of a toothed wheel's outline (trapezoidal teeth), as a closed polyline in x-y.

    Parameters
    ----------
    center : array_like, shape (2,)
    radius : float
        Pitch radius (m), > 0; the teeth stick out by a quarter of ``pitch``.
    angle : float
        Rotation of the wheel (rad).
    pitch : float
        Arc length from one tooth to the next (m), > 0; at least six teeth are drawn.

    Returns
    -------
    ndarray, shape (K, 2)

    Raises
    ------
    ValueError
        If ``radius`` or ``pitch`` is not positive.
    """
    radius, pitch = positive_scalar(radius, "radius"), positive_scalar(pitch, "pitch")
    teeth = max(6, int(round(2 * np.pi * radius / pitch)))
    depth = 0.25 * min(pitch, radius)
    phase = np.array([0.0, 0.2, 0.3, 0.7, 0.8])  # root, flank, tip, tip, flank
    rho = np.array([-0.5, -0.5, 0.5, 0.5, -0.5]) * depth + radius
    phi = (np.arange(teeth)[:, None] + phase) * 2 * np.pi / teeth + angle
    phi, rho = phi.ravel(), np.tile(rho, teeth)
    points = np.stack([rho * np.cos(phi), rho * np.sin(phi)], -1) + np.asarray(center, float)
    return np.vstack([points, points[:1]])


def draw_gear_drive(
    ax,
    gear_radius: float = 0.3,
    pinion_radius: float = 0.1,
    angle: float = 0.0,
    *,
    force: float = 1.0,
    arm: float = 0.55,
) -> dict:
    """Sketch Example 3.2: body ``B`` on a revolute joint, driven by motor ``M`` through gears.

    Draws, in the x-y plane: the bearing at the origin, the gear wheel and the body ``B`` (a
    bar fixed to the wheel, turned by ``angle``), the pinion touching the wheel at
    ``(-r, 0)`` with the motor behind it, the tooth force as an arrow along +y at the contact
    point (length ``force`` times ``r``), the bearing's reaction on ``B`` as an arrow along -y
    at the origin (the reaction of a balanced wheel at rest) and the x, y axes.

    Parameters
    ----------
    ax : matplotlib Axes
    gear_radius, pinion_radius : float
        Pitch radii ``r`` of the wheel and of the pinion (m), > 0.
    angle : float
        Joint angle: how far ``B`` and its wheel have turned (rad).
    force : float
        Length of the force arrow in units of ``r`` (0 hides it), ≥ 0.
    arm : float
        Length of the body ``B`` beyond the wheel's centre (m), > 0.

    Returns
    -------
    dict
        The artists by name: ``"gear"``, ``"pinion"``, ``"body"``, ``"motor"``, ``"bearing"``
        and, when drawn, ``"force"`` and ``"reaction"``; and ``"contact"``, the contact point
        ``(-r, 0)``.

    Raises
    ------
    ValueError
        If a radius or ``arm`` is not positive or ``force`` is negative.
    """
    import matplotlib.patches as mpatches

    r = positive_scalar(gear_radius, "gear_radius")
    rp = positive_scalar(pinion_radius, "pinion_radius")
    force, arm = nonnegative_scalar(force, "force"), positive_scalar(arm, "arm")
    pitch = 2 * np.pi * rp / 8  # eight teeth on the pinion, the same pitch on the wheel
    out = {"contact": np.array([-r, 0.0])}
    pc = np.array([-r - rp, 0.0])
    motor = mpatches.FancyBboxPatch(
        pc - 1.4 * rp, 2.8 * rp, 2.8 * rp, boxstyle="round,pad=0.02", fc="0.85", ec="0.4"
    )
    out["motor"] = ax.add_patch(motor)
    ax.text(*(pc + [0.0, -1.9 * rp]), "motor M", ha="center", va="top", fontsize=9)
    spin = -angle * r / rp  # the pinion turns the other way, faster
    (out["pinion"],) = ax.fill(*gear_outline(pc, rp, spin, pitch).T, fc="0.6", ec="0.2")
    (out["gear"],) = ax.fill(*gear_outline((0, 0), r, angle, pitch).T, fc="C0", ec="C0", alpha=0.35)
    tip = arm * np.array([np.cos(angle), np.sin(angle)])
    (out["body"],) = ax.plot([0, tip[0]], [0, tip[1]], color="C0", lw=8, solid_capstyle="round")
    ax.text(*(0.75 * tip + 0.12 * np.array([-tip[1], tip[0]])), "body B", color="C0", fontsize=10)
    (out["bearing"],) = ax.plot(0, 0, "o", ms=9, mfc="white", mec="k", mew=2)
    if force > 0:
        out["force"] = ax.annotate(
            "",
            xy=out["contact"] + [0.0, force * r],
            xytext=out["contact"],
            arrowprops=dict(arrowstyle="-|>", color="C3", lw=2.5),
        )
        ax.text(-r + 0.03, force * r, "tooth force f", color="C3", fontsize=9, va="top")
        out["reaction"] = ax.annotate(
            "",
            xy=(0.0, -force * r),
            xytext=(0.0, 0.0),
            arrowprops=dict(arrowstyle="-|>", color="C2", lw=2.5),
        )
        ax.text(0.03, -force * r, "bearing force", color="C2", fontsize=9, va="bottom")
    for end, name in (((0.9 * r, 0.0), "x"), ((0.0, 0.9 * r), "y")):
        ax.annotate("", xy=end, xytext=(0, 0), arrowprops=dict(arrowstyle="->", color="0.3"))
        ax.text(*(1.08 * np.array(end)), name, color="0.3", fontsize=9)
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    return out
