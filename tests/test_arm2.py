"""The two-joint muscle arm (spatial.builders.arm2): moment arms, dynamics, statics, reaching."""

import numpy as np
import pytest

import spatial as sp
from spatial import joints as J
from spatial.builders.arm2 import moment_arms_from_points, two_joint_arm26
from spatial.inertia import mcI
from spatial.vectors import xlt

POSES = [[0.0, 0.3], [0.5, 1.2], [1.1, 0.2], [-0.3, 1.9]]


@pytest.mark.parametrize("q", POSES)
def test_moment_arms_are_minus_the_length_derivative(q):
    arm, q, eps = two_joint_arm26(), np.array(q), 1e-6
    for name in arm.names:
        fd = [-(arm.length(name, q + eps * e) - arm.length(name, q - eps * e)) / (2 * eps)
              for e in np.eye(2)]  # fmt: skip
        assert np.allclose(arm.moment_arms(name, q), fd, atol=1e-8)


def test_signs_of_the_moment_arms_in_the_working_range():
    arm = two_joint_arm26()
    for q in ([0.0, 0.6], [0.4, 1.2], [0.8, 1.8]):
        r = {n: arm.moment_arms(n, q) for n in arm.names}
        assert r["BIClong"][0] > 0 and r["BIClong"][1] > 0  # flexes both joints
        assert r["TRIlong"][0] < 0 and r["TRIlong"][1] < 0  # extends both
        assert abs(r["BRA"][0]) < 1e-12 and r["BRA"][1] > 0  # the elbow only
        assert r["DELT1"][0] > 0 and abs(r["DELT1"][1]) < 1e-12  # the shoulder only


def test_closed_form_dynamics_agree_with_aba():
    arm = two_joint_arm26()
    model = sp.Model(gravity=[0, -9.81, 0])
    model.add_body(
        0,
        J.Revolute("z"),
        xlt([0, 0, 0]),
        mcI(1.864572, [0, -0.180496, 0], np.diag([0.01481, 0.004551, 0.013193])),
    )
    forearm = mcI(1.534315, [0, -0.181479, 0], np.diag([0.019281, 0.001571, 0.020062]))
    model.add_body(1, J.Revolute("z"), xlt([0.0061, -0.2904, 0]), forearm)
    rng = np.random.default_rng(2)
    for _ in range(5):
        q, qd, tau = rng.normal(size=2), rng.normal(size=2), rng.normal(size=2)
        M, bias = arm.mass_matrix_and_bias(q, qd)
        assert np.allclose(np.linalg.solve(M, tau - bias), sp.aba(model, q, qd, tau), atol=1e-10)


def test_vectorised_rigid_forces_match_the_tension_law():
    arm, q, qd, a = two_joint_arm26(), [0.4, 1.0], [0.3, -0.8], [0.2, 0.5, 0.7, 0.1]
    F, _ = arm.rigid_forces(q, qd, a)
    state = arm.muscle_state(q, qd, a)
    assert np.allclose(F, [state[n]["force"] for n in arm.names], rtol=1e-10)


@pytest.mark.parametrize("tendon", ["rigid", "elastic"])
def test_static_excitations_balance_the_arm(tendon):
    arm, q = two_joint_arm26(), np.array([0.3, 1.5])
    a = arm.static_excitations(q)
    assert np.all((a >= 0) & (a <= 1))
    assert np.allclose(arm.static_torque(q, a), 0, atol=1e-6)
    assert np.all(np.linalg.eigvalsh(arm.static_stiffness(q, a) + arm.static_stiffness(q, a).T) < 0)
    # the elastic tendon at its equilibrium carries the fibre's force
    state = arm.muscle_state(q, [0, 0], a, tendon=tendon)
    for m in arm.muscles:
        eq = m.law(float(a[arm.names.index(m.name)]), tendon).equilibrium(arm.length(m.name, q))
        assert np.isclose(eq["tendon_force"], eq["fiber_force"], rtol=1e-9, atol=1e-9)
        assert state[m.name]["fiber_length"] > 0
        if tendon == "rigid":
            assert state[m.name]["tendon_strain"] == pytest.approx(0.0, abs=1e-12)


