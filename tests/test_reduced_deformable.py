"""Tests for the REDMAX mass-spring coupling (Sueda §2.7)."""

import copy

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import spatial as sp
from spatial import reduced as rd
from spatial.joints import Revolute


def _arm():
    """A 3-D two-link arm with non-trivial inertias (axes x then y)."""
    model = sp.Model()
    I1 = sp.mcI(1.3, [0.1, -0.4, 0.05], np.diag([0.02, 0.03, 0.04]))
    I2 = sp.mcI(0.7, [0.0, -0.3, 0.1], np.diag([0.01, 0.02, 0.015]))
    b1 = model.add_body(0, Revolute("x"), np.eye(6), I1)
    model.add_body(b1, Revolute("y"), sp.xlt([0.2, -0.8, 0.1]), I2)
    return model


STATE = dict(q=np.array([0.4, -0.7]), qd=np.array([1.1, -0.6]), tau=np.array([0.3, -0.2]))


def _node_positions(model, ps, q, x):
    """World positions of all nodes by an independent route (body poses)."""
    T = sp.body_poses(model, q)
    out, free = [], iter(np.asarray(x, dtype=float).reshape(-1, 3))
    for item in ps.attached:
        if item is None:
            out.append(next(free))
        else:
            out.append((T[item[0]] @ np.append(item[1], 1.0))[:3])
    return np.array(out)


def test_attached_point_mass_equals_crba_and_aba():
    model = _arm()
    m, r = 0.9, np.array([0.3, -0.5, 0.2])
    ps = rd.ParticleSystem([m], attached=[(2, r)])
    heavy = copy.deepcopy(model)
    heavy.inertia[2] = sp.composite_inertia([model.inertia[2], sp.point_mass_inertia(m, r)])
    q, qd, tau = STATE["q"], STATE["qd"], STATE["tau"]
    x0 = np.zeros((0, 3))
    M = rd.coupled_mass_matrix(model, ps, q, x0)
    np.testing.assert_allclose(M, sp.crba(heavy, q), atol=1e-10)
    qdd, xdd = rd.coupled_forward_dynamics(model, ps, q, x0, qd, x0, tau)
    np.testing.assert_allclose(qdd, sp.aba(heavy, q, qd, tau), atol=1e-10)
    assert xdd.shape == (0, 3)
    # f_R = τ - C of the heavier model
    f = rd.coupled_force(model, ps, q, x0, qd, x0, tau)
    np.testing.assert_allclose(f, sp.crba(heavy, q) @ sp.aba(heavy, q, qd, tau), atol=1e-10)


def _mixed_system():
    ps = rd.ParticleSystem(
        [0.2, 0.3, 0.25, 0.1],
        attached=[(1, [0.1, -0.3, 0.2]), None, (2, [-0.2, 0.1, 0.4]), (0, [1.0, 0.0, 0.0])],
        springs=[(0, 1), (1, 2), (2, 3)],
        stiffness=[30.0, 20.0, 10.0],
        rest_length=[0.4, 0.5, 0.6],
    )
    x = np.array([[0.5, -0.6, 0.3]])
    xd = np.array([[0.2, -0.4, 0.7]])
    return ps, x, xd


def test_jacobian_maps_velocities_to_finite_difference_of_positions():
    model = _arm()
    ps, x, xd = _mixed_system()
    q, qd = STATE["q"], STATE["qd"]
    J = rd.coupled_jacobian(model, ps, q, x)
    assert J.shape == (12 + 12, 2 + 3)
    v = J @ np.concatenate([qd, xd.ravel()])
    h = 1e-6
    Xp = _node_positions(model, ps, q + h * qd, x + h * xd)
    Xm = _node_positions(model, ps, q - h * qd, x - h * xd)
    np.testing.assert_allclose(v[12:].reshape(-1, 3), (Xp - Xm) / (2 * h), atol=1e-8)
    np.testing.assert_allclose(J[:12, :2], sp.reduced.redmax_jacobian(model, q), atol=1e-14)
    np.testing.assert_allclose(J[21:24], 0.0)  # the world-fixed node does not move


