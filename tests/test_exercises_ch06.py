"""The value checkers of notebook 06 (06.4, 06.5): a right answer, computed here by another
route, passes; a typical mistake fails with the hint and without the answer; ``...`` is not
attempted."""

import numpy as np
import pytest

import spatial as sp
from spatial.exercises import ch06
from spatial.urdf import example_robot


def test_06_4_D1_of_the_quadruped_by_hand():
    # variable depths: the free joint's six arcs 1..6, each leg's three variables 7, 8, 9
    right = sum(d - 1 for d in range(1, 7)) + 4 * sum(d - 1 for d in (7, 8, 9))
    assert right == 99
    ch06.CHECKS["06.4"](right)
    free_joint_as_one_arc = 4 * (1 + 2 + 3)  # the legs' depths 2, 3, 4 below a single arc
    dense = 18 * 17 // 2  # every entry below the diagonal of an 18 x 18 matrix
    for wrong in (free_joint_as_one_arc, dense, right + 4):
        with pytest.raises(AssertionError, match="Reread §3") as err:
            ch06.CHECKS["06.4"](wrong)
        assert "99" not in str(err.value)
    with pytest.raises(NotImplementedError):
        ch06.CHECKS["06.4"](...)


def test_06_4_the_checkers_model_has_the_stated_shape():
    quad = ch06.quadruped()
    assert quad.nv == 18 and quad.joints[1].nv == 6
    assert [len(quad.children(i)) for i in range(quad.NB + 1)][:2] == [1, 4]


@pytest.mark.parametrize("absent", [False, True])
def test_06_5_the_payload_adds_m_r_squared(monkeypatch, absent):
    if absent:  # the stand-in arm7, as in a notebook without example-robot-data
        import importlib.metadata

        def missing(name):
            raise importlib.metadata.PackageNotFoundError(name)

        monkeypatch.setattr(importlib.metadata, "distribution", missing)
    panda = example_robot("panda.urdf", sp.builders.arm7, quiet=True)
    q = panda.neutral_configuration()
    q[:7] = [0.0, -np.pi / 4, 0.0, -3 * np.pi / 4, 0.0, np.pi / 2, np.pi / 4]
    # r: distance of the flange from joint 1's axis, from the world poses
    pose1, pose7 = sp.body_poses(panda, q)[[1, 7]]
    axis = pose1[:3, :3] @ panda.joints[1].motion_subspace(q[:1])[:3, 0]
    flange = (pose7 @ [0.0, 0.0, 0.107, 1.0])[:3] - pose1[:3, 3]
    r = np.linalg.norm(np.cross(axis, flange))
    right = 2.0 * r**2
    ch06.CHECKS["06.5"](right)
    distance_to_base = 2.0 * np.linalg.norm(flange) ** 2  # r measured to a point, not the axis
    for wrong in (distance_to_base, 2.0 * r, right / 2):
        with pytest.raises(AssertionError, match="Reread §2") as err:
            ch06.CHECKS["06.5"](wrong)
        assert f"{right:.3f}" not in str(err.value)
    with pytest.raises(NotImplementedError):
        ch06.CHECKS["06.5"](...)
