"""Legged robots on the ground (spatial.contact.legged) and the quadruped builder.

Oracles: the URDF round trip of the builder (Solo-12's names, feet as merged fixed links),
hand-placed feet, and Newton's law for the whole robot: joint torques are internal, so the
ground's vertical impulse minus the weight's equals the change of the vertical momentum.
"""

import numpy as np
import pytest

import spatial as sp
import spatial.contact as ct
from spatial import builders
from spatial.urdf import load_urdf, to_urdf

STAND = [0.0, 0.8, -1.6, 0.0, 0.8, -1.6, 0.0, -0.8, 1.6, 0.0, -0.8, 1.6]


def _standing(solo, feet, **place):
    """The posture STAND with the lowest foot on the ground (``ct.stand_on_ground``)."""
    q = solo.neutral_configuration()
    q[7:] = STAND
    return ct.stand_on_ground(solo, q, feet, **place)


def _mass(solo):
    """The robot's mass, summed from its bodies' inertias."""
    return sum(solo.inertia[i][3, 3] for i in range(1, solo.NB + 1))


@pytest.fixture(scope="module")
def solo():
    return load_urdf(to_urdf(builders.quadruped()), floating=True)


def test_quadruped_has_solo12_names_and_feet(solo):
    fixed, floating = builders.quadruped(), builders.quadruped(floating=True)
    assert (fixed.NB, fixed.nv, floating.nv) == (17, 12, 18)
    assert [fixed.names[i] for i in (1, 2, 3, 4, 5)] == [
        "base_link", "FL_SHOULDER", "FL_UPPER_LEG", "FL_LOWER_LEG", "FL_FOOT"
    ]  # fmt: skip
    mass = sum(fixed.inertia[i][3, 3] for i in range(1, fixed.NB + 1))
    assert mass == pytest.approx(2.504)
    assert solo.NB == 13 and solo.nv == 18  # the massless feet merged into the lower legs
    feet = ct.foot_points(solo)
    assert [solo.names[b] for b, _ in feet] == [
        f"{leg}_LOWER_LEG" for leg in ("FL", "FR", "HL", "HR")
    ]
    for (_, p), side in zip(feet, (1, -1, 1, -1), strict=True):
        assert np.allclose(p, [0.0, 0.008 * side, -0.16])
    with pytest.raises(ValueError, match="leg"):
        builders.quadruped(leg=0.0)


def test_feet_scene_and_placement(solo):
    with pytest.raises(ValueError, match="URDF"):
        ct.foot_points(builders.humanoid(floating=True))
    with pytest.raises(ValueError, match="_TOE"):
        ct.foot_points(solo, suffix="_TOE")
    feet = ct.foot_points(solo)
    with pytest.raises(ValueError, match="floating-base"):
        ct.ground_scene(builders.arm7(), feet)
    with pytest.raises(ValueError, match="body 99"):
        ct.ground_scene(solo, [(99, np.zeros(3))])
    q = _standing(solo, feet, height=0.02)
    poses = sp.body_poses(solo, q)
    heights = [(poses[b] @ np.r_[p, 1.0])[2] for b, p in feet]
    assert min(heights) == pytest.approx(0.02, abs=1e-12)
    scene = ct.ground_scene(solo, feet)
    gaps = scene.detect(q).gap
    assert np.allclose(np.sort(gaps[np.isfinite(gaps)]), np.sort(heights), atol=1e-12)
    with pytest.raises(ValueError, match="height"):
        ct.stand_on_ground(solo, q, feet, height=-1.0)


def test_posture_controller_pulls_back_and_damps(solo):
    q_ref = solo.neutral_configuration()
    q_ref[7:] = STAND
    tau = ct.posture_controller(solo, q_ref, stiffness=2.0, damping=0.5)
    q, v = q_ref.copy(), np.zeros(solo.nv)
    assert np.allclose(tau(0.0, q, v), 0.0)
    q[8] += 0.1  # FL hip flexion pushed forward
    v[7] = 1.0
    out = tau(0.0, q, v)
    assert np.allclose(out[:6], 0.0)  # no force on the trunk: it has no motor
    assert out[7] == pytest.approx(-0.2 - 0.5)
    with pytest.raises(ValueError, match="stiffness"):
        ct.posture_controller(solo, q_ref, stiffness=-1.0, damping=0.0)


