"""Project P1's checkers: the right answer passes, typical mistakes fail without the answer.

Expected values come from the notebook's model (``sp.nb.robot("solo12.urdf", ...)``, the same
as :func:`spatial.exercises.p1.robot`) by routes independent of the checkers: the CRBA's
composite mass, finite differences of foot positions and of the potential energy.
"""

import numpy as np
import pytest

import spatial as sp
import spatial.contact as ct
from spatial import builders
from spatial.exercises import p1
from spatial.urdf import example_robot


@pytest.fixture(scope="module")
def model():
    return example_robot("solo12.urdf", builders.quadruped, quiet=True, floating=True)


def _weight(model):
    # Independent route: the composite-rigid-body inertia of the whole robot about its
    # floating base; its translational block is m·1 (Featherstone §9.3 / ch. 6).
    H = sp.crba(model, model.neutral_configuration())
    return H[3, 3] * 9.81


def test_the_checkers_use_the_notebooks_model(model):
    assert p1.robot().NB == model.NB
    assert p1.total_mass(p1.robot()) * 9.81 == pytest.approx(_weight(model), rel=1e-12)


def test_p1_1_right_answer_passes(model):
    p1.CHECKS["P1.1"](_weight(model) / 4)


@pytest.mark.parametrize("factor", [4.0, 0.5, 1 / 9.81])
def test_p1_1_typical_mistakes_fail_without_answer(model, factor):
    wrong = _weight(model) / 4 * factor
    with pytest.raises(AssertionError) as err:
        p1.CHECKS["P1.1"](wrong)
    assert "reread" in str(err.value).lower() or "§" in str(err.value)
    assert f"{_weight(model) / 4:.3g}" not in str(err.value)


def test_p1_1_not_attempted():
    with pytest.raises(NotImplementedError):
        p1.CHECKS["P1.1"](...)


def test_total_mass_rejects_non_model():
    with pytest.raises(TypeError, match="model"):
        p1.total_mass("solo12")


def test_check_through_nb(model):
    sp.nb.check("P1.1", _weight(model) / 4)
    assert np.isfinite(p1.foot_force())


def test_p1_1_standing_robot_carries_its_weight_on_its_feet(model):
    # The fact P1.1 asks for, by simulation: the rigid-contact quadruped standing still on its
    # four feet; after settling, the ground's vertical impulse per step balances m g h.
    feet = ct.foot_points(model)
    scene = ct.ground_scene(model, feet)
    posture = model.neutral_configuration()
    posture[7:] = p1.STANCE
    q0 = ct.stand_on_ground(model, posture, feet)
    ctrl = ct.posture_controller(model, q0, stiffness=3.0, damping=0.1)
    params = ct.ContactParams(mu=0.8, friction="polyhedral", margin=1e-3)
    run = ct.simulate_legged(scene, q0, np.zeros(model.nv), 0.3, 0.005, params, controller=ctrl)
    # Newton for the whole robot (Featherstone §9.3): ground impulse - m g T = change of p_z
    p_z = sp.centroidal_momentum(model, run.q[[0, -1]], run.v[[0, -1]]).momentum[:, 5]
    weight = _weight(model) * run.t[-1]
    assert run.normal.sum() - weight == pytest.approx(p_z[1] - p_z[0], abs=0.01 * weight)
    assert abs(p_z[1] - p_z[0]) < 0.1 * weight  # nearly at rest: the feet carry the weight
    assert run.contacts[-1] == len(feet)
    assert np.max(run.cone_violation) < 1e-9


# ----------------------------------------------------------------------------- P1.2


def _fd(model, q, feet, eps=1e-6):
    """Central differences along each velocity variable: the feet's world positions (their
    stacked Jacobian) and the potential energy (its gradient, the gravity term at rest)."""

    def positions(qk):
        poses = sp.body_poses(model, qk)
        return np.concatenate([(poses[b] @ np.r_[p, 1.0])[:3] for b, p in feet])

    J, g = np.zeros((3 * len(feet), model.nv)), np.zeros(model.nv)
    for k in range(model.nv):
        e = np.zeros(model.nv)
        e[k] = eps
        up, down = model.integrate(q, e, 1.0), model.integrate(q, -e, 1.0)
        J[:, k] = (positions(up) - positions(down)) / (2 * eps)
        g[k] = (sp.potential_energy(model, up) - sp.potential_energy(model, down)) / (2 * eps)
    return J, g