def test_the_static_excitations_reach_and_hold_the_target():
    from spatial.exercises import p2

    arm = two_joint_arm26()
    a = arm.static_excitations([0.3, 1.5])
    assert p2.reach_error(a) < p2.TOLERANCE
    assert p2.reach_error(np.zeros(4)) > 0.1  # doing nothing does not reach


def test_moment_arms_from_points_matches_a_hand_computed_case():
    # a path from the world point (0.1, 0) to a forearm point straight below the elbow at (0, -1):
    # only the elbow moves it; r_elbow = -(e · (ẑ × (P - E))) with e the unit vector to P
    P = np.array([[0.1, 0.0], [0.0, -1.2]])
    r = moment_arms_from_points(P, [0, 2], [[0, 0], [0, -1.0]])
    e = (P[1] - P[0]) / np.linalg.norm(P[1] - P[0])
    v = np.array([0.2, 0.0])  # ẑ × (0, -0.2)
    assert np.allclose(r, [-(e @ np.array([1.2, 0.0])), -(e @ v)])


def test_bad_input_raises():
    arm = two_joint_arm26()
    with pytest.raises(ValueError, match="muscle"):
        arm.moment_arms("DELT2", [0, 0])
    with pytest.raises(ValueError, match="q must"):
        arm.hand_position([0, 0, 0])
    with pytest.raises(ValueError, match="excitation"):
        arm.simulate([0.1, 0.2, 0.3], [0, 0], 0.1)
    with pytest.raises(ValueError, match="tendon"):
        arm.simulate([0.1] * 4, [0, 0], 0.1, tendon="soft")
    with pytest.raises(ValueError, match="points"):
        moment_arms_from_points([[0, 0]], [0, 1], [[0, 0], [0, 1]])


def test_draw_muscle_arm_draws_bones_and_every_path():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    arm = two_joint_arm26()
    fig, ax = plt.subplots()
    lines = sp.viz.draw_muscle_arm(ax, arm, [0.3, 1.0])
    assert len(lines) == 1 + len(arm.names)
    assert np.allclose(lines[0].get_xydata()[-1], arm.hand_position([0.3, 1.0]))
    plt.close(fig)


def test_elastic_static_torque_sums_the_equilibrium_forces_and_differs_from_rigid():
    # the elastic-tendon balance: each muscle's force at its fibre–tendon equilibrium, times its
    # moment arms, plus gravity and the passive torque
    arm, q = two_joint_arm26(), np.array([0.3, 1.5])
    a = arm.static_excitations(q)
    want = np.zeros(2)
    for m, ai in zip(arm.muscles, a, strict=True):
        F = m.law(float(ai), "elastic").equilibrium(arm.length(m.name, q))["tendon_force"]
        want += float(F) * arm.moment_arms(m.name, q)
    got = arm.static_torque(q, a, tendon="elastic")
    muscles_only = got + arm.mass_matrix_and_bias(q, [0, 0])[1] - arm.passive_torque(q, [0, 0])
    assert np.allclose(muscles_only, want, rtol=1e-9, atol=1e-9)
    # the rigid-tendon excitations do not balance the elastic arm (it settles elsewhere)
    assert np.allclose(arm.static_torque(q, a), 0, atol=1e-6)
    assert np.abs(got).max() > 0.5  # N m
    K = arm.static_stiffness(q, a, tendon="elastic")
    assert K.shape == (2, 2) and np.all(np.isfinite(K))


def test_static_torque_refuses_an_unknown_tendon():
    arm = two_joint_arm26()
    with pytest.raises(ValueError, match="tendon"):
        arm.static_torque([0.0, 1.2], [0.1] * 4, tendon="soft")