def test_a_drop_balances_momentum_with_the_ground_impulse(solo):
    feet = ct.foot_points(solo)
    q0 = _standing(solo, feet, height=0.01)
    params = ct.ContactParams(mu=0.8, margin=1e-3)
    hold = ct.posture_controller(solo, q0, stiffness=3.0, damping=0.1)
    run = ct.simulate_legged(
        ct.ground_scene(solo, feet), q0, np.zeros(solo.nv), 0.1, 5e-3, params, hold
    )
    assert run.t[-1] == pytest.approx(0.1) and run.normal.shape == (len(run.t) - 1,)
    assert run.contacts[0] == 0 and run.contacts[-1] == 4  # falls 1 cm, then stands
    assert run.penetration.max() <= params.event_tol
    assert run.cone_violation.max() <= 1e-9 and np.all(run.normal >= -1e-12)
    mass = _mass(solo)
    p_z = sp.centroidal_momentum(solo, run.q[[0, -1]], run.v[[0, -1]]).momentum[:, 5]
    weight = mass * 9.81 * run.t[-1]
    assert abs(run.normal.sum() - weight - (p_z[1] - p_z[0])) < 0.01 * weight
    assert run.normal.sum() > 0.1 * weight  # the ground did push
    with pytest.raises(ValueError, match="duration"):
        ct.simulate_legged(ct.ground_scene(solo, feet), q0, np.zeros(solo.nv), 0.0, 5e-3)


def _old_simulate_legged(scene, q, v, duration, h, p, controller):
    """The former simulate_legged, with its own while-loop over stepping._step (the reference)."""
    from spatial.contact.legged import _cone, _world_tangents
    from spatial.contact.stepping import _step

    k = p.k if p.k is not None else (8 if p.friction == "polyhedral" else 4)
    cone = "polygon" if p.friction in ("polyhedral", "pyramid") else "disk"
    t, start = 0.0, None
    qs, normal, tangent, count, violation = [q], [], [], [], []
    while t < duration - 1e-12:
        tau = controller(t, q, v)
        q, v, info = _step(scene, q, v, min(h, duration - t), p, np.asarray(tau, float), start)
        start, t = info.end, t + info.h
        res, c = info.impulses, info.contacts
        n_step = float(np.sum(res.normal))
        t_step = _world_tangents(res.tangent, c, scene)
        worst = _cone(res.normal, res.tangent, p.mu, cone, k) if len(c) else 0.0
        if info.impact is not None:
            n_step += float(np.sum(info.impact.normal))
            t_step = t_step + _world_tangents(info.impact.tangent, c, scene)
            worst = max(worst, _cone(info.impact.normal, info.impact.tangent, p.mu, cone, k))
        qs.append(q), normal.append(n_step), tangent.append(t_step)
        count.append(len(c)), violation.append(worst)
    return np.array(qs), np.array(normal), np.array(tangent), np.array(count), np.array(violation)


def test_simulate_legged_is_the_one_loop_with_the_old_numbers(solo):
    # the wrapper over sp.simulate reproduces the former hand-written loop to round-off,
    # through a drop with impacts (1 cm), friction and the posture controller
    feet = ct.foot_points(solo)
    q0 = _standing(solo, feet, height=0.01)
    v0 = np.zeros(solo.nv)
    v0[0] = 0.5  # a roll rate too, so that friction works sideways
    params = ct.ContactParams(mu=0.8, margin=1e-3)
    hold = ct.posture_controller(solo, q0, stiffness=3.0, damping=0.1)
    scene = ct.ground_scene(solo, feet)
    run = ct.simulate_legged(scene, q0, v0, 0.08, 5e-3, params, hold)
    qs, normal, tangent, count, violation = _old_simulate_legged(
        scene, q0, v0, 0.08, 5e-3, params, hold
    )
    assert np.allclose(run.q, qs, rtol=0, atol=1e-12)
    assert np.allclose(run.normal, normal, rtol=0, atol=1e-12)
    assert np.allclose(run.tangent, tangent, rtol=0, atol=1e-12)
    assert np.array_equal(run.contacts, count)
    assert np.allclose(run.cone_violation, violation, rtol=0, atol=1e-12)
    assert np.abs(run.tangent).max() > 1e-4  # friction did act
    # and it is sp.simulate with the legged system: the same states
    traj = sp.simulate(ct.legged_system(scene, params), q0, v0, 5e-3, duration=0.08, tau=hold)
    assert np.array_equal(traj.q, run.q) and np.array_equal(traj.records["normal"], run.normal)


