"""Project P1, "A quadruped on the ground": its milestones' checkers.

The project stands a quadruped (Solo-12 from example-robot-data, or the builders' stand-in
:func:`spatial.builders.quadruped` through URDF, :func:`spatial.urdf.example_robot`: the same
model the notebook loads) on flat ground with its four feet as contact points (Featherstone
§11.6, ArtiSynth §0.10), holds a posture with joint PD control plus gravity compensation, and
compares rigid with compliant contact.

The milestones:

* P1.1 (predict): the vertical ground force under one foot of the standing robot, in N.  In
  equilibrium the four normal forces carry the whole weight (Newton's law for the whole system,
  Featherstone §9.3); for a posture symmetric front/back and left/right each foot carries a
  quarter of it.
* P1.2 (implement): ``gravity_compensation(model, q, feet)`` returning the joint torques ``τ``
  (``nv - 6``) and the feet's world forces ``f`` (``n_feet × 3``) with
  ``g(q) = Sᵀ τ + J_cᵀ f`` (the floating-base equation at rest, Featherstone §9.3 eq. 9.13);
  checked on the notebook's robot in the symmetric stance of :data:`STANCE` and in a lopsided
  one: the full equation and the weight balance.
* P1.3 (predict): with a linear normal spring of stiffness :data:`SOFT_STIFFNESS` per foot
  (Featherstone §11.8, eq. 11.74), how deep do the feet sink at rest, in mm.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from .. import builders
from ..contact.legged import foot_points, stand_on_ground
from ..dynamics import rnea
from ..kinematics import point_jacobian
from ..model import Model
from ..urdf import example_robot
from . import check_number

__all__ = [
    "STANCE",
    "SOFT_STIFFNESS",
    "robot",
    "total_mass",
    "foot_force",
    "sink_depth",
    "CHECKS",
]

#: The standing posture's joint angles (rad), leg by leg FL, FR, HL, HR: abduction, hip, knee.
STANCE = (0.0, 0.8, -1.6, 0.0, 0.8, -1.6, 0.0, -0.8, 1.6, 0.0, -0.8, 1.6)

#: Normal stiffness of the compliant ground under each foot in P1.3 (N/m).
SOFT_STIFFNESS = 5000.0

#: The lopsided stance of P1.2's second case: STANCE plus these joint offsets (rad).
_LOPSIDED = (0.06, -0.15, 0.09, 0.03, 0.12, -0.06, -0.09, 0.06, 0.03, 0.0, -0.12, 0.15)


@lru_cache(maxsize=1)
def robot() -> Model:
    """The project's robot, as the notebook loads it: Solo-12 on a floating base (or its stand-in).

    :func:`spatial.urdf.example_robot` with ``quiet=True`` (the notebook already said which).
    """
    return example_robot("solo12.urdf", builders.quadruped, quiet=True, floating=True)


def total_mass(model: Model) -> float:
    """The robot's total mass in kg: the sum of its bodies' masses.

    Raises
    ------
    TypeError
        If ``model`` is not a :class:`~spatial.model.Model`.
    """
    if not isinstance(model, Model):
        raise TypeError(f"model must be a spatial Model, got {type(model).__name__}")
    return float(sum(np.asarray(model.inertia[i])[5, 5] for i in range(1, model.NB + 1)))


def _gravity(model: Model) -> float:
    return float(np.linalg.norm(np.asarray(model.gravity, dtype=float)))


def foot_force(model: Model | None = None) -> float:
    """The vertical force under each foot of a symmetric standing quadruped, ``m g / 4`` in N.

    ``model`` defaults to :func:`robot`, the notebook's.

    Raises
    ------
    TypeError
        If ``model`` is not a :class:`~spatial.model.Model`.
    """
    model = robot() if model is None else model
    return total_mass(model) * _gravity(model) / 4.0


def sink_depth(stiffness: float = SOFT_STIFFNESS, model: Model | None = None) -> float:
    """How deep (m) the feet of the symmetric stance sink into linear springs of ``stiffness``.

    At rest each spring carries a quarter of the weight, ``K d = m g / 4``.

    Raises
    ------
    ValueError
        If ``stiffness`` is not positive.
    """
    if not stiffness > 0:
        raise ValueError(f"stiffness must be > 0 (N/m), got {stiffness!r}")
    return foot_force(model) / float(stiffness)


def stances(model: Model | None = None) -> list[tuple[str, np.ndarray, list]]:
    """``(name, q, feet)`` of P1.2's cases: the symmetric stance and a lopsided one, each with
    its lowest foot on the ground ``z = 0``."""
    model = robot() if model is None else model
    feet = foot_points(model)
    out = []
    for name, offset in (("the symmetric stance", 0.0), ("a lopsided stance", 1.0)):
        q = model.neutral_configuration()
        q[7:] = np.asarray(STANCE) + offset * np.asarray(_LOPSIDED)
        out.append((name, stand_on_ground(model, q, feet), feet))
    return out


def check_1(answer) -> None:
    """P1.1: the vertical force under one foot of the standing quadruped (N), within 1 %."""
    check_number(
        answer,
        foot_force(),
        what="the vertical force under one foot, in N",
        reread="§The problem of this project, Featherstone §9.3 (the whole robot's momentum)",
        rtol=1e-2,
    )


def check_2(gravity_compensation: Callable) -> None:
    """P1.2: ``gravity_compensation(model, q, feet) -> (tau, f)`` solves ``g = Sᵀτ + J_cᵀ f``."""
    model = robot()
    weight = total_mass(model) * _gravity(model)
    n = model.nv - 6
    for where, q, feet in stances(model):
        out = gravity_compensation(model, q.copy(), list(feet))
        if not isinstance(out, tuple | list) or len(out) != 2:
            raise AssertionError("gravity_compensation must return two arrays: (tau, f)")
        tau, f = (np.asarray(x, dtype=float) for x in out)
        if tau.shape != (n,) or f.shape != (len(feet), 3):
            raise AssertionError(
                f"tau must have shape ({n},) (one torque per actuated joint) and f shape "
                f"({len(feet)}, 3) (a world force per foot); got {tau.shape} and {f.shape}"
            )
        zero = np.zeros(model.nv)
        g = rnea(model, q, zero, zero)
        Jc = np.concatenate([point_jacobian(model, q, int(b), p) for b, p in feet])
        residual = g - np.r_[np.zeros(6), tau] - Jc.T @ f.reshape(-1)
        if abs(f[:, 2].sum() - weight) > 1e-6 * weight:
            raise AssertionError(
                f"in {where} the feet's vertical forces do not add up to the robot's weight: "
                "solve the six floating-base rows of g = Sᵀτ + J_cᵀf for f first (they have no "
                "motor). Reread §P1.2 and Featherstone §9.3, eq. 9.13"
            )
        if np.abs(residual[:6]).max() > 1e-6 * weight:
            raise AssertionError(
                f"in {where} the feet's forces do not balance the weight's moment: all six "
                "floating-base rows of g = J_cᵀ f must hold (force and moment). Reread §P1.2 "
                "and Featherstone §9.3, eq. 9.13"
            )
        if np.abs(residual[6:]).max() > 1e-6 * weight:
            raise AssertionError(
                f"in {where} the joint rows of g = Sᵀτ + J_cᵀ f do not hold: the joints carry "
                "the gravity term minus what the feet's forces already carry through the "
                "legs' Jacobians (sign and transpose). Reread §P1.2 and Featherstone §9.3"
            )


def check_3(answer) -> None:
    """P1.3: the feet's sinking depth at rest on springs of SOFT_STIFFNESS (mm), within 2 %."""
    check_number(
        answer,
        1e3 * sink_depth(),
        what="how deep the feet sink at rest, in mm",
        reread="§P1.3 of this project, Featherstone §11.8 (eq. 11.74 at rest)",
        rtol=2e-2,
    )


CHECKS = {"P1.1": check_1, "P1.2": check_2, "P1.3": check_3}
