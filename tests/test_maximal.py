"""Tests for spatial.maximal.system and .conversion: bodies in maximal coordinates, joints and
contact as constraints, the KKT step (Sueda §1.9–1.13; ArtiSynth §0.6, §0.10–0.11).

Oracles: the joint library's motion subspaces (constraint rows annihilate allowed motions),
finite differences through the SE(3) exponential (constraint and contact Jacobians), the
reduced-coordinate tree (ABA accelerations, RNEA joint forces, a fine reference integration),
closed forms (damped oscillator, Coulomb sliding, a rod on two supports) and the KKT equations.
"""

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import spatial as sp
import spatial.maximal.constraints as constraints_module
from spatial import joints as J
from spatial.builders import (
    JOINT_CODES,
    double_pendulum,
    planar_chain,
    random_inertia,
    random_tree,
)
from spatial.checks import check_jacobian
from spatial.dynamics.rnea import joint_forces
from spatial.forces import BodyDamping, assemble, spring_damper
from spatial.inertia import cuboid_inertia, cylinder_inertia, point_mass_inertia, sphere_inertia
from spatial.maximal import (
    GroundPlane,
    System,
    bias_wrenches,
    constraint_error,
    constraint_jacobian,
    contact_jacobian,
    from_model,
    joint_coordinates,
    kinetic_energy,
    kkt_step,
    mass_matrix,
    maximal_state,
    potential_energy,
    reduced_state,
    simulate_system,
)
from spatial.maximal.dynamics import gyroscopic_jacobian
from spatial.se3 import Ad, exp_se3, frame, frame_inverse
from spatial.vectors import pluho

ALL_CODES = ["R", "P", "H", "C", "PL", "S", "SY", "F", "FREE", "RP", "~R", "~S", "~PL", "~RP"]


def joint_pose(joint, q):
    """Pose of F_s in F_p coordinates: the frame whose adjoint is X_J⁻¹ (X_J = X_sp)."""
    return frame_inverse(pluho(joint.transform(q)))


def two_bodies(rng, code, world_parent=False):
    """A parent and a child body joined by one joint with random offset frames, joint intact.

    Returns the system, the frames T (N, 4, 4), the joint variables q and the joint.
    """
    joint = JOINT_CODES[code.lstrip("~")](rng)
    if code.startswith("~"):
        joint = J.Reversed(joint)
    system = System()
    parent = 0 if world_parent else system.add_body(random_inertia(rng))
    child = system.add_body(random_inertia(rng))
    pf, cf = exp_se3(rng.normal(size=6)), exp_se3(rng.normal(size=6))
    system.add_joint(joint, parent, child, parent_frame=pf, child_frame=cf)
    q = joint.random_configuration(rng)
    T_parent = np.eye(4) if world_parent else exp_se3(rng.normal(size=6))
    T_child = T_parent @ pf @ joint_pose(joint, q) @ frame_inverse(cf)
    T = T_child[None] if world_parent else np.stack([T_parent, T_child])
    return system, T, q, joint


def unit_quaternions(model, q):
    """``q`` with the quaternion of every ball and free joint rescaled to unit length."""
    q = q.copy()
    for joint, idx in zip(model.joints[1:], model.q_index[1:], strict=True):
        if isinstance(getattr(joint, "joint", joint), J.Spherical | J.Free):
            quat = slice(idx.start, idx.start + 4)  # both store the quaternion first
            q[quat] /= np.linalg.norm(q[quat])
    return q


def reference(model, q0, qd0, t):
    """The tree's motion from ABA, integrated to 1e-11 (scipy DOP853: fewer steps than RK45).

    The RK stages leave the unit sphere slightly, so quaternions are rescaled before use.
    """
    nq = model.nq

    def rhs(_, y):
        q, qd = unit_quaternions(model, y[:nq]), y[nq:]
        return np.concatenate([model.q_dot(q, qd), sp.aba(model, q, qd, np.zeros(model.nv))])

    y0 = np.concatenate([q0, qd0])
    sol = solve_ivp(rhs, (0.0, t[-1]), y0, "DOP853", t_eval=t, rtol=1e-11, atol=1e-12)
    return np.array([unit_quaternions(model, q) for q in sol.y[:nq].T])


# ----------------------------------------------------------------------------- constraint rows


@pytest.mark.parametrize("code", ALL_CODES)
@pytest.mark.parametrize("world_parent", [False, True])
def test_constraint_rows_annihilate_the_allowed_relative_motion(rng, code, world_parent):
    system, T, q, joint = two_bodies(rng, code, world_parent)
    jc = system.joints[0]
    G = constraint_jacobian(system, T, q0=q)
    assert G.shape == (6 - joint.nv, 6 * system.N)
    assert np.linalg.matrix_rank(G) == 6 - joint.nv
    # child twist = (parent's motion seen in F_s) + S α, expressed back in child coordinates
    T_wS = T[jc.child - 1] @ jc.child_frame  # body b is row b - 1
    alpha = rng.normal(size=joint.nv)
    v_S = joint.motion_subspace(q) @ alpha
    phi = np.zeros((system.N, 6))
    if not world_parent:
        phi[0] = rng.normal(size=6)
        v_S = v_S + Ad(frame_inverse(T_wS) @ T[0]) @ phi[0]
    phi[jc.child - 1] = Ad(jc.child_frame) @ v_S
    np.testing.assert_allclose(G @ phi.ravel(), 0.0, atol=1e-12 * (1 + np.abs(phi).max()))


@pytest.mark.parametrize("code", ALL_CODES)
def test_constraint_jacobian_is_the_derivative_of_the_position_error(rng, code):
    system, T, q, joint = two_bodies(rng, code)
    np.testing.assert_allclose(constraint_error(system, T, q0=q), 0.0, atol=1e-12)
    G = constraint_jacobian(system, T, q0=q)
    for b in range(system.N):

        def g(T_b, b=b):
            T_new = T.copy()
            T_new[b] = T_b
            return constraint_error(system, T_new, q0=q)

        result = check_jacobian(g, G[:, 6 * b : 6 * b + 6], T[b], space="se3", rtol=1e-7)
        assert result, (code, b, result)


