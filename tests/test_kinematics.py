"""Tests of spatial.kinematics (Featherstone Examples 4.3–4.4, eqs. 4.6, 5.7–5.8; Sueda §2.1–2.2).

Every derivative is checked against a central finite difference along the path
``q(t) = model.integrate(q, qd, t)`` (constant velocity variables, so ``q̈ = 0``; quaternion
joints stay on the unit sphere), known values are computed by hand, and the energy and
momentum functions are checked against the dynamics (CRBA, RNEA, ABA).
"""

import numpy as np
import pytest

import spatial as sp
from spatial import kinematics as kin
from spatial.builders import from_dh, random_tree, renumber
from spatial.joints import Prismatic, Revolute

ALL_JOINTS = ("R", "P", "H", "C", "PL", "SY", "S", "FREE", "RP", "F", "~RP", "~H", "~PL")
H = 1e-6  # central-difference step: truncation ~H², round-off ~1e-16/H


def assert_close(got, expected, tol):
    """Max-norm error relative to the size of ``expected`` (at least 1)."""
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    err = np.abs(got - expected).max(initial=0.0)
    assert err <= tol * max(1.0, np.abs(expected).max(initial=0.0)), err


def central_difference(f, h=H):
    return (f(h) - f(-h)) / (2 * h)


@pytest.fixture(params=[0, 1, 2])
def tree(request):
    """A random branched tree with every joint type, a random state and point."""
    rng = np.random.default_rng(400 + request.param)
    model = random_tree(rng, 8, joints=ALL_JOINTS, branching=0.6, floating=request.param == 2)
    q = model.random_configuration(rng)
    qd = rng.standard_normal(model.nv)
    qdd = rng.standard_normal(model.nv)
    return model, q, qd, qdd, rng.standard_normal(3)


def world_point(model, q, body, p):
    """World coordinates of the body-fixed point ``p`` through the 4x4 body pose."""
    return (kin.body_poses(model, q)[..., body, :, :] @ np.append(p, 1.0))[..., :3]


# ----------------------------------------------------------------------------- positions


def test_two_link_planar_arm_by_hand():
    """End-effector position and point Jacobian of an R-R planar arm, in closed form."""
    l1, l2 = 0.7, 0.4
    I = sp.mcI(1.0, [0.3, 0.0, 0.0], np.eye(3))
    model = sp.Model()
    model.add_body(0, Revolute("z"), np.eye(6), I, name="upper")
    model.add_body(1, Revolute("z"), sp.xlt([l1, 0.0, 0.0]), I, name="fore")
    q1, q2 = 0.4, -1.1
    s1, c1, s12, c12 = np.sin(q1), np.cos(q1), np.sin(q1 + q2), np.cos(q1 + q2)
    tip = np.array([l2, 0.0, 0.0])
    assert_close(
        world_point(model, [q1, q2], 2, tip), [l1 * c1 + l2 * c12, l1 * s1 + l2 * s12, 0], 1e-14
    )
    J_expected = [[-l1 * s1 - l2 * s12, -l2 * s12], [l1 * c1 + l2 * c12, l2 * c12], [0.0, 0.0]]
    assert_close(kin.point_jacobian(model, [q1, q2], "fore", tip), J_expected, 1e-14)
    # the body's angular velocity is q̇1 + q̇2 about z, in either frame
    J = kin.body_jacobian(model, [q1, q2], 2)
    assert_close(J[:3], [[0, 0], [0, 0], [1, 1]], 1e-15)


def _dh_hand(a, alpha, d, theta):
    """Craig-style 4x4 link transform TransX(a) RotX(α) TransZ(d) RotZ(θ) (Featherstone §4.3)."""
    ca, sa, ct, st = np.cos(alpha), np.sin(alpha), np.cos(theta), np.sin(theta)
    return np.array(
        [
            [ct, -st, 0.0, a],
            [ca * st, ca * ct, -sa, -sa * d],
            [sa * st, sa * ct, ca, ca * d],
            [0.0, 0.0, 0.0, 1.0],
        ]
    )


