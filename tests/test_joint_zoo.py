"""Tests of Sueda's joint zoo (§2.4) in spatial.joints: universal, Euler-angle and
exponential-coordinate spherical joints, planar and full translation, composite and free joints.

The generic checks (S against finite differences of X_J, c_J against finite differences of S,
integrate/difference, batches, repr) run on every one of these joints through the parametrized
list of ``tests/test_joints.py``.  This file adds what is particular to the zoo, with oracles
independent of the code under test:

* closed forms printed in Sueda §2.4 (eqs. 2.25–2.28, 2.37–2.40, 2.58) and scipy's rotations;
* equalities between different routes to the same motion (a composite of a revolute and a
  prismatic joint is a cylindrical joint, ``free_2d`` is ``Planar``, ``SphericalEuler("ZYX")``
  is ``SphericalYPR``, ``free_3d`` is ``Free``);
* whole models containing the new joints: ``aba(rnea(q̈)) = q̈``, ``crba`` symmetric positive
  definite with columns from ``rnea``, and the maximal-coordinate constraint rows;
* the errors: bad sequences and axes, singular configurations, wrong shapes.
"""

import itertools

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import spatial as sp
from spatial import joints as J
from spatial.builders import JOINT_CODES, random_inertia, random_tree
from spatial.dynamics import bias_force, coriolis_matrix
from spatial.maximal import System, constraint_error, constraint_jacobian
from spatial.se3 import Ad, exp_se3, frame_inverse
from spatial.vectors import pluho

# every 3-letter word over XYZ without two equal neighbours: 6 Tait–Bryan + 6 proper sequences
EULER_SEQUENCES = [
    "".join(w) for w in itertools.product("XYZ", repeat=3) if w[0] != w[1] and w[1] != w[2]
]
assert len(EULER_SEQUENCES) == 12
ZOO_CODES = ("U", "SE", "SX", "PT", "T", "F2", "F3")
AXIS = np.array([2.0, -1.0, 2.0]) / 3.0


def fd_body_velocity_columns(rotation, q, h=1e-6):
    """Columns ``unskew(Rᵀ ∂R/∂qᵢ)`` of an active-rotation function, by central differences."""
    R = rotation(q)
    cols = []
    for i in range(len(q)):
        e = np.zeros(len(q))
        e[i] = h
        dR = (rotation(q + e) - rotation(q - e)) / (2 * h)
        cols.append(sp.unskew(R.T @ dR))
    return np.stack(cols, -1)


# ----------------------------------------------------------------------------- universal


def test_universal_matches_sueda_equations_2_37_to_2_40(rng):
    q, qd = rng.uniform(-2.0, 2.0, 2), rng.normal(size=2)
    c1, s1, c2, s2 = np.cos(q[0]), np.sin(q[0]), np.cos(q[1]), np.sin(q[1])
    R = np.array([[c2, 0, s2], [s1 * s2, c1, -s1 * c2], [-c1 * s2, s1, c1 * c2]])  # eq. 2.37
    joint = J.Universal()
    np.testing.assert_allclose(joint.transform(q), sp.rot(R.T), atol=1e-15)
    S = np.zeros((6, 2))
    S[:3] = [[c2, 0], [0, 1], [s2, 0]]  # eq. 2.39
    np.testing.assert_allclose(joint.motion_subspace(q), S, atol=1e-15)
    S_dot = np.zeros((6, 2))
    S_dot[0, 0], S_dot[2, 0] = -s2 * qd[1], c2 * qd[1]  # eq. 2.40
    np.testing.assert_allclose(joint.bias(q, qd), S_dot @ qd, atol=1e-15)


@pytest.mark.parametrize("axes", [("x", "y"), ("Y", "Z"), ("z", "x"), ("y", "x")])
def test_universal_about_other_axes_against_scipy(axes, rng):
    q = rng.uniform(-2.0, 2.0, 2)
    seq = "".join(a.upper() for a in axes)
    joint = J.Universal(*axes)
    R = Rotation.from_euler(seq, q).as_matrix()  # intrinsic: about a, then the new b
    np.testing.assert_allclose(joint.transform(q), sp.rot(R.T), atol=1e-14)
    S_fd = fd_body_velocity_columns(lambda x: Rotation.from_euler(seq, x).as_matrix(), q)
    np.testing.assert_allclose(joint.motion_subspace(q)[:3], S_fd, atol=1e-9)
    # the twist axis is locked: no angular velocity about the third axis, ever
    assert np.linalg.matrix_rank(joint.motion_subspace(q)) == 2


