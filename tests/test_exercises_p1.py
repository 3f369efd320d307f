"""Project P1's checkers: the right answer passes, typical mistakes fail without the answer."""

import numpy as np
import pytest

import spatial as sp
from spatial import builders
from spatial.exercises import p1


def _weight_per_foot():
    # Independent route: the composite-rigid-body inertia of the whole robot about its
    # floating base; its translational block is m·1 (Featherstone §9.4 / ch. 6).
    model = builders.quadruped(floating=True)
    H = sp.crba(model, model.neutral_configuration())
    m = H[3, 3]
    return m * 9.81 / 4.0


def test_p1_1_right_answer_passes():
    p1.CHECKS["P1.1"](_weight_per_foot())


@pytest.mark.parametrize("factor", [4.0, 0.5, 1 / 9.81])
def test_p1_1_typical_mistakes_fail_without_answer(factor):
    wrong = _weight_per_foot() * factor
    with pytest.raises(AssertionError) as err:
        p1.CHECKS["P1.1"](wrong)
    assert "reread" in str(err.value).lower() or "§" in str(err.value)
    assert f"{_weight_per_foot():.3g}" not in str(err.value)


def test_p1_1_not_attempted():
    with pytest.raises(NotImplementedError):
        p1.CHECKS["P1.1"](...)


def test_total_mass_rejects_non_model():
    with pytest.raises(TypeError, match="model"):
        p1.total_mass("solo12")


def test_check_through_nb():
    sp.nb.check("P1.1", _weight_per_foot())
    assert np.isfinite(p1.foot_force())


def test_p1_1_standing_robot_carries_its_weight_on_its_feet():
    # The fact P1.1 asks for, by simulation: the rigid-contact quadruped standing still on its
    # four feet; after settling, the ground's vertical impulse per step balances m g h.
    from spatial.contact import legged

    model = sp.nb.robot("solo12.urdf", builders.quadruped, floating=True)
    feet = legged.foot_points(model)
    scene = legged.ground_scene(model, feet)
    posture = model.neutral_configuration()
    posture[7:] = [0.0, 0.8, -1.6, 0.0, 0.8, -1.6, 0.0, -0.8, 1.6, 0.0, -0.8, 1.6]  # knees bent
    q0 = legged.stand_on_ground(model, posture, feet)
    ctrl = legged.posture_controller(model, q0, stiffness=3.0, damping=0.1)
    params = sp.contact.ContactParams(mu=0.8, friction="polyhedral", margin=1e-3)
    h = 0.002
    run = legged.simulate_legged(scene, q0, np.zeros(model.nv), 0.3, h, params, controller=ctrl)
    # Newton for the whole robot (Featherstone §9.4): ground impulse - m g T = change of p_z
    p_z = sp.centroidal_momentum(model, run.q[[0, -1]], run.v[[0, -1]]).momentum[:, 5]
    weight = 4 * p1.foot_force(model) * run.t[-1]
    assert run.normal.sum() - weight == pytest.approx(p_z[1] - p_z[0], abs=0.01 * weight)
    assert abs(p_z[1] - p_z[0]) < 0.1 * weight  # nearly at rest: the feet carry the weight
    assert run.contacts[-1] == len(feet)
    assert np.max(run.cone_violation) < 1e-9
