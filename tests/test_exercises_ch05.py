"""The value checkers of notebook 05 (05.4, 05.5): a right answer, computed here by another
route, passes; a typical mistake fails with the hint and without the answer; ``...`` is not
attempted."""

import numpy as np
import pytest

import spatial as sp
from spatial.exercises import ch05
from spatial.urdf import example_robot

G = 9.81


def test_05_4_the_horizontal_arm_by_levers():
    # links of 2 kg with centres at 0.25, 0.75, 1.25 m from joint 1, the 1 kg payload at 1.5 m
    right = G * (2.0 * (0.25 + 0.75 + 1.25) + 1.0 * 1.5)
    ch05.CHECKS["05.4"](right)
    forgot_payload = G * 2.0 * (0.25 + 0.75 + 1.25)
    at_link_ends = G * (2.0 * (0.5 + 1.0 + 1.5) + 1.0 * 1.5)
    for wrong in (forgot_payload, at_link_ends, -right):
        with pytest.raises(AssertionError, match="Reread §3") as err:
            ch05.CHECKS["05.4"](wrong)
        assert f"{right:.1f}" not in str(err.value) and f"{right:.2f}" not in str(err.value)
    with pytest.raises(NotImplementedError):
        ch05.CHECKS["05.4"](...)


def _panda_and_pose():
    model = example_robot("panda.urdf", sp.builders.arm7, quiet=True)
    q = model.neutral_configuration()
    q[:7] = [0.0, -np.pi / 4, 0.0, -3 * np.pi / 4, 0.0, np.pi / 2, np.pi / 4]
    return model, q


def test_05_5_the_payload_by_its_jacobian():
    # τ = g(q) - J_pᵀ F with F = m g the payload's weight: the motors carry what F does not
    model, q = _panda_and_pose()
    zero = np.zeros(model.nv)
    bare = sp.rnea(model, q, zero, zero)
    J = sp.point_jacobian(model, q, 7, np.array([0.0, 0.0, 0.107]))
    weight = 2.0 * np.array([0.0, 0.0, -G])
    right = (bare - J.T @ weight)[1]
    ch05.CHECKS["05.5"](right)
    wrong_sign = (bare + J.T @ weight)[1]
    for wrong in (bare[1], wrong_sign):
        with pytest.raises(AssertionError, match="Reread §4") as err:
            ch05.CHECKS["05.5"](wrong)
        assert f"{right:.2f}" not in str(err.value)
    with pytest.raises(NotImplementedError):
        ch05.CHECKS["05.5"](...)


def test_05_5_the_checker_loads_the_stand_in_when_the_robots_are_absent(monkeypatch):
    import importlib.metadata

    def absent(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", absent)
    model, q = _panda_and_pose()
    assert model.nv == 7  # the arm7 stand-in
    zero = np.zeros(model.nv)
    J = sp.point_jacobian(model, q, 7, np.array([0.0, 0.0, 0.107]))
    right = (sp.rnea(model, q, zero, zero) - J.T @ (2.0 * np.array([0.0, 0.0, -G])))[1]
    ch05.CHECKS["05.5"](right)


def test_05_value_exercises_through_the_notebook_helper(monkeypatch):
    monkeypatch.setenv("SPATIAL_NB_STRICT", "1")
    assert sp.nb.check("05.4", G * 6.0)
    assert not sp.nb.check("05.4", ...)


def test_the_checkers_load_a_robot_as_the_notebooks_do(monkeypatch, capsys):
    import importlib.metadata

    try:
        importlib.metadata.distribution("example-robot-data")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("example-robot-data is not installed")
    assert (
        example_robot("panda.urdf", sp.builders.arm7, quiet=True).nv
        == sp.nb.robot("panda.urdf", sp.builders.arm7).nv
    )
    with pytest.raises(FileNotFoundError, match="no file 'nobody.urdf'"):
        example_robot("nobody.urdf", sp.builders.arm7, quiet=True)

    def absent(name):
        raise importlib.metadata.PackageNotFoundError(name)

    capsys.readouterr()
    monkeypatch.setattr(importlib.metadata, "distribution", absent)
    assert (
        example_robot("panda.urdf", sp.builders.arm7, quiet=True).nv == 7
    )  # the stand-in, silently
    assert capsys.readouterr().out == ""
