"""Project P2, "A muscle-driven arm": its problem's numbers and its milestones' checkers.

The arm is :func:`spatial.builders.arm2.two_joint_arm26` (shoulder elevation and elbow, four
muscles on via-point paths, the Millard curves of Millard et al. 2013, first-order
activation).  The milestones:

* P2.1 (implement), ``moment_arms(points, segments, joints)``: the moment arms ``r = -∂l/∂q``
  of a via-point path from its geometry (ArtiSynth §0.18 point attachments, Sueda §1.9.5);
* P2.2 (predict), the set of muscles that flex the shoulder (positive shoulder moment arm);
* P2.3 (model), constant excitations that bring the hand from :data:`START` to :data:`TARGET`
  and hold it there: the checker simulates them for :data:`HORIZON` seconds and asks the hand to
  stay within :data:`TOLERANCE` of the target over the last :data:`HOLD` seconds.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..builders.arm2 import two_joint_arm26

__all__ = ["START", "TARGET", "HORIZON", "HOLD", "TOLERANCE", "DT", "reach_error", "CHECKS"]

#: The arm's pose at rest when the reach starts (rad): humerus hanging, elbow at 1.2 rad.
START = np.array([0.0, 1.2])
#: The target of the hand (m, world, shoulder at the origin): where the hand is at q = (0.3, 1.5).
TARGET = np.round(two_joint_arm26().hand_position([0.3, 1.5]), 4)
HORIZON, HOLD, TOLERANCE, DT = 2.0, 0.5, 0.02, 5e-3


def reach_error(excitations) -> float:
    """Largest distance (m) of the hand from :data:`TARGET` over the last :data:`HOLD` s of a
    :data:`HORIZON`-second run from rest at :data:`START` with constant ``excitations``.

    Raises
    ------
    ValueError
        If ``excitations`` is not one number in [0, 1] per muscle.
    """
    arm = two_joint_arm26()
    run = arm.simulate(np.asarray(excitations, dtype=float), START, HORIZON, dt=DT)
    last = run["t"] >= HORIZON - HOLD - 1e-12
    return float(np.linalg.norm(run["hand"][last] - TARGET, axis=1).max())


def _not_attempted(answer) -> None:
    if answer is ...:
        raise NotImplementedError


def check_moment_arms(moment_arms: Callable) -> None:
    """P2.1: ``moment_arms(points, segments, joints)`` against the package at several poses."""
    arm = two_joint_arm26()
    for q in ([0.0, 0.3], [0.5, 1.2], [1.1, 0.2], [-0.3, 1.9]):
        for m in arm.muscles:
            pts = arm.path_points(m.name, q)
            got = np.asarray(moment_arms(pts, m.segments, arm.joints(q)), dtype=float)
            want = arm.moment_arms(m.name, q)
            if got.shape != (2,) or not np.allclose(got, want, rtol=1e-6, atol=1e-9):
                raise AssertionError(
                    f"{m.name} at q = {q}: moment arms should be {want}, got {got}. Reread P2.1: "
                    "a point moves with joint j only if its segment is beyond j, at ẑ × (P - J_j); "
                    "r_j = -∂l/∂q_j (ArtiSynth §0.18)"
                )


def check_shoulder_flexors(answer) -> None:
    """P2.2: the set of muscle names whose shoulder moment arm is positive (at :data:`START`)."""
    _not_attempted(answer)
    arm = two_joint_arm26()
    options = set(arm.names)
    if isinstance(answer, str) or not all(isinstance(a, str) for a in answer):
        raise AssertionError(f"answer a set of names from {sorted(options)}")
    got = set(answer)
    if not got <= options:
        raise AssertionError(f"answer a set of names from {sorted(options)}")
    want = {m.name for m in arm.muscles if arm.moment_arms(m.name, START)[0] > 0}
    if got != want:
        raise AssertionError(
            "not that set. Reread P2.2 and the picture: a muscle flexes the shoulder when its "
            "line passes in front of (anterior to) the shoulder joint"
        )


def check_reach(answer) -> None:
    """P2.3: constant excitations that hold the hand within 2 cm of :data:`TARGET`."""
    _not_attempted(answer)
    u = np.asarray(answer, dtype=float)
    if u.shape != (4,) or np.any((u < 0) | (u > 1)):
        raise AssertionError("answer 4 excitations in [0, 1] (BIClong, TRIlong, BRA, DELT1)")
    err = reach_error(u)
    if not err <= TOLERANCE:
        raise AssertionError(
            f"the hand ends {err * 100:.1f} cm from the target (tolerance 2 cm). Reread P2.3: "
            "find the joint angles of the target first, then the activations that balance "
            "gravity and the passive torque there"
        )


CHECKS = {
    "P2.1": check_moment_arms,
    "P2.2": check_shoulder_flexors,
    "P2.3": check_reach,
}