def test_dh_arm_matches_hand_computation():
    a = np.array([0.0, 0.3, 0.25, 0.0])
    alpha = np.array([0.0, -np.pi / 2, 0.0, np.pi / 2])
    d = np.array([0.1, 0.0, 0.05, 0.2])
    theta = np.array([0.0, 0.3, 0.0, -0.2])
    types = ["R", "R", "P", "R"]
    base_d, base_theta = 0.5, 0.25
    model = from_dh(a, alpha, d, theta, joint_types=types, base_d=base_d, base_theta=base_theta)
    q = np.array([0.7, -0.4, 0.15, 1.2])
    E = _dh_hand(0.0, 0.0, base_d, base_theta)  # base placement: TransZ(d0) RotZ(θ0)
    poses, X0 = kin.body_poses(model, q), kin.forward_kinematics(model, q)
    for i in range(4):
        var_d = d[i] + (q[i] if types[i] == "P" else 0.0)
        var_theta = theta[i] + (q[i] if types[i] == "R" else 0.0)
        E = E @ _dh_hand(a[i], alpha[i], var_d, var_theta)
        assert_close(poses[i + 1], E, 1e-13)
        # ^iX_0 = rot(Rᵀ) xlt(p), built from the hand frame (Featherstone eq. 2.24)
        assert_close(X0[i + 1], sp.plux(E[:3, :3].T, E[:3, 3]), 1e-13)


def test_forward_kinematics_row_zero_and_shape(tree):
    model, q, *_ = tree
    X0 = kin.forward_kinematics(model, q)
    assert X0.shape == (model.NB + 1, 6, 6)
    assert np.array_equal(X0[0], np.eye(6))
    # each ^iX_0 is the parent's composed with ^iX_λ(i) = X_J X_T(i) (Example 4.3)
    for i in range(1, model.NB + 1):
        X_J = model.joints[i].transform(q[model.q_index[i]])
        assert_close(X0[i], X_J @ model.X_tree[i] @ X0[model.parent[i]], 1e-12)


def test_body_poses_agree_with_forward_kinematics(tree):
    model, q, *_ = tree
    poses, X0 = kin.body_poses(model, q), kin.forward_kinematics(model, q)
    assert poses.shape == (model.NB + 1, 4, 4)
    assert np.array_equal(poses[0], np.eye(4))
    for i in range(model.NB + 1):
        # Sueda's Ad(T_0i) is ^0X_i = (^iX_0)⁻¹, and pluho(^iX_0) is the inverse frame T_i0
        assert_close(sp.Ad(poses[i]), np.linalg.inv(X0[i]), 1e-12)
        assert_close(sp.pluho(X0[i]) @ poses[i], np.eye(4), 1e-12)
        # a world point seen from body i: T_0i maps body coordinates to world coordinates
        p_world = np.array([0.3, -1.2, 0.8])
        p_body = sp.transform_point(X0[i], p_world)
        assert_close((poses[i] @ np.append(p_body, 1.0))[:3], p_world, 1e-12)


# ----------------------------------------------------------------------------- velocities


def test_jacobian_times_qd_is_body_velocity(tree):
    model, q, qd, *_ = tree
    v = kin.body_velocities(model, q, qd)
    v0 = kin.body_velocities(model, q, qd, frame="world")
    X0 = kin.forward_kinematics(model, q)
    assert np.array_equal(v[0], np.zeros(6))
    for i in range(model.NB + 1):
        assert_close(kin.body_jacobian(model, q, i) @ qd, v[i], 1e-12)
        assert_close(kin.body_jacobian(model, q, i, frame="world") @ qd, v0[i], 1e-12)
        assert_close(np.linalg.solve(X0[i], v[i]), v0[i], 1e-12)


