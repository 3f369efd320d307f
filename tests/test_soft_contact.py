"""Soft contact (spatial.contact.soft, Featherstone §11.8).

Known values of the force laws (eqs. 11.74, 11.78–11.79 and Hunt–Crossley); the static
penetration ``m g / K`` of a body at rest; sticking below and sliding above the friction
angle; convergence to the rigid stopping distance ``v²/(2 μ g)`` as the stiffness grows; trees
with Free joints equal to free bodies.
"""

import numpy as np
import pytest

import spatial.contact as ct

G = 9.81


def test_normal_force_law():
    f = ct.normal_force([-0.01, -0.01, 0.02, -0.001], [0.0, 0.5, 0.0, 2.0], 1000.0, 10.0)
    assert np.allclose(f, [10.0, 5.0, 0.0, 0.0])  # -K p - D ṗ, clipped at zero


def test_hunt_crossley_force_law():
    f = ct.hunt_crossley_force([-0.04, -0.04, 0.01], [0.0, -0.5, -1.0], 1000.0, 2.0, exponent=1.5)
    assert np.allclose(f, [1000 * 0.04**1.5, 0.04**1.5 * (1000 + 2 * 0.5), 0.0])


def test_friction_force_law():
    x = np.array([[0.001, 0.0], [0.012, 0.0], [0.0, 0.02]])
    slip = np.array([[0.0, 0.0], [0.0, 0.0], [0.3, 0.0]])
    fn = np.array([10.0, 10.0, 10.0])
    f, stick = ct.friction_force(x, slip, fn, 500.0, 10.0, 0.5)
    assert np.allclose(f[0], [-0.5, 0.0]) and stick[0]  # f_stick inside the cone
    assert np.allclose(f[1], [-5.0, 0.0]) and not stick[1]  # |f_stick| = 6 > μ f_n = 5
    f_stick = np.array([-3.0, -10.0])
    assert np.allclose(f[2], 5.0 * f_stick / np.linalg.norm(f_stick)) and not stick[2]


@pytest.mark.parametrize("stiffness", [1e3, 1e4])
def test_static_penetration_is_mg_over_k(stiffness):
    mass = 2.0
    setup = ct.bouncing_ball(0.0, height=1e-3, mass=mass)
    params = ct.SoftContactParams(stiffness, damping=2 * np.sqrt(stiffness * mass))
    h = 0.2 * np.sqrt(mass / stiffness)
    tr = ct.simulate_soft(setup.scene, setup.q0, setup.v0, 1.0, h, params)
    assert np.isclose(tr.penetration[-1], mass * G / stiffness, rtol=1e-6)


def test_hunt_crossley_static_penetration():
    K, n = 1e5, 1.5
    setup = ct.bouncing_ball(0.0, height=1e-3)
    # damping D δⁿ must be comparable to 2 sqrt(k m) at the small static depth δ ≈ 2 mm
    params = ct.SoftContactParams(K, damping=2e6, model="hunt-crossley", exponent=n)
    tr = ct.simulate_soft(setup.scene, setup.q0, setup.v0, 0.3, 1e-3, params)
    assert np.isclose(tr.penetration[-1], (G / K) ** (1 / n), rtol=1e-6)


@pytest.mark.parametrize("tan_theta, sticks", [(0.4, True), (0.6, False)])
def test_soft_friction_sticks_below_and_slides_above_the_friction_angle(tan_theta, sticks):
    mu, K, T = 0.5, 2e4, 0.2
    slope = np.arctan(tan_theta)
    setup = ct.sliding_box(mu=mu, speed=0.0, slope=slope, system="free")
    params = ct.SoftContactParams(K, damping=2 * np.sqrt(K / 4), mu=mu)
    tr = ct.simulate_soft(setup.scene, setup.q0, setup.v0, T, 1e-3, params)
    travel = np.linalg.norm(tr.q[-1, 0, :3, 3] - tr.q[0, 0, :3, 3])
    creep = G * np.sin(slope) / K  # the tangential springs' deflection under the weight
    if sticks:
        assert travel < 2 * creep + G * np.cos(slope) / K
    else:
        a = G * (np.sin(slope) - mu * np.cos(slope))
        assert abs(travel - 0.5 * a * T**2) < 0.05 * 0.5 * a * T**2


