"""Drawing of the two-joint muscle arm of :mod:`spatial.builders.arm2` (project P2)."""

from __future__ import annotations

import numpy as np

__all__ = ["MUSCLE_COLORS", "draw_muscle_arm"]

#: A colour per muscle of :func:`spatial.builders.arm2.two_joint_arm26`.
MUSCLE_COLORS = {
    "BIClong": "tab:red",
    "TRIlong": "tab:blue",
    "BRA": "tab:orange",
    "DELT1": "tab:purple",
}


def draw_muscle_arm(ax, arm, q, alpha: float = 1.0, legend: bool = True) -> list:
    """Draw the humerus and forearm as a thick line and each muscle's path through its points.

    Parameters
    ----------
    ax : matplotlib Axes
    arm : spatial.builders.arm2.TwoJointArm
    q : array_like, shape (2,)
        Shoulder and elbow angles (rad).
    alpha : float
        Opacity of every line.
    legend : bool
        Label the lines (for ``ax.legend``).

    Returns
    -------
    list
        The lines drawn (bones first).

    Raises
    ------
    ValueError
        If ``q`` is not two angles.
    """
    bones = np.vstack([arm.joints(q), arm.hand_position(q)])
    lines = ax.plot(*bones.T, "-o", color="0.3", lw=5, alpha=alpha,
                    label="humerus, forearm" if legend else None)  # fmt: skip
    for name in arm.names:
        P = arm.path_points(name, q)
        lines += ax.plot(*P.T, ".-", color=MUSCLE_COLORS.get(name, "k"), lw=2, alpha=alpha,
                         label=name if legend else None)  # fmt: skip
    ax.set_aspect("equal")
    ax.set_xlabel("x, anterior (m)")
    ax.set_ylabel("y, up (m)")
    return lines