# ----------------------------------------------------------------------------- Euler angles


@pytest.mark.parametrize("seq", EULER_SEQUENCES)
def test_spherical_euler_all_sequences_against_scipy(seq, rng):
    joint = J.SphericalEuler(seq)
    for q in joint.random_configuration(rng, (3,)):
        R = Rotation.from_euler(seq, q).as_matrix()
        np.testing.assert_allclose(joint.transform(q), sp.rot(R.T), atol=1e-14)
        S_fd = fd_body_velocity_columns(lambda x: Rotation.from_euler(seq, x).as_matrix(), q)
        np.testing.assert_allclose(joint.motion_subspace(q)[:3], S_fd, atol=1e-9)
        np.testing.assert_array_equal(joint.motion_subspace(q)[3:], 0.0)


@pytest.mark.parametrize("seq", EULER_SEQUENCES)
def test_spherical_euler_velocity_product_against_finite_differences(seq, rng):
    joint, h = J.SphericalEuler(seq), 1e-5
    q, qd = joint.random_configuration(rng), rng.normal(size=3)
    S_dot = (joint.motion_subspace(q + h * qd) - joint.motion_subspace(q - h * qd)) / (2 * h)
    np.testing.assert_allclose(joint.bias(q, qd), S_dot @ qd, atol=1e-8)


def test_spherical_euler_zyx_is_spherical_ypr(rng):
    euler, ypr = J.SphericalEuler("ZYX"), J.SphericalYPR()
    q, qd = ypr.random_configuration(rng, (20,)), rng.normal(size=(20, 3))
    for a, b in zip(euler.jcalc(q, qd), ypr.jcalc(q, qd), strict=True):
        np.testing.assert_allclose(a, b, atol=1e-14)
    locked = np.array([0.3, np.pi / 2, -0.2])
    for joint in (euler, ypr):
        with pytest.raises(ValueError, match="singularity|gimbal lock"):
            joint.check_q(locked)


@pytest.mark.parametrize("seq", EULER_SEQUENCES)
def test_gimbal_lock_is_where_S_loses_rank_and_is_refused(seq):
    joint = J.SphericalEuler(seq)
    middle = 0.0 if seq[0] == seq[2] else np.pi / 2  # proper: sin q₂ = 0, Tait–Bryan: cos q₂ = 0
    locked = np.array([0.4, middle, -1.1])
    assert np.linalg.matrix_rank(joint.motion_subspace(locked)[:3], tol=1e-9) == 2
    with pytest.raises(ValueError, match=f"gimbal lock of the Euler sequence '{seq}'"):
        joint.check_q(locked)
    with pytest.raises(ValueError, match="q of joint 2 is at the gimbal lock"):
        joint.check_q(np.stack([locked + [0.0, 0.3, 0.0], locked]), "q of joint 2")
    joint.check_q(locked + [0.0, 1e-3, 0.0])  # near but not at the lock: accepted
    with pytest.raises(ValueError, match="gimbal lock"):
        J.SphericalEuler(seq, singularity_tol=0.01).check_q(locked + [0.0, 1e-3, 0.0])
    # |det S| is |cos q₂| or |sin q₂|, the measure the check uses
    q = locked + [0.0, 0.3, 0.0]
    expected = abs(np.sin(q[1]) if seq[0] == seq[2] else np.cos(q[1]))
    np.testing.assert_allclose(abs(np.linalg.det(joint.motion_subspace(q)[:3])), expected)


# ----------------------------------------------------------------------------- translation


def test_planar_translation_and_translational_match_sueda_2_25_to_2_28(rng):
    q2, q3 = rng.normal(size=2), rng.normal(size=3)
    planar = J.PlanarTranslation()
    np.testing.assert_allclose(planar.transform(q2), sp.xlt([q2[0], q2[1], 0.0]), atol=1e-15)
    S = np.zeros((6, 2))
    S[3, 0] = S[4, 1] = 1.0  # eq. 2.26
    np.testing.assert_array_equal(planar.motion_subspace(q2), S)
    np.testing.assert_array_equal(planar.bias(q2, rng.normal(size=2)), 0.0)
    free = J.Translational()
    np.testing.assert_allclose(free.transform(q3), sp.xlt(q3), atol=1e-15)
    np.testing.assert_array_equal(
        free.motion_subspace(q3), np.vstack([np.zeros((3, 3)), np.eye(3)])
    )
    # a tilted plane: the same as two prismatic joints in series
    b = np.cross(AXIS, [0.0, 0.0, 1.0])
    b /= np.linalg.norm(b)
    tilted, two = J.PlanarTranslation(AXIS, b), J.Composite(J.Prismatic(AXIS), J.Prismatic(b))
    for x, y in zip(tilted.jcalc(q2, q2), two.jcalc(q2, q2), strict=True):
        np.testing.assert_allclose(x, y, atol=1e-14)