def test_jacobian_dot_is_central_difference_of_jacobian():
    model = _arm()
    ps, x, xd = _mixed_system()
    q, qd = STATE["q"], STATE["qd"]
    Jd = rd.coupled_jacobian_dot(model, ps, q, x, qd, xd)
    h = 1e-6
    Jp = rd.coupled_jacobian(model, ps, q + h * qd, x + h * xd)
    Jm = rd.coupled_jacobian(model, ps, q - h * qd, x - h * xd)
    np.testing.assert_allclose(Jd, (Jp - Jm) / (2 * h), atol=1e-7)
    # the rotation-rate term alone (eq. 2.88) is not enough: J̇_mr must enter too
    assert np.abs(Jd[12:]).max() > 1e-2


def test_rope_on_pendulum_conserves_energy():
    model = sp.Model(gravity=[0.0, -9.81, 0.0])
    model.add_body(0, Revolute("z"), np.eye(6), sp.mcI(1.0, [0.0, -0.5, 0.0], 0.02 * np.eye(3)))
    n = 4
    ps = rd.ParticleSystem(
        [0.1] * n,
        attached=[(1, [0.0, -1.0, 0.0])] + [None] * (n - 1),
        springs=[(i, i + 1) for i in range(n - 1)],
        stiffness=[40.0] * (n - 1),
        rest_length=[0.3] * (n - 1),
    )
    q0, qd0 = np.array([0.8]), np.array([0.0])
    x0 = np.array([[np.sin(0.8) + 0.3 * k, -np.cos(0.8) - 0.05 * k, 0.02 * k] for k in (1, 2, 3)])
    xd0 = np.zeros_like(x0)
    nf = 3 * (n - 1)

    def rhs(t, y):
        q, x, qd, xd = y[:1], y[1 : 1 + nf], y[1 + nf : 2 + nf], y[2 + nf :]
        x, xd = x.reshape(-1, 3), xd.reshape(-1, 3)
        qdd, xdd = rd.coupled_forward_dynamics(model, ps, q, x, qd, xd)
        return np.concatenate([qd, xd.ravel(), qdd, xdd.ravel()])

    def energy(y):
        q, x, qd, xd = y[:1], y[1 : 1 + nf], y[1 + nf : 2 + nf], y[2 + nf :]
        return sum(rd.coupled_energy(model, ps, q, x.reshape(-1, 3), qd, xd.reshape(-1, 3)))

    y0 = np.concatenate([q0, x0.ravel(), qd0, xd0.ravel()])
    sol = solve_ivp(rhs, (0.0, 2.0), y0, method="DOP853", rtol=1e-10, atol=1e-12)
    assert sol.success
    E = np.array([energy(y) for y in sol.y.T])
    T0, V0 = rd.coupled_energy(model, ps, q0, x0, qd0, xd0)
    assert np.abs(E - E[0]).max() <= 1e-7 * (abs(T0) + abs(V0))
    assert np.ptp(sol.y[0]) > 0.5  # it really swings


def test_energy_of_attached_point_matches_heavier_model():
    model = _arm()
    m, r = 0.9, np.array([0.3, -0.5, 0.2])
    ps = rd.ParticleSystem([m], attached=[(2, r)])
    q, qd = STATE["q"], STATE["qd"]
    x0 = np.zeros((0, 3))
    T, V = rd.coupled_energy(model, ps, q, x0, qd, x0)
    heavy = copy.deepcopy(model)
    heavy.inertia[2] = sp.composite_inertia([model.inertia[2], sp.point_mass_inertia(m, r)])
    np.testing.assert_allclose(T, 0.5 * qd @ sp.crba(heavy, q) @ qd, rtol=1e-12)
    # potential: the generalized gravity force is -∂V/∂q (central difference)
    h = 1e-6
    dV = [
        (
            rd.coupled_energy(model, ps, q + h * e, x0, qd, x0)[1]
            - rd.coupled_energy(model, ps, q - h * e, x0, qd, x0)[1]
        )
        / (2 * h)
        for e in np.eye(2)
    ]
    grav = rd.coupled_force(model, ps, q, x0, 0 * qd, x0)
    np.testing.assert_allclose(grav, -np.array(dV), atol=1e-7)
    assert V != 0.0