def test_jacobian_columns_vanish_off_the_support(tree):
    """Column block j of J_i is nonzero only for joints j ∈ κ(i) (Featherstone eq. 4.6)."""
    model, q, *_ = tree
    for i in range(1, model.NB + 1):
        J = kin.body_jacobian(model, q, i)
        for j in range(1, model.NB + 1):
            if j not in model.support(i):
                assert np.array_equal(J[:, model.v_index[j]], 0 * J[:, model.v_index[j]])


def test_body_velocity_is_derivative_of_pose(tree):
    """The body twist from the recursion equals E⁻¹ Ė of the 4x4 pose (Sueda eq. 1.8)."""
    model, q, qd, *_ = tree
    v = kin.body_velocities(model, q, qd)
    E = kin.body_poses(model, q)
    E_dot = central_difference(lambda t: kin.body_poses(model, model.integrate(q, qd, t)))
    for i in range(1, model.NB + 1):
        assert_close(sp.unbracket(np.linalg.solve(E[i], E_dot[i])), v[i], 1e-7)


def test_point_jacobian_is_derivative_of_point_position(tree):
    model, q, qd, _, p = tree
    for i in range(model.NB + 1):
        fd = central_difference(lambda t, i=i: world_point(model, model.integrate(q, qd, t), i, p))
        assert_close(kin.point_jacobian(model, q, i, p) @ qd, fd, 1e-7)


# ----------------------------------------------------------------------------- accelerations


def test_body_accelerations_are_derivatives_of_velocities(tree):
    """a_i = d/dt v_i along q(t) with q̈ ≠ 0, in body and in world coordinates."""
    model, q, qd, qdd, _ = tree
    for frame in ("body", "world"):
        a = kin.body_accelerations(model, q, qd, qdd, frame=frame)
        fd = central_difference(
            lambda t, f=frame: kin.body_velocities(
                model, model.integrate(q, qd, t), qd + t * qdd, frame=f
            )
        )
        assert_close(a, fd, 1e-7)
        assert np.array_equal(a[0], np.zeros(6))


def test_jdot_qdot_is_derivative_of_jacobian_times_qd(tree):
    model, q, qd, _, p = tree
    a0 = kin.body_accelerations(model, q, qd, np.zeros(model.nv))
    for i in range(model.NB + 1):
        for frame in ("body", "world"):
            fd = central_difference(
                lambda t, i=i, f=frame: (
                    kin.body_jacobian(model, model.integrate(q, qd, t), i, frame=f) @ qd
                )
            )
            assert_close(kin.jdot_qdot(model, q, qd, i, frame=frame), fd, 1e-7)
        assert_close(kin.jdot_qdot(model, q, qd, i), a0[i], 1e-13)
        # the classical acceleration of a body-fixed point
        fd = central_difference(
            lambda t, i=i: kin.point_jacobian(model, model.integrate(q, qd, t), i, p) @ qd
        )
        assert_close(kin.jdot_qdot(model, q, qd, i, point=p), fd, 1e-7)
        assert_close(kin.jdot_qdot(model, q, qd, i, frame="world", point=p), fd, 1e-7)


def test_point_acceleration_by_hand_on_a_spinning_arm():
    """Uniform rotation at ω: the tip accelerates centripetally, -ω² r (classical, not spatial)."""
    model = sp.Model()
    model.add_body(0, Revolute("z"), np.eye(6), sp.mcI(1.0, [0.5, 0, 0], np.eye(3)))
    q, w, r = 0.3, 2.0, 1.5
    tip_world = r * np.array([np.cos(q), np.sin(q), 0.0])
    assert_close(kin.jdot_qdot(model, [q], [w], 1, point=[r, 0, 0]), -(w**2) * tip_world, 1e-14)
    # the spatial acceleration of a body in pure rotation about a fixed axis is zero
    assert_close(kin.jdot_qdot(model, [q], [w], 1), np.zeros(6), 1e-15)


# ----------------------------------------------------------------------------- energy, momentum