# ----------------------------------------------------------------------------- exponential


def test_spherical_exp_against_scipy_rotation_vectors(rng):
    joint = J.SphericalExp()
    for r in list(joint.random_configuration(rng, (5,))) + [np.array([1e-3, -2e-3, 5e-4])]:
        R = Rotation.from_rotvec(r).as_matrix()
        np.testing.assert_allclose(joint.transform(r), sp.rot(R.T), atol=1e-14)
        S_fd = fd_body_velocity_columns(lambda x: Rotation.from_rotvec(x).as_matrix(), r)
        np.testing.assert_allclose(joint.motion_subspace(r)[:3], S_fd, atol=1e-9)
    np.testing.assert_allclose(joint.motion_subspace(np.zeros(3))[:3], np.eye(3), atol=1e-15)


@pytest.mark.parametrize("length", [0.0, 1e-4, 0.0999, 0.1001, 1.0, 3.0, 5.0])
def test_spherical_exp_velocity_product_on_both_sides_of_the_series_switch(length, rng):
    """The coefficients switch to Taylor series below |r| = 0.1: both sides agree with FD."""
    joint, h = J.SphericalExp(), 1e-5
    u = rng.normal(size=3)
    r, rd = length * u / np.linalg.norm(u), rng.normal(size=3)
    S_dot = (joint.motion_subspace(r + h * rd) - joint.motion_subspace(r - h * rd)) / (2 * h)
    np.testing.assert_allclose(joint.bias(r, rd), S_dot @ rd, atol=1e-8)


def test_spherical_exp_refuses_the_singular_spheres():
    joint = J.SphericalExp()
    on_sphere = np.array([0.0, 2 * np.pi, 0.0])
    # there V = u uᵀ: rates perpendicular to r do not turn the body at all
    np.testing.assert_allclose(
        joint.motion_subspace(on_sphere)[:3], np.diag([0.0, 1.0, 0.0]), atol=1e-15
    )
    with pytest.raises(ValueError, match=r"singularity of the exponential coordinates.*reparam"):
        joint.check_q(on_sphere)
    with pytest.raises(ValueError, match="exponential coordinates"):
        joint.check_q(np.array([[0.1, 0.2, 0.3], [4 * np.pi, 0.0, 0.0]]))
    joint.check_q(np.array([0.0, 1.9 * np.pi, 0.0]))  # far enough from 2π
    with pytest.raises(ValueError, match="q must have shape"):
        joint.check_q(np.zeros(4))


def test_reparameterize_keeps_the_rotation_and_the_angular_velocity(rng):
    joint = J.SphericalExp()
    u = rng.normal(size=3)
    r = 1.8 * np.pi * u / np.linalg.norm(u)
    rd = rng.normal(size=3)
    r2, rd2 = joint.reparameterize(r, rd)
    assert np.linalg.norm(r2) <= np.pi
    np.testing.assert_allclose(np.linalg.norm(r2), 0.2 * np.pi, atol=1e-14)
    np.testing.assert_allclose(joint.transform(r2), joint.transform(r), atol=1e-14)
    v, v2 = joint.motion_subspace(r) @ rd, joint.motion_subspace(r2) @ rd2
    np.testing.assert_allclose(v2, v, atol=1e-12)
    short = np.array([0.1, 0.2, -0.3])
    np.testing.assert_array_equal(joint.reparameterize(short), short)