def test_revolute_rows_are_rows_of_the_adjoint():
    # Sueda §1.10: a hinge about z keeps the other five rows of the relative-velocity adjoint
    rng = np.random.default_rng(0)
    system = System()
    a, b = system.add_body(random_inertia(rng)), system.add_body(random_inertia(rng))
    system.add_joint(J.Revolute("z"), a, b)
    T = np.stack([exp_se3(rng.normal(size=6))] * 2)
    G = constraint_jacobian(system, T)
    # the two frames coincide, so the relative-velocity adjoint is [-1, 1]; drop row 2 (ω_z)
    rows = np.hstack([-np.eye(6), np.eye(6)])
    rows[2] = 0.0
    T_c = J.Revolute("z").constraint_subspace(np.zeros(1))  # orthonormal, T_c T_cᵀ drops ω_z
    np.testing.assert_allclose(T_c @ G, rows, atol=1e-12)


def test_constraint_error_measures_a_known_separation():
    # a ball joint whose child frame is displaced by d from the parent frame: error = d
    system = System()
    body = system.add_body(sphere_inertia(1.0, 0.1))
    system.add_joint(J.Spherical(), 0, body)
    R = sp.exp_so3([0.3, -0.2, 0.4])
    d = np.array([0.01, -0.02, 0.03])
    T = frame(R, d)[None]
    T_c = J.Spherical().constraint_subspace(J.Spherical().neutral())  # spans [0; 1₃]
    residual = np.concatenate([np.zeros(3), R.T @ d])  # the gap seen from the child's frame
    np.testing.assert_allclose(T_c @ constraint_error(system, T), residual, atol=1e-14)


# ----------------------------------------------------------------------------- conversions


@pytest.mark.parametrize("floating", [False, True])
def test_reduced_and_maximal_states_round_trip(rng, floating):
    codes = ["R", "P", "H", "C", "PL", "S", "SY", "F", "RP", "~R", "~S"]
    model = random_tree(rng, 8, joints=codes, floating=floating)
    system = from_model(model)
    q = model.random_configuration(rng, (3,))
    qd = rng.normal(size=(3, model.nv))
    T, phi = maximal_state(model, q, qd)
    assert T.shape == (3, model.NB, 4, 4) and phi.shape == (3, model.NB, 6)
    np.testing.assert_allclose(constraint_error(system, T, q0=q), 0.0, atol=1e-11)
    np.testing.assert_allclose(
        constraint_jacobian(system, T, q0=q) @ phi.reshape(3, -1, 1), 0.0, atol=1e-11
    )
    q_back, qd_back = reduced_state(model, system, T, phi, q0=q)
    np.testing.assert_allclose(qd_back, qd, atol=1e-10)
    # quaternions may come back negated: compare the poses instead of the numbers
    np.testing.assert_allclose(sp.body_poses(model, q_back), sp.body_poses(model, q), atol=1e-10)


def test_from_model_places_joints_like_the_tree():
    model = double_pendulum(lengths=(1.0, 0.7), bob_radius=0.1)
    system = from_model(model)
    assert system.N == 2 and system.m == 10 and system.names == ["bob1", "bob2"]
    assert [(jc.parent, jc.child) for jc in system.joints] == [(0, 1), (1, 2)]
    np.testing.assert_allclose(system.joints[1].parent_frame[:3, 3], [0.0, -1.0, 0.0])
    np.testing.assert_array_equal(system.gravity, model.gravity)
    np.testing.assert_array_equal(mass_matrix(system)[6:, 6:], model.inertia[2])


# ----------------------------------------------------------------------------- the KKT step


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_first_step_from_rest_gives_aba_accelerations_and_rnea_joint_forces(seed):
    # At zero velocity the velocity constraint G Φ⁺ = 0 is the acceleration constraint, so one
    # step gives the exact accelerations Φ⁺/h and constraint forces Tλ/h of every joint type.
    rng = np.random.default_rng(seed)
    codes = ["R", "P", "H", "C", "PL", "S", "SY", "F", "RP", "~R", "~PL"]
    model = random_tree(rng, 7, joints=codes, floating=seed == 2)
    system = from_model(model)
    q, zero = model.random_configuration(rng), np.zeros(model.nv)
    T, phi = maximal_state(model, q, zero)
    h = 1e-3
    step = kkt_step(system, T, phi, h, q0=q)
    qdd = sp.aba(model, q, zero, zero)
    a = sp.body_accelerations(model, q, zero, qdd)[1:]
    scale = 1 + np.abs(a).max()
    np.testing.assert_allclose(step.phi / h, a, atol=1e-9 * scale)
    f = joint_forces(model, q, zero, qdd)[1:]
    np.testing.assert_allclose(step.joint_wrench, f, atol=1e-9 * (1 + np.abs(f).max()))


def test_hanging_chain_top_joint_carries_the_total_weight():
    model = planar_chain(3, length=0.8, mass=1.5)
    system = from_model(model)
    T, phi = maximal_state(model, np.zeros(3), np.zeros(3))
    step = kkt_step(system, T, phi, 0.01)
    np.testing.assert_allclose(step.phi, 0.0, atol=1e-12)  # an equilibrium stays at rest
    expected = np.array([0.0, 0.0, 0.0, 0.0, 3 * 1.5 * 9.81, 0.0])  # body 1 is world-aligned
    np.testing.assert_allclose(step.joint_wrench[0], expected, atol=1e-10)
    np.testing.assert_allclose(step.joint_wrench[2, 4], 1.5 * 9.81, rtol=1e-12)


