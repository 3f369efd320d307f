"""Project P2's milestone checkers (spatial.exercises.p2)."""

import numpy as np
import pytest

from spatial.builders.arm2 import two_joint_arm26
from spatial.exercises import p2


def _finite_difference_moment_arms(points, segments, joints):
    # an independent route: move the points by small joint turns and difference the length
    P, seg, Jp = np.asarray(points), np.asarray(segments), np.asarray(joints)
    out = []
    for j in range(2):
        lengths = []
        for eps in (1e-6, -1e-6):
            c, s = np.cos(eps), np.sin(eps)
            R = np.array([[c, -s], [s, c]])
            moved = np.where((seg > j)[:, None], (P - Jp[j]) @ R.T + Jp[j], P)
            lengths.append(np.linalg.norm(np.diff(moved, axis=0), axis=1).sum())
        out.append(-(lengths[0] - lengths[1]) / 2e-6)
    return np.array(out)


def test_p2_1_right_and_wrong():
    p2.CHECKS["P2.1"](_finite_difference_moment_arms)
    with pytest.raises(AssertionError, match="ArtiSynth"):
        p2.CHECKS["P2.1"](lambda p, s, j: -_finite_difference_moment_arms(p, s, j))  # sign
    with pytest.raises(NotImplementedError):

        def stub(p, s, j):
            raise NotImplementedError

        p2.CHECKS["P2.1"](stub)


def test_p2_2_shoulder_flexors():
    # anterior muscles: the biceps' long head and the anterior deltoid (see the drawing)
    p2.CHECKS["P2.2"]({"BIClong", "DELT1"})
    for wrong in ({"BIClong", "BRA"}, {"DELT1"}, {"TRIlong"}):
        with pytest.raises(AssertionError, match="Reread P2.2") as err:
            p2.CHECKS["P2.2"](wrong)
        assert "BIClong', 'DELT1" not in str(err.value)
    with pytest.raises(NotImplementedError):
        p2.CHECKS["P2.2"](...)


def test_p2_3_reach():
    arm = two_joint_arm26()
    # the target pose is (0.3, 1.5) rad; the activations that balance it (rigid tendons)
    assert np.allclose(arm.hand_position([0.3, 1.5]), p2.TARGET, atol=1e-4)
    p2.CHECKS["P2.3"](arm.static_excitations([0.3, 1.5]))
    with pytest.raises(AssertionError, match="Reread P2.3") as err:
        p2.CHECKS["P2.3"](arm.static_excitations(p2.START))  # holding the start instead
    assert "0.3, 1.5" not in str(err.value)
    with pytest.raises(AssertionError, match="4 excitations"):
        p2.CHECKS["P2.3"]([0.1, 0.2])
    with pytest.raises(NotImplementedError):
        p2.CHECKS["P2.3"](...)