def test_spinning_past_two_pi_continues_smoothly_with_reparameterization():
    """A body spinning at constant ω (child coordinates) for 10 s: R(t) = exp(t[ω]).

    ``ṙ = S⁻¹ ω`` is integrated by RK4 with a switch to ``|r| ≤ π`` after every step; the
    rotation follows the closed form, and the angle passes 2π several times.
    """
    joint, omega = J.SphericalExp(), np.array([0.6, -1.5, 2.1])  # |ω| ≈ 2.65 rad/s

    def rate(r):
        return np.linalg.solve(joint.motion_subspace(r)[:3], omega)

    r, h, switches = np.zeros(3), 0.01, 0
    for _ in range(1000):
        k1 = rate(r)
        k2 = rate(r + 0.5 * h * k1)
        k3 = rate(r + 0.5 * h * k2)
        k4 = rate(r + h * k3)
        r = r + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        joint.check_q(r)
        r_new = joint.reparameterize(r)
        switches += not np.array_equal(r_new, r)
        r = r_new
    assert switches >= 4  # 10 s · 2.65 rad/s ≈ 4.2 turns
    R = Rotation.from_rotvec(10.0 * omega).as_matrix()
    np.testing.assert_allclose(joint.transform(r), sp.rot(R.T), atol=1e-8)


# ----------------------------------------------------------------------------- composites


def test_composite_of_revolute_and_prismatic_is_cylindrical(rng):
    for axis in ("z", AXIS):
        composite, cylinder = J.Composite(J.Revolute(axis), J.Prismatic(axis)), J.Cylindrical(axis)
        q, qd = cylinder.random_configuration(rng, (10,)), rng.normal(size=(10, 2))
        for a, b in zip(composite.jcalc(q, qd), cylinder.jcalc(q, qd), strict=True):
            np.testing.assert_allclose(a, b, atol=1e-14)
        assert (composite.nq, composite.nv) == (2, 2)


def test_free_2d_moves_like_planar(rng):
    """Same pose for ``[x, y, θ]`` and ``[θ, x, y]``, and the same joint velocity for the same
    motion (Planar's body velocities mapped through its own ``q_dot``)."""
    free, planar = J.free_2d(), J.Planar()
    q_pl, alpha = planar.random_configuration(rng, (10,)), rng.normal(size=(10, 3))
    q_free = q_pl[:, [1, 2, 0]]
    np.testing.assert_allclose(free.transform(q_free), planar.transform(q_pl), atol=1e-14)
    qd_free = planar.q_dot(q_pl, alpha)[:, [1, 2, 0]]
    v_free = (free.motion_subspace(q_free) @ qd_free[..., None])[..., 0]
    np.testing.assert_allclose(v_free, (planar.motion_subspace(q_pl) @ alpha[..., None])[..., 0])
    # Sueda eq. 2.55: the translation columns turn with θ; the rotation column is e_z
    S = free.motion_subspace(q_free[0])
    c, s = np.cos(q_free[0, 2]), np.sin(q_free[0, 2])
    np.testing.assert_allclose(S[3:5, :2], [[c, s], [-s, c]], atol=1e-15)
    np.testing.assert_array_equal(S[:, 2], [0, 0, 1, 0, 0, 0])


def test_free_3d_matches_sueda_2_58_and_moves_like_free(rng):
    joint, free = J.free_3d(), J.Free()
    q = joint.random_configuration(rng)
    quat, p = q[:4], q[4:]
    S_hat = J.Spherical().motion_subspace(quat)[:3]
    S = np.block([[S_hat, np.zeros((3, 3))], [-sp.skew(p) @ S_hat, np.eye(3)]])  # eq. 2.58
    np.testing.assert_allclose(joint.motion_subspace(q), S, atol=1e-15)
    # the same pose as Free with the position expressed in F_p: p_parent = R p
    p_parent = sp.quat_to_matrix(quat) @ p
    np.testing.assert_allclose(
        joint.transform(q), free.transform(np.concatenate([quat, p_parent])), atol=1e-14
    )
    # with Euler angles, Sueda's Ṡ (eq. 2.59) times q̇ is c_J
    euler = J.free_3d(J.SphericalEuler("XZX"))
    q, qd = euler.random_configuration(rng), rng.normal(size=6)
    S1 = euler.first.motion_subspace(q[:3])[:3]
    dS1 = J.SphericalEuler("XZX").bias(q[:3], qd[:3])[:3]  # Ṡ₁ q̇₁
    p, pd = q[3:], qd[3:]
    expected = np.concatenate([dS1, -sp.skew(pd) @ S1 @ qd[:3] - sp.skew(p) @ dS1])
    np.testing.assert_allclose(euler.bias(q, qd), expected, atol=1e-13)