def _by_hand(model, q, feet):
    """τ and f by an independent route: the six base rows solved by least squares (minimum
    norm) with the finite-difference Jacobian and gravity, then the joint rows."""
    J, g = _fd(model, q, feet)
    f = np.linalg.lstsq(J[:, :6].T, g[:6], rcond=None)[0]
    return g[6:] - J[:, 6:].T @ f, f.reshape(-1, 3)


def _student(kind):
    def gravity_compensation(model, q, feet):
        tau, f = _by_hand(model, q, feet)
        if kind == "no feet":  # forgot the feet's share: τ = g_joints
            _, g = _fd(model, q, feet)
            return g[6:], f
        if kind == "sign":  # τ = -(g_joints - J_jᵀ f)
            return -tau, f
        if kind == "per foot mg":  # each foot carries the whole weight
            return tau, 4 * f
        if kind == "stub":
            raise NotImplementedError
        return tau, f

    return gravity_compensation


def test_p1_2_right_answer_passes(model):
    p1.CHECKS["P1.2"](_student("right"))
    p1.CHECKS["P1.2"](ct.gravity_compensation)  # the package's agrees


def test_p1_2_right_answer_is_the_quarter_weight_in_the_symmetric_stance(model):
    _, q, feet = p1.stances(model)[0]
    tau, f = _by_hand(model, q, feet)
    assert np.allclose(f[:, 2], _weight(model) / 4, rtol=1e-6)
    tau_pkg, f_pkg = ct.gravity_compensation(model, q, feet)
    assert np.allclose(tau_pkg, tau, atol=1e-6) and np.allclose(f_pkg, f, atol=1e-6)


@pytest.mark.parametrize(
    "kind, hint", [("no feet", "joint rows"), ("sign", "joint rows"), ("per foot mg", "weight")]
)
def test_p1_2_typical_mistakes_fail_with_a_hint(model, kind, hint):
    with pytest.raises(AssertionError) as err:
        p1.CHECKS["P1.2"](_student(kind))
    assert hint in str(err.value) and "§9.3" in str(err.value)


def test_p1_2_not_attempted_and_bad_shapes():
    with pytest.raises(NotImplementedError):
        p1.CHECKS["P1.2"](_student("stub"))
    with pytest.raises(AssertionError, match="two arrays"):
        p1.CHECKS["P1.2"](lambda model, q, feet: np.zeros(12))
    with pytest.raises(AssertionError, match="shape"):
        p1.CHECKS["P1.2"](lambda model, q, feet: (np.zeros(18), np.zeros((4, 3))))


# ----------------------------------------------------------------------------- P1.3


def test_p1_3_right_answer_passes(model):
    # closed form at rest: K d = m g / 4 (eq. 11.74 with ṗ = 0), in mm
    depth_mm = 1e3 * _weight(model) / 4 / p1.SOFT_STIFFNESS
    p1.CHECKS["P1.3"](depth_mm)


@pytest.mark.parametrize("factor", [4.0, 1e-3, 1 / 9.81])  # whole weight, metres, no g
def test_p1_3_typical_mistakes_fail_without_answer(model, factor):
    depth_mm = 1e3 * _weight(model) / 4 / p1.SOFT_STIFFNESS
    with pytest.raises(AssertionError) as err:
        p1.CHECKS["P1.3"](depth_mm * factor)
    assert "§11.8" in str(err.value)
    assert f"{depth_mm:.3g}" not in str(err.value)


def test_p1_3_not_attempted_and_bad_stiffness():
    with pytest.raises(NotImplementedError):
        p1.CHECKS["P1.3"](...)
    with pytest.raises(ValueError, match="stiffness"):
        p1.sink_depth(0.0)


def test_p1_3_simulated_sink_depth_matches_the_closed_form(model):
    # soft contact, the posture held with gravity compensation: the feet settle at m g / (4K)
    feet = ct.foot_points(model)
    q = model.neutral_configuration()
    q[7:] = p1.STANCE
    q0 = ct.stand_on_ground(model, q, feet)
    hold = ct.posture_controller(model, q0, stiffness=3.0, damping=0.1, feet=feet)
    soft = ct.SoftContactParams(stiffness=p1.SOFT_STIFFNESS, damping=20.0, mu=0.8)
    run = ct.simulate_legged(
        ct.ground_scene(model, feet), q0, np.zeros(model.nv), 0.4, 1e-3, soft, hold
    )
    depth_mm = 1e3 * _weight(model) / 4 / p1.SOFT_STIFFNESS
    assert 1e3 * run.penetration[-1] == pytest.approx(depth_mm, rel=0.02)
