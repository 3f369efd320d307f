"""Project P1, "A quadruped on the ground": its milestones' checkers (first milestone).

The project stands a quadruped (Solo-12, or the builders' stand-in
:func:`spatial.builders.quadruped`) on flat ground with its four feet as rigid contact points
(Featherstone §11.6, ArtiSynth §0.10) and holds a symmetric posture.

The milestones:

* P1.1 (predict): the vertical ground force under one foot of the standing robot, in N.  In
  equilibrium the four normal forces carry the whole weight (Newton's law for the whole system,
  Featherstone §9.4); for a posture symmetric front/back and left/right each foot carries a
  quarter of it.
"""

from __future__ import annotations

import numpy as np

from .. import builders
from ..model import Model
from . import check_number

__all__ = ["total_mass", "foot_force", "CHECKS"]


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


def foot_force(model: Model | None = None) -> float:
    """The vertical force under each foot of a symmetric standing quadruped, ``m g / 4`` in N."""
    model = builders.quadruped(floating=True) if model is None else model
    g = float(np.linalg.norm(np.asarray(model.gravity, dtype=float)))
    return total_mass(model) * g / 4.0


def check_1(answer) -> None:
    """P1.1: the vertical force under one foot of the standing quadruped (N), within 1 %."""
    check_number(
        answer,
        foot_force(),
        what="the vertical force under one foot, in N",
        reread="§The problem of this project, Featherstone §9.4 (the whole robot's momentum)",
        rtol=1e-2,
    )


CHECKS = {"P1.1": check_1}