def test_simulate_legged_with_soft_contact_balances_momentum(solo):
    # soft contact through the same loop and the same controller: the recorded impulses are
    # the spring-damper forces times h, and Newton's law for the whole robot holds with them
    feet = ct.foot_points(solo)
    q0 = _standing(solo, feet)
    soft = ct.SoftContactParams(stiffness=5e3, damping=20.0, mu=0.8)
    hold = ct.posture_controller(solo, q0, stiffness=3.0, damping=0.1)
    scene = ct.ground_scene(solo, feet)
    run = ct.simulate_legged(scene, q0, np.zeros(solo.nv), 0.1, 1e-3, soft, hold)
    assert run.normal.shape == (100,) and run.tangent.shape == (100, 2)
    assert run.contacts[-1] == 4 and run.penetration[-1] > 1e-5  # the feet sink in
    assert run.cone_violation.max() <= 1e-12  # the patch force stays in the Coulomb disc
    mass = _mass(solo)
    p_z = sp.centroidal_momentum(solo, run.q[[0, -1]], run.v[[0, -1]]).momentum[:, 5]
    weight = mass * 9.81 * run.t[-1]
    # semi-implicit Euler balances momentum to O(h): within 0.1 % of the weight impulse
    assert run.normal.sum() - weight == pytest.approx(p_z[1] - p_z[0], abs=1e-3 * weight)
    assert run.normal.sum() > 0.5 * weight  # the springs carried the robot
    traj = ct.simulate_soft(scene, q0, np.zeros(solo.nv), 0.1, 1e-3, soft)  # no controller
    assert not np.allclose(traj.q[-1], run.q[-1])  # the controller did act
    with pytest.raises(ValueError, match="SoftContactParams"):
        ct.simulate_legged(scene, q0, np.zeros(solo.nv), 0.1, 1e-3, params="soft")
    with pytest.raises(TypeError, match="controller"):
        ct.simulate_legged(scene, q0, np.zeros(solo.nv), 0.1, 1e-3, soft, controller=3.0)


def _fd_foot_jacobian(model, q, feet, eps=1e-6):
    # independent of the package's Jacobians: central differences of the feet's world
    # positions along each velocity variable (q ⊕ ε e_k on the Free joint's manifold)
    def positions(qk):
        poses = sp.body_poses(model, qk)
        return np.concatenate([(poses[b] @ np.r_[p, 1.0])[:3] for b, p in feet])

    J = np.zeros((3 * len(feet), model.nv))
    for k in range(model.nv):
        e = np.zeros(model.nv)
        e[k] = eps
        J[:, k] = positions(model.integrate(q, e, 1.0)) - positions(model.integrate(q, -e, 1.0))
        J[:, k] /= 2 * eps
    return J


def _fd_gravity(model, q, eps=1e-6):
    # the gravity term as the gradient of the potential energy (Featherstone eq. 3.1 at rest)
    g = np.zeros(model.nv)
    for k in range(model.nv):
        e = np.zeros(model.nv)
        e[k] = eps
        up = sp.potential_energy(model, model.integrate(q, e, 1.0))
        down = sp.potential_energy(model, model.integrate(q, -e, 1.0))
        g[k] = (up - down) / (2 * eps)
    return g


@pytest.mark.parametrize("tilt", [0.0, 0.3])
def test_gravity_compensation_solves_the_floating_base_equation_at_rest(solo, tilt):
    feet = ct.foot_points(solo)
    q = solo.neutral_configuration()
    q[7:] = STAND
    q[7:] += tilt * np.array([0.2, -0.5, 0.3, 0.1, 0.4, -0.2, -0.3, 0.2, 0.1, 0.0, -0.4, 0.5])
    q = ct.stand_on_ground(solo, q, feet)
    tau, f = ct.gravity_compensation(solo, q, feet)
    assert tau.shape == (12,) and f.shape == (4, 3)
    # g(q) = Sᵀ τ + J_cᵀ f with an independent Jacobian and gravity term
    J = _fd_foot_jacobian(solo, q, feet)
    residual = _fd_gravity(solo, q) - np.r_[np.zeros(6), tau] - J.T @ f.reshape(-1)
    mass = _mass(solo)
    assert np.abs(residual).max() < 1e-6 * mass * 9.81
    assert f[:, 2].sum() == pytest.approx(mass * 9.81, rel=1e-12)  # the feet carry the weight
    assert np.abs(f[:, :2].sum(0)).max() < 1e-9 * mass  # no net horizontal force