def test_nested_composites_chain_like_sueda_q1_q2_q3(rng):
    """Q₁(Q₂Q₃) and (Q₁Q₂)Q₃ are the same joint (Sueda §2.4.9)."""
    a, b, c = J.Revolute(AXIS), J.Prismatic("x"), J.Universal("y", "z")
    left, right = J.Composite(J.Composite(a, b), c), J.Composite(a, J.Composite(b, c))
    q, qd = left.random_configuration(rng, (5,)), rng.normal(size=(5, 4))
    for x, y in zip(left.jcalc(q, qd), right.jcalc(q, qd), strict=True):
        np.testing.assert_allclose(x, y, atol=1e-13)


# ----------------------------------------------------------------------------- in models


@pytest.mark.parametrize("floating", [False, True])
def test_models_with_zoo_joints_rnea_aba_crba(floating, rng):
    model = random_tree(rng, 10, joints=ZOO_CODES + ("R", "~SX", "~F2"), floating=floating)
    assert {type(j).__name__ for j in model.joints[1:]} >= {"Universal", "Composite"}
    q, qd = model.random_configuration(rng), rng.normal(size=model.nv)
    qdd = rng.normal(size=model.nv)
    tau = sp.rnea(model, q, qd, qdd)
    np.testing.assert_allclose(sp.aba(model, q, qd, tau), qdd, atol=1e-9)
    H = sp.crba(model, q)
    np.testing.assert_allclose(H, H.T, atol=1e-12)
    assert np.linalg.eigvalsh(H).min() > 0
    bias = sp.rnea(model, q, qd, np.zeros(model.nv))
    np.testing.assert_allclose(tau, H @ qdd + bias, atol=1e-9)
    zero_v = np.zeros(model.nv)
    gravity_only = sp.rnea(model, q, zero_v, zero_v)
    for i in range(model.nv):
        e = np.zeros(model.nv)
        e[i] = 1.0
        np.testing.assert_allclose(H[:, i], sp.rnea(model, q, zero_v, e) - gravity_only, atol=1e-10)


@pytest.mark.parametrize("codes", [("U", "SE", "SX"), ("PT", "T", "F2", "~F2", "R")])
def test_coriolis_matrix_of_trees_with_zoo_joints(codes, rng):
    """``C q̇`` is the bias force and ``Ḣ = C + Cᵀ`` (finite differences of crba): the joints'
    ``S̊`` (from ``c_J`` by polarization, ``α = q̇``) is right, composites included."""
    model = random_tree(rng, 6, joints=codes, gravity=[0.0, 0.0, 0.0])
    q, qd = model.random_configuration(rng), rng.normal(size=model.nv)
    C = coriolis_matrix(model, q, qd)
    np.testing.assert_allclose(C @ qd, bias_force(model, q, qd), atol=1e-10)
    h = 1e-5
    H_dot = (
        sp.crba(model, model.integrate(q, qd, h)) - sp.crba(model, model.integrate(q, qd, -h))
    ) / (2 * h)
    np.testing.assert_allclose(C + C.T, H_dot, atol=1e-8)


def test_coriolis_matrix_refuses_a_quaternion_composite(rng):
    """free_3d() has α ≠ q̇ (quaternion part) and an S that varies: no S̊, a clear error."""
    model = random_tree(rng, 2, joints=("F3",))
    q, qd = model.random_configuration(rng), rng.normal(size=model.nv)
    with pytest.raises(ValueError, match="velocity variables that are not q̇"):
        coriolis_matrix(model, q, qd)
    assert type(J.free_3d()).q_dot is not J.Joint.q_dot
    assert type(J.free_2d()).q_dot is J.Joint.q_dot and type(J.free_2d()).__name__ == "Composite"


