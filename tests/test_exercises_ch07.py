"""The value checkers of notebook 07 (07.4, 07.5): a right answer, computed here by another
route, passes; a typical mistake fails with the hint and without the answer; ``...`` is not
attempted."""

import numpy as np
import pytest

import spatial as sp
from spatial.exercises import ch07
from spatial.urdf import example_robot


def test_07_4_the_box_is_heavy_along_x_and_light_along_y():
    # Example 7.1: I^A's linear diagonal is (m1 + m2, m1, m1 + m2), so a = F / mass per axis
    m1, m2 = 3.0, 1.5
    right = (6.0 / (m1 + m2), 6.0 / m1)
    ch07.CHECKS["07.4"](right)
    rigid = (6.0 / (m1 + m2), 6.0 / (m1 + m2))  # the cylinder welded in its slot
    swapped = (6.0 / m1, 6.0 / (m1 + m2))
    for wrong in (rigid, swapped):
        with pytest.raises(AssertionError, match="Reread §1") as err:
            ch07.CHECKS["07.4"](wrong)
        assert "1.33" not in str(err.value) and "2.0" not in str(err.value)
    with pytest.raises(AssertionError, match="shape"):
        ch07.CHECKS["07.4"](2.0)
    with pytest.raises(NotImplementedError):
        ch07.CHECKS["07.4"](...)


def _kick(model, body):
    # the inertia-matrix method: H q̈ = τ - C at rest, with the knee torque on `body`'s joint
    q = model.neutral_configuration()
    q[7:] = np.resize([0.0, 0.8, -1.6], model.nq - 7)
    tau = np.zeros(model.nv)
    tau[model.v_index[body]] = 1.0
    zero = np.zeros(model.nv)
    qdd = np.linalg.solve(sp.crba(model, q), tau - sp.bias_force(model, q, zero))
    return qdd


@pytest.mark.parametrize("absent", [False, True])
def test_07_5_the_trunk_turns_by_the_crba_solve(monkeypatch, absent):
    if absent:  # the stand-in quadruped, as in a notebook without example-robot-data
        import importlib.metadata

        def missing(name):
            raise importlib.metadata.PackageNotFoundError(name)

        monkeypatch.setattr(importlib.metadata, "distribution", missing)
    model = example_robot("solo12.urdf", sp.builders.quadruped, quiet=True, floating=True)
    qdd = _kick(model, 4)
    right = np.linalg.norm(qdd[:3])
    ch07.CHECKS["07.5"](right)
    knee_itself = abs(qdd[model.v_index[4]][0])  # the knee's own acceleration
    wrong_joint = np.linalg.norm(_kick(model, 3)[:3])  # the thigh instead of the knee
    for wrong in (knee_itself, wrong_joint):
        with pytest.raises(AssertionError, match="Reread §3") as err:
            ch07.CHECKS["07.5"](wrong)
        assert f"{right:.1f}" not in str(err.value)
    with pytest.raises(NotImplementedError):
        ch07.CHECKS["07.5"](...)