def test_soft_sliding_converges_to_the_rigid_stopping_distance():
    mu, v = 0.5, 1.0
    rigid = v**2 / (2 * mu * G)
    errors = []
    for K in (2e3, 2e4):
        setup = ct.sliding_box(mu=mu, speed=v, system="free")
        params = ct.SoftContactParams(K, damping=2 * np.sqrt(K / 4), mu=mu)
        tr = ct.simulate_soft(setup.scene, setup.q0, setup.v0, 0.3, 0.2 * np.sqrt(0.25 / K), params)
        pos = tr.q[:, 0, :3, 3]
        errors.append(abs(abs(pos[-1, 0] - pos[0, 0]) - rigid))
    assert errors[1] < errors[0] and errors[1] < 0.02 * rigid


def test_tree_and_free_bodies_agree_with_soft_contact():
    params = ct.SoftContactParams(1e4, damping=50.0, mu=0.4)
    a = ct.tipping_box(0.3, system="tree")
    b = ct.tipping_box(0.3, system="free")
    ta = ct.simulate_soft(a.scene, a.q0, a.v0, 0.05, 5e-4, params)
    tb = ct.simulate_soft(b.scene, b.q0, b.v0, 0.05, 5e-4, params)
    assert np.allclose(ta.v, tb.v, atol=1e-9)
    assert np.allclose(ta.q[:, 4:], tb.q[:, 0, :3, 3], atol=1e-12)


def test_soft_step_forces_act_equal_and_opposite():
    setup = ct.box_stack(2, system="free")
    q, v = setup.q0, setup.v0
    q = q.copy()
    q[1, 2, 3] -= 1e-3  # push the upper box 1 mm into the lower one
    state = ct.SurfaceState.rest(setup.scene, q)
    f_ext, contacts, fn, _ = ct.soft_contact_forces(
        setup.scene, q, v, state, ct.SoftContactParams(1e4)
    )
    pushing = fn > 0
    assert pushing.sum() == 4 and np.allclose(fn[pushing], 10.0)  # K × 1 mm each
    assert np.all(contacts.predecessor[pushing] == 1) and np.all(contacts.successor[pushing] == 2)
    assert np.allclose(f_ext[1], -f_ext[2]) and np.isclose(f_ext[2, 5], 40.0)
    _, _, state2, info = ct.soft_step(setup.scene, q, v, state, 1e-3, ct.SoftContactParams(1e4))
    assert state2.attached.sum() == 4  # the pushing patches move with the body
    assert info.impact is None and info.fallbacks == 0


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(stiffness=0.0), "stiffness"),
        (dict(stiffness=-1.0), "stiffness"),
        (dict(stiffness=1.0, damping=-1.0), "damping"),
        (dict(stiffness=1.0, mu=-0.1), "mu"),
        (dict(stiffness=1.0, mu=0.5), "tangent_damping"),
        (dict(stiffness=1.0, model="hertzian"), "model"),
        (dict(stiffness=1.0, exponent=0.0), "exponent"),
    ],
)
def test_soft_params_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ct.SoftContactParams(**kwargs)


def test_soft_state_errors():
    setup = ct.bouncing_ball()
    params = ct.SoftContactParams(1e3, 10.0)
    bad = ct.SurfaceState(np.zeros(3), np.zeros((3, 2)), np.zeros(3, dtype=bool))
    with pytest.raises(ValueError, match="patches"):
        ct.soft_step(setup.scene, setup.q0, setup.v0, bad, 1e-3, params)
    with pytest.raises(ValueError, match="SurfaceState"):
        ct.soft_step(setup.scene, setup.q0, setup.v0, None, 1e-3, params)
    with pytest.raises(ValueError, match="SoftContactParams"):
        ct.simulate_soft(setup.scene, setup.q0, setup.v0, 0.1, 1e-3, ct.ContactParams())
    with pytest.raises(ValueError, match="shape"):
        ct.friction_force(np.zeros((2, 2)), np.zeros((2, 1)), np.ones(2), 1.0, 1.0, 0.5)