def test_kinetic_energy_matches_sum_over_bodies_and_crba(tree):
    model, q, qd, *_ = tree
    v = kin.body_velocities(model, q, qd)
    by_bodies = 0.5 * sum(v[i] @ model.inertia[i] @ v[i] for i in range(1, model.NB + 1))
    assert_close(kin.kinetic_energy(model, q, qd), by_bodies, 1e-13)
    H_matrix = sp.crba(model, q)
    assert_close(kin.kinetic_energy(model, q, qd), 0.5 * qd @ H_matrix @ qd, 1e-12)
    # ½ h·v per body: total momentum dotted with world velocities (Featherstone §2.12)
    v0 = kin.body_velocities(model, q, qd, frame="world")
    X0 = kin.forward_kinematics(model, q)
    half_hv = 0.5 * sum((X0[i].T @ model.inertia[i] @ v[i]) @ v0[i] for i in range(1, model.NB + 1))
    assert_close(half_hv, by_bodies, 1e-12)


def test_potential_energy_gradient_is_gravity_torque(tree):
    """∂V/∂q (in velocity variables, through integrate) equals rnea(q, 0, 0) = τ_g."""
    model, q, *_ = tree
    tau_g = sp.rnea(model, q, np.zeros(model.nv), np.zeros(model.nv))
    grad = [
        central_difference(lambda t, e=e: kin.potential_energy(model, model.integrate(q, e, t)))
        for e in np.eye(model.nv)
    ]
    assert_close(grad, tau_g, 1e-7)


def test_two_body_center_of_mass_and_potential_by_hand():
    """A revolute body and a body sliding along it: centre of mass and V by hand."""
    m1, m2, a, L, b = 2.0, 0.5, 0.4, 1.0, 0.2
    model = sp.Model(gravity=[0.0, -9.81, 0.0])
    model.add_body(0, Revolute("z"), np.eye(6), sp.mcI(m1, [a, 0, 0], 0.1 * np.eye(3)))
    model.add_body(1, Prismatic("x"), sp.xlt([L, 0, 0]), sp.mcI(m2, [0, b, 0], 0.1 * np.eye(3)))
    q1, q2 = 0.6, 0.3
    c, s = np.cos(q1), np.sin(q1)
    c1 = np.array([a * c, a * s, 0.0])
    c2 = np.array([(L + q2) * c - b * s, (L + q2) * s + b * c, 0.0])
    com, mass = kin.center_of_mass(model, [q1, q2])
    assert mass == m1 + m2
    assert_close(com, (m1 * c1 + m2 * c2) / (m1 + m2), 1e-14)
    # V = weight × height of the centre of mass above the base origin (gravity along -y)
    assert_close(kin.potential_energy(model, [q1, q2]), 9.81 * (m1 * c1[1] + m2 * c2[1]), 1e-14)


def test_linear_momentum_is_mass_times_com_velocity(tree):
    model, q, qd, *_ = tree
    h = kin.momentum(model, q, qd)
    com_dot = central_difference(lambda t: kin.center_of_mass(model, model.integrate(q, qd, t))[0])
    _, mass = kin.center_of_mass(model, q)
    assert_close(h[3:], mass * com_dot, 1e-7)


@pytest.mark.parametrize("gravity", [(0.0, 0.0, 0.0), (0.0, 0.0, -9.81)])
def test_momentum_rate_of_a_floating_tree_is_the_weight(gravity):
    """Without joint torques, dh/dt = Σ external forces = weight acting at the centre of mass.

    With gravity off, momentum is conserved.  The rate is a central difference along the
    state path of the forward dynamics (q̇ ↔ qd, q̈ = aba(q, qd, 0)).
    """
    rng = np.random.default_rng(450)
    model = random_tree(rng, 7, joints=ALL_JOINTS, floating=True, gravity=gravity)
    q, qd = model.random_configuration(rng), rng.standard_normal(model.nv)
    qdd = sp.aba(model, q, qd, np.zeros(model.nv))
    h_dot = central_difference(
        lambda t: kin.momentum(model, model.integrate(q, qd, t), qd + t * qdd)
    )
    com, mass = kin.center_of_mass(model, q)
    weight = mass * np.asarray(gravity)
    assert_close(h_dot, np.concatenate([np.cross(com, weight), weight]), 1e-6)