def test_kkt_solution_satisfies_the_kkt_equations(rng):
    model = random_tree(rng, 5, joints=["R", "S", "C", "PL"])
    system = from_model(model)
    q, qd = model.random_configuration(rng), rng.normal(size=model.nv)
    T, phi = maximal_state(model, q, qd)
    T = T @ exp_se3(1e-3 * rng.normal(size=(model.NB, 6)))  # joints slightly broken
    forces = [
        spring_damper(0, [0.0, 0.0, 1.0], 3, [0.1, 0.0, 0.0], 50.0, 2.0, 0.5),
        BodyDamping(2, 0.3),
    ]
    h, gamma = 0.01, 20.0
    G = constraint_jacobian(system, T, q0=q)
    g = constraint_error(system, T, q0=q)
    f, K, D_forces = assemble(forces, T, phi)
    Phi = phi.ravel()
    # the gyroscopic options add θ D_gyro to the damping matrix
    for gyroscopic, theta in (("explicit", 0.0), ("implicit", 1.0), ("midpoint", 0.5)):
        step = kkt_step(
            system, T, phi, h, forces=forces, baumgarte=gamma, q0=q, gyroscopic=gyroscopic
        )
        D = D_forces + theta * gyroscopic_jacobian(system, phi)
        M_hat = mass_matrix(system) - h * D - h * h * K
        f_tilde = mass_matrix(system) @ Phi + h * (bias_wrenches(system, T, phi) + f - D @ Phi)
        new = step.phi.ravel()
        np.testing.assert_allclose(G @ new, -gamma * g, atol=1e-12 * (1 + np.abs(new).max()))
        np.testing.assert_allclose(
            M_hat @ new, f_tilde + G.T @ step.lam, atol=1e-11 * np.abs(f_tilde).max()
        )
        np.testing.assert_allclose(step.error, g, atol=1e-15)
        np.testing.assert_allclose(step.T, T @ exp_se3(h * step.phi), atol=1e-15)


def test_batched_step_equals_looped_steps(rng):
    model = random_tree(rng, 4, joints=["R", "S", "P"])
    system = from_model(model)
    q = model.random_configuration(rng, (2, 3))
    qd = rng.normal(size=(2, 3, model.nv))
    T, phi = maximal_state(model, q, qd)
    kw = dict(baumgarte=5.0, forces=[BodyDamping(1, 0.2)], gyroscopic="midpoint")
    batched = kkt_step(system, T, phi, 0.01, q0=q, **kw)
    for i in range(2):
        for j in range(3):
            one = kkt_step(system, T[i, j], phi[i, j], 0.01, q0=q[i, j], **kw)
            for name in ("T", "phi", "q", "error", "lam", "joint_wrench"):
                np.testing.assert_allclose(
                    getattr(batched, name)[i, j], getattr(one, name), atol=1e-12
                )
    G = constraint_jacobian(system, T, q0=q)
    np.testing.assert_allclose(G[1, 2], constraint_jacobian(system, T[1, 2], q0=q[1, 2]))


# ----------------------------------------------------------------------------- against the tree


def tip_error(model, system, q0, qd0, h, duration, **kw):
    T0, phi0 = maximal_state(model, q0, qd0)
    traj = simulate_system(system, T0, phi0, h, int(round(duration / h)), **kw)
    q_ref = reference(model, q0, qd0, traj.t)
    T_ref = sp.body_poses(model, q_ref)[:, -1]
    return np.abs(traj.q[:, -1, :3, 3] - T_ref[:, :3, 3]).max(), traj


def test_double_pendulum_matches_the_reduced_tree_to_first_order():
    model = double_pendulum(bob_radius=0.1)
    system = from_model(model)
    q0, qd0 = np.array([1.0, -0.5]), np.array([0.0, 0.5])
    e1, _ = tip_error(model, system, q0, qd0, 4e-3, 0.2)
    e2, traj = tip_error(model, system, q0, qd0, 2e-3, 0.2)
    assert e2 < 3e-3  # metres, over 0.2 s with h = 2 ms
    assert 1.8 < e1 / e2 < 2.2  # first order, like the semi-implicit Euler step it is
    # the same chain integrated in reduced coordinates with the same step
    q, qd = q0.copy(), qd0.copy()
    for _ in range(len(traj.t) - 1):
        qd = qd + 2e-3 * sp.aba(model, q, qd, np.zeros(2))
        q = model.integrate(q, qd, 2e-3)
    np.testing.assert_allclose(traj.joint_q[-1], q, atol=3e-3)


def test_3d_chain_with_spherical_joints_matches_the_reduced_tree():
    rng = np.random.default_rng(7)
    model = random_tree(rng, 3, joints=["S", "R"], branching=0.0)
    system = from_model(model)
    q0, qd0 = model.random_configuration(rng), 0.5 * rng.normal(size=model.nv)
    e1, _ = tip_error(model, system, q0, qd0, 4e-3, 0.12)
    e2, _ = tip_error(model, system, q0, qd0, 2e-3, 0.12)
    assert e2 < 2e-3
    assert 1.7 < e1 / e2 < 2.3


# every joint type that moves (a chain of Fixed joints is one rigid body hanging from the world)
MOVING_CODES = [c for c in ALL_CODES if c != "F"] + ["~P", "~H", "~C", "~SY", "~FREE"]


@pytest.mark.parametrize("code", MOVING_CODES)
def test_moving_chain_of_each_joint_type_matches_the_reduced_tree(code):
    # Three bodies in a chain, every joint of one type, started with random joint velocities
    # (Coriolis terms, joint variables recovered while moving): over 0.1 s the maximal frames
    # follow the ABA reference to 5e-3, with the first-order error of the Euler step.
    rng = np.random.default_rng(11)
    model = random_tree(rng, 3, joints=[code], branching=0.0)
    system = from_model(model)
    q0, qd0 = model.random_configuration(rng), rng.normal(size=model.nv)
    errors = []
    for h in (4e-3, 2e-3):
        T0, phi0 = maximal_state(model, q0, qd0)
        traj = simulate_system(system, T0, phi0, h, int(round(0.1 / h)), q0=q0)
        T_ref = sp.body_poses(model, reference(model, q0, qd0, traj.t))[:, 1:]
        errors.append(np.abs(traj.q - T_ref).max())
    assert errors[1] < 5e-3, errors
    assert 1.8 < errors[0] / errors[1] < 2.2, errors