def test_spring_force_is_minus_energy_gradient():
    model = _arm()
    ps, x, xd = _mixed_system()
    q = STATE["q"]
    f = rd.coupled_force(model, ps, q, x, np.zeros(2), np.zeros_like(xd))
    h = 1e-6
    for k in range(3):
        e = np.zeros(3)
        e[k] = h
        dV = (
            rd.coupled_energy(model, ps, q, x + e, np.zeros(2), xd)[1]
            - rd.coupled_energy(model, ps, q, x - e, np.zeros(2), xd)[1]
        ) / (2 * h)
        assert f[2 + k] == pytest.approx(-dV, abs=1e-6)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(masses=[1.0, -0.5]), "masses must be"),
        (
            dict(masses=[1.0, 1.0], springs=[(0, 2)], stiffness=[1.0], rest_length=[1.0]),
            "spring node indices",
        ),
        (
            dict(masses=[1.0, 1.0], springs=[(1, 1)], stiffness=[1.0], rest_length=[1.0]),
            "spring node indices",
        ),
        (
            dict(masses=[1.0, 1.0], springs=[(0, 1)], stiffness=[-1.0], rest_length=[1.0]),
            "stiffness must hold",
        ),
        (
            dict(masses=[1.0, 1.0], springs=[(0, 1)], stiffness=[1.0], rest_length=[]),
            "rest_length must hold",
        ),
        (dict(masses=[1.0], attached=[]), "one entry per node"),
        (dict(masses=[1.0], attached=[(1, [0.0, 1.0])]), "attachment must be"),
    ],
)
def test_bad_particle_system(kwargs, message):
    with pytest.raises(ValueError, match=message):
        rd.ParticleSystem(**kwargs)


def test_unknown_body_and_bad_state():
    model = _arm()
    ps = rd.ParticleSystem([1.0], attached=[(3, [0.0, 0.0, 0.0])])
    with pytest.raises(ValueError, match="unknown body 3"):
        rd.coupled_mass_matrix(model, ps, STATE["q"], np.zeros((0, 3)))
    ps = rd.ParticleSystem([1.0, 1.0])
    with pytest.raises(ValueError, match=r"x must be a finite array of shape \(2, 3\)"):
        rd.coupled_mass_matrix(model, ps, STATE["q"], np.zeros((1, 3)))
    with pytest.raises(ValueError, match="single configuration"):
        rd.coupled_mass_matrix(model, ps, np.zeros((2, 2)), np.zeros((2, 3)))
    with pytest.raises(TypeError, match="ParticleSystem"):
        rd.coupled_mass_matrix(model, "rope", STATE["q"], np.zeros((2, 3)))


def test_zero_length_spring_is_an_error():
    model = _arm()
    ps = rd.ParticleSystem([1.0, 1.0], springs=[(0, 1)], stiffness=[1.0], rest_length=[0.5])
    x = np.ones((2, 3))
    with pytest.raises(ValueError, match="zero length"):
        rd.coupled_force(model, ps, STATE["q"], x, STATE["qd"], np.zeros((2, 3)))


def test_singular_mass_matrix_is_an_error():
    model = sp.Model()
    model.add_body(0, Revolute("z"), np.eye(6), sp.point_mass_inertia(1.0, [0.0, 0.0, 0.5]))
    ps = rd.ParticleSystem([1.0], attached=[(1, [0.0, 0.0, 0.3])])  # also on the axis
    x0 = np.zeros((0, 3))
    with pytest.raises(ValueError, match="M_R is singular"):
        rd.coupled_forward_dynamics(model, ps, [0.1], x0, [0.2], x0)


def test_particle_system_refuses_float_spring_indices_and_complex_masses():
    with pytest.raises(ValueError, match="springs must be an integer array of node pairs"):
        rd.ParticleSystem([1.0, 1.0], springs=[(0.0, 1.7)], stiffness=[1.0], rest_length=[1.0])
    with pytest.raises(ValueError, match="node 0: attachment body must be a non-negative integer"):
        rd.ParticleSystem([1.0], attached=[(1.5, [0.0, 0.0, 0.0])])
    with pytest.raises(ValueError, match="^masses must be real"):
        rd.ParticleSystem([1.0 + 1j])