def test_results_do_not_depend_on_the_numbering(tree):
    """Another regular numbering of the same tree (§4.1.2) gives the same physics."""
    model, q, qd, *_ = tree
    rng = np.random.default_rng(7)
    order, placed = [], {0}
    while len(order) < model.NB:  # a random order in which parents precede children
        ready = [i for i in range(1, model.NB + 1) if i not in placed and model.parent[i] in placed]
        order.append(int(rng.choice(ready)))
        placed.add(order[-1])
    new, q_perm, v_perm = renumber(model, order)
    q2, qd2 = q[q_perm], qd[v_perm]
    v, v2 = kin.body_velocities(model, q, qd), kin.body_velocities(new, q2, qd2)
    assert_close(v2[1:], v[order], 1e-12)
    for f in (kin.kinetic_energy, kin.momentum):
        assert_close(f(new, q2, qd2), f(model, q, qd), 1e-12)
    assert_close(kin.center_of_mass(new, q2)[0], kin.center_of_mass(model, q)[0], 1e-12)


# ----------------------------------------------------------------------------- batching


def test_batched_equals_looped():
    rng = np.random.default_rng(460)
    model = random_tree(rng, 6, joints=ALL_JOINTS, branching=0.6)
    q = model.random_configuration(rng, (2, 3))
    qd, qdd = rng.standard_normal((2, 3, model.nv)), rng.standard_normal((2, 3, model.nv))
    p = rng.standard_normal((2, 3, 3))
    body = model.NB
    batched = {
        "fk": kin.forward_kinematics(model, q),
        "poses": kin.body_poses(model, q),
        "v": kin.body_velocities(model, q, qd, frame="world"),
        "a": kin.body_accelerations(model, q, qd, qdd),
        "J": kin.body_jacobian(model, q, body, frame="world"),
        "jdqd": kin.jdot_qdot(model, q, qd, body),
        "jdqd_p": kin.jdot_qdot(model, q, qd, body, point=p),
        "Jp": kin.point_jacobian(model, q, body, p),
        "T": kin.kinetic_energy(model, q, qd),
        "V": kin.potential_energy(model, q),
        "h": kin.momentum(model, q, qd),
        "com": kin.center_of_mass(model, q)[0],
    }
    for idx in np.ndindex(2, 3):
        x, xd, xdd, pt = q[idx], qd[idx], qdd[idx], p[idx]
        looped = {
            "fk": kin.forward_kinematics(model, x),
            "poses": kin.body_poses(model, x),
            "v": kin.body_velocities(model, x, xd, frame="world"),
            "a": kin.body_accelerations(model, x, xd, xdd),
            "J": kin.body_jacobian(model, x, body, frame="world"),
            "jdqd": kin.jdot_qdot(model, x, xd, body),
            "jdqd_p": kin.jdot_qdot(model, x, xd, body, point=pt),
            "Jp": kin.point_jacobian(model, x, body, pt),
            "T": kin.kinetic_energy(model, x, xd),
            "V": kin.potential_energy(model, x),
            "h": kin.momentum(model, x, xd),
            "com": kin.center_of_mass(model, x)[0],
        }
        for key, value in looped.items():
            assert_close(batched[key][idx], value, 1e-13)


def test_one_configuration_with_many_velocities():
    """q without batch dimensions broadcasts against a batch of velocities."""
    rng = np.random.default_rng(461)
    model = random_tree(rng, 5, joints=ALL_JOINTS)
    q, qd = model.random_configuration(rng), rng.standard_normal((4, model.nv))
    v = kin.body_velocities(model, q, qd, frame="world")
    T = kin.kinetic_energy(model, q, qd)
    assert v.shape == (4, model.NB + 1, 6) and T.shape == (4,)
    for k in range(4):
        assert_close(v[k], kin.body_velocities(model, q, qd[k], frame="world"), 1e-13)
        assert_close(T[k], kin.kinetic_energy(model, q, qd[k]), 1e-13)