def test_baumgarte_removes_a_separation_geometrically():
    # a hanging double pendulum whose second joint is pulled apart by 1 mm (at rest, in
    # equilibrium otherwise): the error shrinks by 1 - hγ per step, and stays without γ
    model = double_pendulum(bob_radius=0.1)
    system = from_model(model)
    T0, phi0 = maximal_state(model, np.zeros(2), np.zeros(2))
    T0[1, 0, 3] += 1e-3  # bob 2 moved along x: joint 2's linear error
    h, gamma = 0.01, 20.0
    held = simulate_system(system, T0, phi0, h, 10, baumgarte=gamma)
    expected = 1e-3 * (1 - h * gamma) ** np.arange(11)
    np.testing.assert_allclose(np.abs(held.error).max(-1), expected, rtol=1e-6)
    free = simulate_system(system, T0, phi0, h, 10)  # changes only at second order (h² motion)
    np.testing.assert_allclose(np.abs(free.error).max(-1), 1e-3, rtol=1e-6)


def test_a_hinge_to_the_world_does_not_drift():
    # exp(h[φ]) turns a body exactly about its hinge line: no drift, Baumgarte or not
    system = System()
    rod = system.add_body(cuboid_inertia(1.0, 0.05, 0.05, 1.0))
    top = frame(np.eye(3), [0.0, 0.0, 0.5])
    system.add_joint(J.Revolute("y"), 0, rod, child_frame=top)
    T0 = (frame(sp.exp_so3([0.0, 1.0, 0.0]), np.zeros(3)) @ frame_inverse(top))[None]
    traj = simulate_system(system, T0, np.zeros((1, 6)), 0.01, 40)
    np.testing.assert_allclose(traj.error, 0.0, atol=1e-14)