@pytest.mark.parametrize("code", ZOO_CODES)
def test_kinetic_energy_rate_equals_power(code, rng):
    """d/dt (½ q̇ᵀ H q̇) = q̇ᵀ τ without gravity: checks c_J through the whole dynamics."""
    model = random_tree(rng, 3, joints=(code,), branching=0.0, gravity=[0.0, 0.0, 0.0])
    q, qd = model.random_configuration(rng), rng.normal(size=model.nv)
    tau = rng.normal(size=model.nv)
    qdd = sp.aba(model, q, qd, tau)
    h = 1e-6

    def energy(t):
        q_t = model.integrate(q, qd, t)  # first order in t is all the derivative needs
        qd_t = qd + t * qdd
        return 0.5 * qd_t @ sp.crba(model, q_t) @ qd_t

    rate = (energy(h) - energy(-h)) / (2 * h)
    np.testing.assert_allclose(rate, qd @ tau, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("code", ZOO_CODES + ("~U", "~SX"))
def test_maximal_constraint_rows_annihilate_the_zoo_joints_motion(code, rng):
    """A parent and a child joined by a zoo joint: zero position error, and the constraint rows
    of :mod:`spatial.maximal` annihilate every motion the joint allows."""
    joint = JOINT_CODES[code.lstrip("~")](rng)
    joint = J.Reversed(joint) if code.startswith("~") else joint
    system = System()
    parent, child = system.add_body(random_inertia(rng)), system.add_body(random_inertia(rng))
    pf, cf = exp_se3(rng.normal(size=6)), exp_se3(rng.normal(size=6))
    system.add_joint(joint, parent, child, parent_frame=pf, child_frame=cf)
    q = joint.random_configuration(rng)
    T_parent = exp_se3(rng.normal(size=6))
    T_child = T_parent @ pf @ frame_inverse(pluho(joint.transform(q))) @ frame_inverse(cf)
    T = np.stack([T_parent, T_child])
    np.testing.assert_allclose(constraint_error(system, T, q0=q), 0.0, atol=1e-12)
    G = constraint_jacobian(system, T, q0=q)
    assert G.shape == (6 - joint.nv, 12) and np.linalg.matrix_rank(G) == 6 - joint.nv
    phi = np.zeros((2, 6))
    phi[0] = rng.normal(size=6)
    T_wS = T_child @ cf
    v_S = joint.motion_subspace(q) @ rng.normal(size=joint.nv)
    v_S = v_S + Ad(frame_inverse(T_wS) @ T_parent) @ phi[0]
    phi[1] = Ad(cf) @ v_S
    np.testing.assert_allclose(G @ phi.ravel(), 0.0, atol=1e-11)


# ----------------------------------------------------------------------------- bad input


def test_constructor_errors():
    for seq in ("XXY", "XYY", "abc", "XY", "XYZX", "xyz", 3):
        with pytest.raises(ValueError, match="seq must be three axis letters"):
            J.SphericalEuler(seq)
    with pytest.raises(ValueError, match="singularity_tol must be ≥ 0"):
        J.SphericalEuler("XYZ", singularity_tol=-1.0)
    with pytest.raises(ValueError, match="singularity_tol must be a finite number"):
        J.SphericalExp(singularity_tol=np.nan)
    with pytest.raises(ValueError, match="two different axis letters"):
        J.Universal("x", "x")
    with pytest.raises(ValueError, match="two different axis letters"):
        J.Universal("w", "y")
    with pytest.raises(ValueError, match="must be perpendicular axes"):
        J.PlanarTranslation("x", AXIS)
    with pytest.raises(ValueError, match="axis must be a unit vector"):
        J.PlanarTranslation([1.0, 1.0, 0.0], "z")
    with pytest.raises(ValueError, match="second must be a spatial.joints.Joint"):
        J.Composite(J.Revolute(), "P")
    with pytest.raises(ValueError, match="at most 6 degrees of freedom, got 6 \\+ 1"):
        J.Composite(J.Free(), J.Revolute())
    with pytest.raises(ValueError, match="rotation must be a 3-DoF"):
        J.free_3d(J.Universal())


def test_model_errors_name_the_composite_part_and_the_shape(rng):
    model = random_tree(rng, 2, joints=(J.free_3d(),))
    q = model.random_configuration(rng)
    q[model.q_index[2]][:4] *= 2.0  # second body: a non-unit quaternion inside the composite
    with pytest.raises(ValueError, match=r"first joint of the composite.*unit quaternion"):
        model.check_state(q)
    with pytest.raises(ValueError, match="q"):
        sp.rnea(model, np.zeros(model.nq + 1), np.zeros(model.nv), np.zeros(model.nv))
    locked = random_tree(rng, 1, joints=(J.SphericalEuler("ZXZ"),))
    with pytest.raises(ValueError, match="gimbal lock"):
        sp.crba(locked, np.array([0.2, 0.0, 0.4]))
    with pytest.raises(ValueError, match="exponential coordinates"):
        sp.aba(random_tree(rng, 1, joints=("SX",)), [2 * np.pi, 0, 0], np.zeros(3), np.zeros(3))