# ----------------------------------------------------------------------------- errors


def test_bad_inputs_raise():
    rng = np.random.default_rng(470)
    model = random_tree(rng, 3, joints=("S",))
    q, qd = model.random_configuration(rng), np.zeros(model.nv)
    for body in (-1, model.NB + 1):
        with pytest.raises(ValueError, match="body must be in 0"):
            kin.body_jacobian(model, q, body)
    for body in (1.0, True, None):
        with pytest.raises(ValueError, match="body must be a body number or a body name"):
            kin.point_jacobian(model, q, body, [0, 0, 0])
    with pytest.raises(ValueError, match="no body named"):
        kin.jdot_qdot(model, q, qd, "nobody")
    with pytest.raises(ValueError, match="q must have shape"):
        kin.forward_kinematics(model, np.zeros(model.nq + 1))
    with pytest.raises(ValueError, match="qd must have shape"):
        kin.body_velocities(model, q, np.zeros(model.nv + 1))
    with pytest.raises(ValueError, match="qdd must have shape"):
        kin.body_accelerations(model, q, qd, np.zeros(2))
    with pytest.raises(ValueError, match="point must have shape"):
        kin.point_jacobian(model, q, 1, [0.0, 0.0])
    with pytest.raises(ValueError, match="point must have shape"):
        kin.jdot_qdot(model, q, qd, 1, point=np.zeros((2, 4)))
    with pytest.raises(ValueError, match="frame must be 'body' or 'world'"):
        kin.body_velocities(model, q, qd, frame="base")
    with pytest.raises(ValueError, match="frame must be 'body' or 'world'"):
        kin.body_jacobian(model, q, 1, frame="spatial")
    with pytest.raises(ValueError, match="with point, the acceleration is in world"):
        kin.jdot_qdot(model, q, qd, 1, frame="body", point=[0, 0, 0])
    bad = q.copy()
    bad[model.q_index[1]] *= 2.0  # not a unit quaternion
    with pytest.raises(ValueError, match="unit"):
        kin.kinetic_energy(model, bad, qd)
    massless = sp.Model()
    massless.add_body(0, Revolute("z"), np.eye(6), np.zeros((6, 6)))
    with pytest.raises(ValueError, match="zero total mass"):
        kin.center_of_mass(massless, [0.0])
    assert kin.potential_energy(massless, [0.3]) == 0.0


@pytest.mark.parametrize("chunk", [7, 4096])
def test_tree_system_energy_of_a_trajectory_in_chunks_equals_the_energy_functions(
    monkeypatch, chunk
):
    """``TreeSystem.energy`` (what ``sp.simulate`` stores) runs one forward pass per chunk of
    states for both energies; chunked or not it is ``kinetic_energy`` and ``potential_energy``."""
    monkeypatch.setattr(kin, "_ENERGY_CHUNK", chunk)
    rng = np.random.default_rng(4)
    model = random_tree(rng, 4, joints=("R", "S", "P"), floating=True)
    q = np.stack([model.random_configuration(rng) for _ in range(15)]).reshape(3, 5, -1)
    v = rng.standard_normal((3, 5, model.nv))
    T, V = sp.systems.TreeSystem(model).energy(q, v)
    assert T.shape == V.shape == (3, 5)
    assert_close(T, sp.kinetic_energy(model, q, v), 1e-12)
    assert_close(V, sp.potential_energy(model, q), 1e-12)
    T1, V1 = sp.systems.TreeSystem(model).energy(q[0, 0], v)  # one q, a batch of velocities
    assert T1.shape == (3, 5) and V1.shape == (3, 5)
    assert_close(T1, sp.kinetic_energy(model, q[0, 0], v), 1e-12)
    assert_close(V1, np.broadcast_to(sp.potential_energy(model, q[0, 0]), (3, 5)), 1e-12)