def test_baumgarte_bounds_the_drift_of_a_swinging_chain():
    # 3 s of a swinging double pendulum (300 steps): without stabilization the joint between
    # the two moving bodies comes apart by millimetres; with γ h = 0.5 or 1 each step's O(h²)
    # error is removed in the next steps, so it stays at about one step's worth and does not
    # grow over the run.
    model = double_pendulum(bob_radius=0.1)
    system = from_model(model)
    T0, phi0 = maximal_state(model, np.array([0.8, 0.0]), np.zeros(2))
    h, n = 0.01, 300
    free = np.abs(simulate_system(system, T0, phi0, h, n).error).max(-1)
    assert free.max() > 2e-3
    for gamma_h in (0.5, 1.0):
        run = simulate_system(system, T0, phi0, h, n, baumgarte=gamma_h / h)
        kept = np.abs(run.error).max(-1)
        assert kept.max() < 0.1 * free.max(), gamma_h
        assert kept[n // 2 :].max() < 2.0 * kept[: n // 2].max(), gamma_h  # no growth


def oscillator_error(h, duration=0.3):
    """A ball on a prismatic joint along z tied to a world point by Sueda's spring-damper."""
    m, k, d, L = 2.0, 80.0, 4.0, 0.5  # spring_damper's k, d act on strain: k/L, d/L per metre
    system = System(gravity=[0.0, 0.0, 0.0])
    ball = system.add_body(sphere_inertia(m, 0.1))
    system.add_joint(J.Prismatic("z"), 0, ball)
    spring = spring_damper(0, [0.0, 0.0, L], ball, [0.0, 0.0, 0.0], k, d, L)
    x0 = -0.1  # stretched by 0.1
    T0 = frame(np.eye(3), [0.0, 0.0, x0])[None]
    traj = simulate_system(
        system, T0, np.zeros((1, 6)), h, int(round(duration / h)), forces=[spring]
    )
    np.testing.assert_allclose(traj.q[:, 0, :2, 3], 0.0, atol=1e-12)
    wn2, zeta_wn = k / L / m, d / L / (2 * m)
    wd = np.sqrt(wn2 - zeta_wn**2)
    t = traj.t
    x = x0 * np.exp(-zeta_wn * t) * (np.cos(wd * t) + zeta_wn / wd * np.sin(wd * t))
    return np.abs(traj.q[:, 0, 2, 3] - x).max() / abs(x0)


def test_linearly_implicit_spring_damper_matches_the_damped_oscillator():
    e1, e2 = oscillator_error(4e-3), oscillator_error(2e-3)
    assert e2 < 0.02  # relative to the initial stretch
    assert 1.8 < e1 / e2 < 2.2  # first order


def test_stiff_spring_is_stable_with_a_large_step():
    # h ω = 20: explicit Euler would explode; the linearly implicit step damps it out
    system = System(gravity=[0.0, 0.0, 0.0])
    ball = system.add_body(sphere_inertia(1.0, 0.1))
    system.add_joint(J.Prismatic("x"), 0, ball)
    spring = spring_damper(0, [1.0, 0.0, 0.0], ball, [0.0, 0.0, 0.0], 4e4, 0.0, 1.0)
    T0 = frame(np.eye(3), [0.2, 0.0, 0.0])[None]
    traj = simulate_system(system, T0, np.zeros((1, 6)), 0.1, 20, forces=[spring])
    assert np.abs(traj.q[:, 0, 0, 3]).max() <= 0.2 + 1e-12


def test_redundant_constraints_are_reported_or_regularized():
    system = System()
    body = system.add_body(cylinder_inertia(1.0, 0.05, 1.0))
    top = frame(np.eye(3), [0.0, 0.0, 0.5])
    system.add_joint(J.Revolute("y"), 0, body, child_frame=top)
    system.add_joint(J.Revolute("y"), 0, body, child_frame=top)  # the same hinge twice
    T = frame(sp.exp_so3([0.0, 0.6, 0.0]), [0.0, 0.0, 0.0])
    T = T @ frame_inverse(top)
    T = T[None]
    phi = np.zeros((1, 6))
    with pytest.raises(ValueError, match="singular KKT system: the 10 joint constraint rows have"):
        kkt_step(system, T, phi, 0.01)
    single = System()
    single.add_body(cylinder_inertia(1.0, 0.05, 1.0))
    single.add_joint(J.Revolute("y"), 0, 1, child_frame=top)
    ref = kkt_step(single, T, phi, 0.01)
    # ε changes the solution by O(ε) and rounding in the nearly singular system by O(1e-16/ε)
    reg = kkt_step(system, T, phi, 0.01, regularization=1e-8)
    np.testing.assert_allclose(reg.phi, ref.phi, atol=1e-7)
    # each copy of the hinge carries half of the reaction
    np.testing.assert_allclose(reg.joint_wrench[0], 0.5 * ref.joint_wrench[0], rtol=1e-6, atol=1e-6)


# ----------------------------------------------------------------------------- gyroscopic wrench
# Sueda eq. 1.28 takes the gyroscopic wrench c(φ) = ad(φ)ᵀMφ explicitly; c does no work, so
# each explicit step adds ½h² cᵀM⁻¹c of kinetic energy.  kkt_step(gyroscopic=...) can weight its
# velocity Jacobian D_gyro into the step's matrix instead (θ = 1 "implicit", ½ "midpoint").


def test_gyroscopic_jacobian_is_the_derivative_of_the_coriolis_wrenches(rng):
    system = System()
    for _ in range(3):
        system.add_body(random_inertia(rng))
    T = exp_se3(rng.normal(size=(3, 6)))
    phi = rng.normal(size=(3, 6))
    D = gyroscopic_jacobian(system, phi)
    # gravity does not depend on φ: the bias wrenches' velocity Jacobian is D_gyro
    result = check_jacobian(lambda x: bias_wrenches(system, T, x.reshape(3, 6)), D, phi.ravel())
    assert result, result
    c = bias_wrenches(system, T, phi) - bias_wrenches(system, T, np.zeros((3, 6)))
    np.testing.assert_allclose(D @ phi.ravel(), 2 * c, rtol=1e-12, atol=1e-12)  # quadratic
    np.testing.assert_allclose(phi.ravel() @ D, -c, rtol=1e-12, atol=1e-12)  # does no work
    np.testing.assert_allclose(D[:6, 6:], 0.0)  # bodies are not coupled
    phis = np.stack([rng.normal(size=(3, 6)), phi])  # a batch of twists: stacked Jacobians
    np.testing.assert_allclose(gyroscopic_jacobian(system, phis)[1], D, rtol=1e-14)


def test_gyroscopic_jacobian_at_the_centre_of_mass_is_that_of_eulers_equations(rng):
    # frame at the centre of mass along principal axes: c = [-ω × Iω; -ω × m v] (Sueda eq.
    # 1.23), whose derivative is [[Iω× - ω× I, 0], [m v×, -m ω×]] (written out by hand)
    m, inertia = 2.5, np.diag([0.3, 0.5, 0.7])
    system = System()
    system.add_body(sp.mcI(m, np.zeros(3), inertia))
    w, v = rng.normal(size=3), rng.normal(size=3)
    D = gyroscopic_jacobian(system, np.concatenate([w, v])[None])
    expected = np.block(
        [
            [sp.skew(inertia @ w) - sp.skew(w) @ inertia, np.zeros((3, 3))],
            [m * sp.skew(v), -m * sp.skew(w)],
        ]
    )
    np.testing.assert_allclose(D, expected, rtol=1e-13, atol=1e-13)


def tumbling_energy(gyroscopic, h, duration=5.0):
    """Kinetic energy / initial - 1 of a free box spun near its unstable middle axis."""
    system = System(gravity=[0.0, 0.0, 0.0])
    box = system.add_body(cuboid_inertia(1.0, 0.1, 0.4, 0.9))
    phi0 = np.array([[0.05, 8.0, 0.05, 0.0, 0.0, 0.0]])
    n = int(round(duration / h))
    traj = simulate_system(system, np.eye(4)[None], phi0, h, n, gyroscopic=gyroscopic)
    k = kinetic_energy(system.inertia[box - 1], traj.v[:, box - 1])
    return k / k[0] - 1.0


def test_gyroscopic_treatments_on_a_tumbling_free_body():
    # No force does work, so the kinetic energy is constant.  The explicit step (Sueda eq.
    # 1.28) only gains, the implicit one only loses, both by first-order amounts (+30 % and
    # -20 % over 5 s at h = 10 ms); the midpoint weighting cancels the O(h²) per-step term, so
    # its error is second order and thousands of times smaller.
    drift = {}
    for g in ("explicit", "implicit", "midpoint"):
        runs = [tumbling_energy(g, h) for h in (1e-2, 5e-3)]
        drift[g] = [r[-1] for r in runs]
        if g == "explicit":
            assert all(np.diff(r).min() >= -1e-12 for r in runs)  # never loses
        if g == "implicit":
            assert all(np.diff(r).max() <= 1e-12 for r in runs)  # never gains
    assert drift["explicit"][1] > 0.1 and drift["implicit"][1] < -0.1, drift
    assert 1.8 < drift["explicit"][0] / drift["explicit"][1] < 2.4, drift
    assert 1.6 < drift["implicit"][0] / drift["implicit"][1] < 2.2, drift
    assert 3.5 < drift["midpoint"][0] / drift["midpoint"][1] < 4.5, drift
    assert abs(drift["midpoint"][1]) < 1e-4, drift


def cylinder_ball_chain():
    """Four random bodies in a chain of ball and cylindrical joints, started moving."""
    rng = np.random.default_rng(3)
    model = random_tree(rng, 4, joints=["C", "S"], branching=0.0)
    q0, qd0 = model.random_configuration(rng), rng.normal(size=model.nv)
    return model, q0, qd0


def chain_energy(system, traj):
    """Total energy (kinetic + gravitational) of every stored state."""
    I = np.stack(system.inertia)
    kinetic = kinetic_energy(I, traj.v)
    return (kinetic + potential_energy(I, traj.q, system.gravity)).sum(-1)


def test_chain_energy_stays_bounded_with_the_midpoint_gyroscopic_term():
    # 4 s of the 4-body chain at h = 5 ms with Baumgarte (γh = ½), -7.42 J of total energy at
    # the start.  Explicit: the energy climbs by tens of joules (+9 J after 2 s).  Midpoint:
    # it never rises and stays within 3 J below the start (2.4 J measured: the first-order
    # dissipation of the constraint projection).  Implicit: never rises either, but falls fast.
    model, q0, qd0 = cylinder_ball_chain()
    system = from_model(model)
    T0, phi0 = maximal_state(model, q0, qd0)
    h = 5e-3
    energy = {
        g: chain_energy(
            system,
            simulate_system(system, T0, phi0, h, n, q0=q0, baumgarte=0.5 / h, gyroscopic=g),
        )
        for g, n in (("explicit", 400), ("implicit", 400), ("midpoint", 800))
    }
    e0 = energy["midpoint"][0]
    assert e0 == pytest.approx(-7.4214, abs=1e-4)
    assert energy["explicit"][-1] - e0 > 5.0
    assert energy["implicit"].max() <= e0 + 1e-9 and energy["implicit"][-1] - e0 < -5.0
    assert energy["midpoint"].max() <= e0 + 1e-9
    assert energy["midpoint"].min() >= e0 - 3.0


@pytest.mark.parametrize("gyroscopic", ["implicit", "midpoint"])
def test_gyroscopic_options_match_the_reduced_tree_to_first_order(gyroscopic):
    # the same chain against the ABA reference over 0.1 s: first-order convergence, as with the
    # explicit step (the options change the O(h) error term, not the limit)
    model, q0, qd0 = cylinder_ball_chain()
    system = from_model(model)
    T0, phi0 = maximal_state(model, q0, qd0)
    errors = []
    for h in (4e-3, 2e-3):
        n = int(round(0.1 / h))
        traj = simulate_system(system, T0, phi0, h, n, q0=q0, gyroscopic=gyroscopic)
        T_ref = sp.body_poses(model, reference(model, q0, qd0, traj.t))[:, 1:]
        errors.append(np.abs(traj.q - T_ref).max())
    assert errors[1] < 5e-3, errors
    assert 1.8 < errors[0] / errors[1] < 2.2, errors


# ----------------------------------------------------------------------------- contact


def box_system(m=2.0, size=(0.4, 0.3, 0.2)):
    system = System()
    box = system.add_body(cuboid_inertia(m, *size))
    corners = (
        0.5
        * np.array(size)
        * np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    )
    system.add_contact_points(box, corners)
    return system


def test_contact_rows_are_the_derivative_of_the_gaps(rng):
    system = box_system()
    ground = GroundPlane(normal=[0.0, 0.6, 0.8], offset=-3.0, margin=np.inf)
    T = exp_se3(rng.normal(size=6))[None]
    J_c, gap = contact_jacobian(system, T, ground)
    assert J_c.shape == (24, 6) and gap.shape == (8,)
    result = check_jacobian(
        lambda T0: contact_jacobian(system, T0[None], ground)[1], J_c[:8], T[0], space="se3"
    )
    assert result
    t1, t2 = ground.tangents()
    np.testing.assert_allclose(np.cross(t1, t2), ground.normal, atol=1e-15)
    x = (T[0, :3, :3] @ system.contact_points[0][1].T).T + T[0, :3, 3]
    np.testing.assert_allclose(gap, x @ ground.normal + 3.0, atol=1e-14)
    # the margin drops the points far above the plane
    margin = float(np.median(gap))
    near = contact_jacobian(
        system, T, GroundPlane(normal=[0.0, 0.6, 0.8], offset=-3.0, margin=margin)
    )[1]
    np.testing.assert_array_equal(near, gap[gap <= margin])


@pytest.mark.parametrize("mu", [0.0, 0.5])
def test_resting_box_stays_put_and_the_ground_carries_its_weight(mu):
    m, size = 2.0, (0.4, 0.3, 0.2)
    system = box_system(m, size)
    T = frame(np.eye(3), [0.3, -0.1, size[2] / 2])[None]
    phi, h = np.zeros((1, 6)), 0.01
    for _ in range(5):
        step = kkt_step(system, T, phi, h, ground=GroundPlane(mu=mu))
        T, phi = step.T, step.phi
    np.testing.assert_allclose(phi, 0.0, atol=1e-10)
    np.testing.assert_allclose(step.contact.normal_impulse.sum(), m * 9.81 * h, rtol=1e-9)
    np.testing.assert_allclose(step.contact.tangent_impulse, 0.0, atol=1e-10)
    assert step.contact.gap.shape == (4,)  # the bottom face; the default margin is 0


def test_a_contact_problem_the_solver_cannot_solve_raises_lcp_error(monkeypatch):
    """kkt_step hands its contacts to the one constrained step; a failed solve is reported."""
    import dataclasses

    import spatial.integrators.constrained as constrained

    solve = constrained._solve_impulses

    def failing(*args, **options):
        return dataclasses.replace(solve(*args, **options), converged=False, message="forced")

    monkeypatch.setattr(constrained, "_solve_impulses", failing)
    system = box_system(2.0, (0.4, 0.3, 0.2))
    T = frame(np.eye(3), [0.0, 0.0, 0.1])[None]
    with pytest.raises(sp.solvers.LCPError, match="contact problem with 4 contacts: forced"):
        kkt_step(system, T, np.zeros((1, 6)), 0.01, ground=GroundPlane(mu=0.5))


# box and polyhedral friction reach μ λ_n exactly along the slip; the pyramid QP lifts a sliding
# contact (normal velocity μ times the slip), the disc Gauss–Seidel projects contact by contact
@pytest.mark.parametrize("model", ["box", "polyhedral"])
def test_sliding_box_decelerates_at_mu_g(model):
    mu, v0, h = 0.3, 2.0, 0.01
    system = box_system()
    T = frame(np.eye(3), [0.0, 0.0, 0.1])[None]
    phi = np.array([[0.0, 0.0, 0.0, v0, 0.0, 0.0]])
    ground = GroundPlane(mu=mu, friction=model)
    for k in range(1, 31):
        step = kkt_step(system, T, phi, h, ground=ground)
        T, phi = step.T, step.phi
        # each step's LCP is solved to ~1e-9 relative
        np.testing.assert_allclose(phi[0, 3], v0 - mu * 9.81 * h * k, rtol=1e-7)
    np.testing.assert_allclose(phi[0, [0, 1, 2, 4, 5]], 0.0, atol=1e-8)
    np.testing.assert_allclose(T[0, 2, 3], 0.1, atol=1e-10)


def test_falling_box_comes_to_rest_on_the_ground():
    system = box_system()
    T = frame(sp.exp_so3([0.4, 0.3, 0.2]), [0.0, 0.0, 0.5])[None]
    phi = np.array([[1.0, -2.0, 0.5, 0.5, 0.0, 0.0]])
    traj = simulate_system(system, T, phi, 0.01, 120, ground=GroundPlane(mu=0.8), baumgarte=10.0)
    lowest = min(c.gap.min() for c in traj.contact[1:] if c.gap.size)
    assert lowest > -0.03  # contacts are found after the fact: at most one step of penetration
    np.testing.assert_allclose(traj.contact[-1].gap, 0.0, atol=1e-4)  # ... and pushed out
    speed = np.abs(traj.v[:, 0]).max(-1)
    # settling at the Baumgarte rate: 60 steps of (1 - hγ) = 0.9 is 1.8e-3
    assert speed[-1] < 1e-4 and speed[-1] < 5e-3 * speed[60]
    z = np.array([0.0, 0.0, 1.0])
    face = np.abs(traj.q[-1, 0, :3, :3].T @ z)  # lies flat: one body axis is vertical
    np.testing.assert_allclose(face.max(), 1.0, atol=1e-6)


def test_rod_on_a_hinge_and_the_ground_is_carried_half_by_each():
    # a uniform horizontal rod hinged at one end, the other end resting on the ground
    m, length, h = 3.0, 1.0, 0.01
    system = System()
    rod = system.add_body(
        cylinder_inertia(
            m, 0.02, length, T=sp.frame(sp.exp_so3([0.0, np.pi / 2, 0.0]), [0.0, 0.0, 0.0])
        )
    )
    system.add_joint(J.Revolute("y"), 0, rod, child_frame=frame(np.eye(3), [-0.5, 0.0, 0.0]))
    system.add_contact_points(rod, [[0.5, 0.0, 0.0]])
    T, phi = np.eye(4)[None].copy(), np.zeros((1, 6))
    T[0, 0, 3] = 0.5
    step = kkt_step(system, T, phi, h, ground=GroundPlane(mu=0.0))
    np.testing.assert_allclose(step.phi, 0.0, atol=1e-12)
    np.testing.assert_allclose(step.contact.normal_impulse, [m * 9.81 * h / 2], rtol=1e-10)
    np.testing.assert_allclose(step.joint_wrench[0, 3:], [0.0, 0.0, m * 9.81 / 2], atol=1e-10)


# ----------------------------------------------------------------------------- errors


class Unfinished(J.Joint):
    nq = nv = 1


class Inconsistent(J.Revolute):
    def constraint_subspace(self, q):  # contains the allowed motion: not a constraint subspace
        return np.eye(6)[:, :5]


def test_bad_systems_are_rejected():
    system = System()
    with pytest.raises(ValueError, match="gravity must be a 3-vector"):
        System(gravity=[[0.0, 0.0, -9.81]])
    with pytest.raises(ValueError, match="must be positive definite"):
        system.add_body(point_mass_inertia(1.0, [0.0, 0.0, 0.0]))
    with pytest.raises(ValueError, match="single 6x6"):
        system.add_body(np.stack([sphere_inertia(1.0, 0.1)] * 2))
    a = system.add_body(sphere_inertia(1.0, 0.1), name="a")
    with pytest.raises(ValueError, match="already used"):
        system.add_body(sphere_inertia(1.0, 0.1), name="a")
    with pytest.raises(ValueError, match="unsupported joint type"):
        system.add_joint("revolute", 0, a)
    with pytest.raises(ValueError, match="unsupported joint type Unfinished"):
        system.add_joint(Unfinished(), 0, a)
    with pytest.raises(ValueError, match="unsupported joint type Inconsistent: its X_J, S"):
        system.add_joint(Inconsistent("x"), 0, a)
    with pytest.raises(ValueError, match="parent body 2 is not in the system"):
        system.add_joint(J.Revolute(), 2, a)
    with pytest.raises(ValueError, match="child body 0 is the fixed world"):
        system.add_joint(J.Revolute(), a, 0)
    with pytest.raises(ValueError, match="child body None is not accepted: bodies are numbered"):
        system.add_joint(J.Revolute(), a, None)
    with pytest.raises(ValueError, match="connects body 1 to itself"):
        system.add_joint(J.Revolute(), "a", a)
    with pytest.raises(ValueError, match="no body named 'b'"):
        system.add_joint(J.Revolute(), "b", a)
    with pytest.raises(ValueError, match="single 4x4 frame"):
        system.add_joint(J.Revolute(), 0, a, parent_frame=np.stack([np.eye(4)] * 2))
    with pytest.raises(ValueError, match="contact body 2 is not in the system"):
        system.add_contact_points(2, [[0.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match="contact body 0 is the fixed world"):
        system.add_contact_points(0, [[0.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match=r"points must have shape \(k, 3\)"):
        system.add_contact_points(a, [0.0, 0.0, 0.0])
    for kwargs, match in [
        (dict(normal=[0.0, 0.0, 2.0]), "unit 3-vector"),
        (dict(mu=-0.1), "mu must be a number >= 0, got -0.1"),
        (dict(margin=-1.0), "margin must be a number >= 0, got -1.0"),
        (dict(offset=np.inf), "offset contains non-finite values"),
        (dict(offset=[0.0, 1.0]), "offset must be a number"),
        (dict(friction="coulomb"), "friction must be one of"),
    ]:
        with pytest.raises(ValueError, match=match):
            GroundPlane(**kwargs)
    with pytest.raises(ValueError, match="model must be a spatial.Model"):
        from_model(system)


def test_bad_states_and_options_are_rejected():
    model = double_pendulum(bob_radius=0.1)
    system = from_model(model)
    T, phi = maximal_state(model, np.array([0.3, 0.2]), np.zeros(2))
    with pytest.raises(ValueError, match=r"T must have shape \(\.\.\., 2, 4, 4\)"):
        kkt_step(system, T[:1], phi, 0.01)
    with pytest.raises(ValueError, match=r"phi must have shape \(\.\.\., 2, 6\)"):
        kkt_step(system, T, phi[:1], 0.01)
    with pytest.raises(ValueError, match=r"h \(time step\) must be > 0, got 0.0"):
        kkt_step(system, T, phi, 0.0)
    with pytest.raises(ValueError, match="baumgarte must be a number >= 0, got -1.0"):
        kkt_step(system, T, phi, 0.01, baumgarte=-1.0)
    with pytest.raises(ValueError, match=r"regularization must be a number >= 0, got \[1.0, 2.0\]"):
        kkt_step(system, T, phi, 0.01, regularization=[1.0, 2.0])
    with pytest.raises(ValueError, match="ground must be a GroundPlane"):
        kkt_step(system, T, phi, 0.01, ground="floor")
    with pytest.raises(ValueError, match="ground must be a GroundPlane"):
        contact_jacobian(system, T, ground="floor")
    with pytest.raises(ValueError, match="forces must be spatial.forces.Force"):
        kkt_step(system, T, phi, 0.01, forces=[np.zeros(12)])
    with pytest.raises(ValueError, match=r"q0 must have shape \(\.\.\., 2\)"):
        kkt_step(system, T, phi, 0.01, q0=np.zeros(3))
    with pytest.raises(ValueError, match="contact needs a single state"):
        kkt_step(system, np.stack([T, T]), np.stack([phi, phi]), 0.01, ground=GroundPlane())
    with pytest.raises(ValueError, match="contact needs a single state"):
        contact_jacobian(system, np.stack([T, T]), GroundPlane())
    with pytest.raises(ValueError, match="steps must be a non-negative integer"):
        simulate_system(system, T, phi, 0.01, 2.5)
    with pytest.raises(ValueError, match="not the maximal-coordinate system of model"):
        reduced_state(double_pendulum(bob_radius=0.1), system, T, phi)
    with pytest.raises(ValueError, match="gyroscopic must be one of"):
        kkt_step(system, T, phi, 0.01, gyroscopic="semi-implicit")
    with pytest.raises(ValueError, match="gyroscopic must be one of"):
        simulate_system(system, T, phi, 0.01, 1, gyroscopic=["midpoint"])
    with pytest.raises(ValueError, match="does not work with contact"):
        kkt_step(system, T, phi, 0.01, ground=GroundPlane(), gyroscopic="midpoint")
    with pytest.raises(ValueError, match=r"phi must have shape \(\.\.\., 2, 6\)"):
        gyroscopic_jacobian(system, phi[0])


def test_unrecoverable_joint_variables_are_reported(monkeypatch):
    # Gauss–Newton needs two iterations for a yaw-pitch-roll joint far from its warm start
    rng = np.random.default_rng(3)
    system, T, q, _ = two_bodies(rng, "SY")
    monkeypatch.setattr(constraints_module, "_GN_MAX_ITER", 1)
    with pytest.raises(ValueError, match="could not recover the joint variables"):
        joint_coordinates(system, T)


# ----------------------------------------------------------------------------- exercise checkers


def test_chapter_12_checkers_accept_solutions_and_reject_mistakes():
    from spatial.exercises import ch12

    def ball_joint_rows(T_parent, T_child, r_p, r_c):
        R_p, R_c = T_parent[:3, :3], T_child[:3, :3]
        return np.hstack([-R_c.T @ R_p @ sp.material_jacobian(r_p), sp.material_jacobian(r_c)])

    def kkt_solve(M, G, f, rhs):
        n, m = M.shape[0], G.shape[0]
        A = np.block([[M, -G.T], [G, np.zeros((m, m))]])
        x = np.linalg.solve(A, np.concatenate([f, rhs]))
        return x[:n], x[n:]

    def contact_row(T, r, n):
        return n @ T[:3, :3] @ sp.material_jacobian(r)

    ch12.CHECKS["12.1"](ball_joint_rows)
    ch12.CHECKS["12.2"](kkt_solve)
    ch12.CHECKS["12.3"](contact_row)
    # the parent block without the relative rotation R_cᵀ R_p
    with pytest.raises(AssertionError, match="ball-joint rows"):
        ch12.CHECKS["12.1"](
            lambda T_parent, T_child, r_p, r_c: np.hstack(
                [-sp.material_jacobian(r_p), sp.material_jacobian(r_c)]
            )
        )
    # Sueda's sign of λ (M φ = f - Gᵀλ): the velocities are right, the impulses flipped
    with pytest.raises(AssertionError, match="constraint impulses"):
        ch12.CHECKS["12.2"](lambda *a: (kkt_solve(*a)[0], -kkt_solve(*a)[1]))
    with pytest.raises(AssertionError, match="must return a pair"):
        ch12.CHECKS["12.2"](lambda *a: kkt_solve(*a)[0])
    # the normal in body axes instead of world axes
    with pytest.raises(AssertionError, match="contact row"):
        ch12.CHECKS["12.3"](lambda T, r, n: n @ sp.material_jacobian(r))


def test_the_system_interface_checks_the_state_its_loop_cores_skip():
    # accelerations, force_jacobians and integrate validate the state (check_state) before their
    # cores (_accelerations, ...), which sp.simulate calls once the state is validated; before,
    # accelerations without forces and integrate took any array
    system = sp.maximal.System(gravity=[0.0, 0.0, -9.81])
    system.add_body(sp.cuboid_inertia(1.0, 0.2, 0.1, 0.3))
    T, phi = np.eye(4)[None], np.array([[0.0, 0.0, 1.0, 0.1, 0.0, 0.0]])
    bad_T = T.copy()
    bad_T[0, :3, :3] *= 1.1  # not a rotation
    for call in (
        lambda: system.accelerations(0.0, bad_T, phi),
        lambda: system.force_jacobians(0.0, bad_T, phi),
        lambda: system.integrate(bad_T, phi, 0.1),
    ):
        with pytest.raises(ValueError, match="not orthonormal"):
            call()
    with pytest.raises(ValueError, match=r"T must have shape \(\.\.\., 1, 4, 4\)"):
        system.accelerations(0.0, np.stack([T[0], T[0]]), phi)
    with pytest.raises(ValueError, match="dt contains non-finite"):
        system.integrate(T, phi, np.nan)
    # the cores give the public results on a valid state
    assert np.array_equal(system._accelerations(0.0, T, phi), system.accelerations(0.0, T, phi))
    assert np.array_equal(system._integrate(T, phi, 0.1), system.integrate(T, phi, 0.1))