def test_gravity_compensation_of_the_symmetric_stance(solo):
    feet = ct.foot_points(solo)
    q = _standing(solo, feet)
    tau, f = ct.gravity_compensation(solo, q, feet)
    mass = _mass(solo)
    # a symmetric stance: a quarter of the weight straight up under each foot
    assert np.allclose(f[:, 2], mass * 9.81 / 4, rtol=1e-9)
    assert np.all(np.linalg.norm(f[:, :2], axis=1) <= 0.01 * f[:, 2])  # deep in a μ = 0.01 cone
    # mirror symmetry of the legs: left/right abduction torques opposite, flexion torques equal
    legs = tau.reshape(4, 3)
    assert np.allclose(legs[0], legs[1] * [-1, 1, 1], atol=1e-12)
    assert np.allclose(legs[2], legs[3] * [-1, 1, 1], atol=1e-12)
    assert np.abs(legs[:, 2]).min() > 0.1  # the knees carry load
    with pytest.raises(ValueError, match="three or more feet"):
        ct.gravity_compensation(solo, q, feet[:2])
    with pytest.raises(ValueError, match="floating-base"):
        ct.gravity_compensation(builders.arm7(), np.zeros(7), feet)
    with pytest.raises(ValueError, match="one configuration"):
        ct.gravity_compensation(solo, np.stack([q, q]), feet)


def test_gravity_compensation_holds_the_posture_that_pd_alone_lets_sag(solo):
    feet = ct.foot_points(solo)
    q0 = _standing(solo, feet)
    tau_g, _ = ct.gravity_compensation(solo, q0, feet)
    pd = ct.posture_controller(solo, q0, stiffness=3.0, damping=0.1)
    both = ct.posture_controller(solo, q0, stiffness=3.0, damping=0.1, feet=feet)
    assert np.allclose(both(0.0, q0, np.zeros(18)), np.r_[np.zeros(6), tau_g])
    scene = ct.ground_scene(solo, feet)
    params = ct.ContactParams(mu=0.8, margin=1e-3)
    errors = {}
    for name, ctrl in (("pd", pd), ("pd+g", both)):
        run = ct.simulate_legged(scene, q0, np.zeros(solo.nv), 0.3, 5e-3, params, ctrl)
        errors[name] = np.abs(run.q[-1, 7:] - q0[7:]).max()
    assert errors["pd"] > 0.1  # rad: the knees sag by about τ_g / K
    assert errors["pd+g"] < 1e-6  # rad: held


def test_legged_run_until_keeps_states_and_steps_up_to_a_time(solo):
    feet = ct.foot_points(solo)
    q0 = _standing(solo, feet)
    hold = ct.posture_controller(solo, q0, stiffness=3.0, damping=0.1, feet=feet)
    run = ct.simulate_legged(
        ct.ground_scene(solo, feet), q0, np.zeros(solo.nv), 0.05, 5e-3, ct.ContactParams(), hold
    )
    part = run.until(0.02)
    assert np.allclose(part.t, [0.0, 0.005, 0.01, 0.015, 0.02])
    assert np.array_equal(part.q, run.q[:5]) and np.array_equal(
        part.penetration, run.penetration[:5]
    )
    assert np.array_equal(part.normal, run.normal[:4]) and part.tangent.shape == (4, 2)
    assert len(part.contacts) == len(part.cone_violation) == 4
    assert len(run.until(0.0).t) == 1 and len(run.until(0.0).normal) == 0
    assert np.array_equal(run.until(1.0).q, run.q)
    with pytest.raises(ValueError, match="t_end"):
        run.until(-1.0)


def test_a_diverging_legged_run_keeps_its_motion_as_a_legged_run(solo):
    # compliant ground far too stiff for the step: the run blows up; the exception carries
    # the motion up to the last good state as a LeggedRun (records aligned with its states)
    feet = ct.foot_points(solo)
    q0 = _standing(solo, feet, height=0.005)
    stiff = ct.SoftContactParams(stiffness=1e7, damping=0.0, mu=0.0)
    with pytest.raises(sp.SimulationDiverged) as err:
        ct.simulate_legged(ct.ground_scene(solo, feet), q0, np.zeros(solo.nv), 1.0, 5e-3, stiff)
    run = err.value.trajectory
    assert isinstance(run, ct.LeggedRun) and len(run.t) >= 2
    n = len(run.t)
    assert run.q.shape == (n, solo.nq) and run.penetration.shape == (n,)
    assert run.normal.shape == (n - 1,) and run.contacts.shape == (n - 1,)
    assert np.all(np.isfinite(run.q))
