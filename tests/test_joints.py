"""Tests of spatial.joints: every joint model of Featherstone Table 4.1, §4.5, Example 4.6 and
Table 4.2, checked against finite differences of its own joint transform.

Two identities drive the derivative tests.

* **S from X_J.**  Let ``X(t) = X_J(q(t))`` map F_p to F_s coordinates while F_s moves relative
  to F_p with velocity ``v_J`` (F_s coordinates).  A motion vector ``m`` fixed in F_p has
  F_s coordinates ``X m_p``; seen from F_s it changes at the rate ``-v_J × (X m_p)``.  Hence
  ``Ẋ X⁻¹ = -crm(v_J)``, i.e. ``crm(S α) = -Ẋ X⁻¹`` along ``q̇ = q_dot(q, α)``.
* **c_J from S.**  ``S`` holds F_s coordinates, so its apparent derivative in F_s (eq. 3.42)
  is the plain time derivative of the array ``S(q(t))`` along ``q̇ = q_dot(q, α)``, and
  ``c_J = (d/dt S(q(t))) α`` with ``α`` held fixed.

Both derivatives are taken with central differences along ``q ± h q̇``.
"""

import numpy as np
import pytest
import scipy.linalg
from scipy.spatial.transform import Rotation

import spatial as sp
import spatial.joints as J
from spatial.joints import (
    Composite,
    Cylindrical,
    Fixed,
    Free,
    Helical,
    Joint,
    Planar,
    PlanarTranslation,
    Prismatic,
    RackPinion,
    Reversed,
    Revolute,
    Spherical,
    SphericalEuler,
    SphericalExp,
    SphericalYPR,
    SplineCurve,
    SplineSurface,
    Translational,
    Universal,
    free_2d,
    free_3d,
)

AXIS = np.array([2.0, -1.0, 2.0]) / 3.0


def spline_joints():
    """A spline curve and a spline surface joint (Sueda §2.4.12–13) with ``X_J(0) = 1``.

    The curve's first three frames are ``exp(-ξ), 1, exp(ξ)`` and the surface's first 3x3
    coordinates are linear in the grid indices, centred on the second row and column, so the
    spline passes through the identity at ``q = 0`` with a nonzero velocity there.
    """
    xi = np.array([0.3, -0.2, 0.4, 0.5, 0.1, -0.3])
    rng = np.random.default_rng(7)
    steps = np.concatenate([np.stack([-xi, 0 * xi, xi]), xi + 0.3 * rng.normal(size=(3, 6))])
    i, k = np.meshgrid(np.arange(5) - 1.0, np.arange(6) - 1.0, indexing="ij")
    slope = rng.uniform(-0.3, 0.3, size=(2, 6))
    values = i[..., None] * slope[0] + k[..., None] * slope[1]
    values[3:] += 0.05 * np.arange(6)
    grid = np.zeros((5, 6, 4, 4))
    grid[..., 3, 3] = 1.0
    grid[..., :3, 3] = values[..., :3]
    grid[..., :3, :3] = sp.euler_to_matrix(values[..., 3:], "XYZ")
    return SplineCurve(sp.exp_se3(steps)), SplineSurface(grid)


SPLINE_CURVE, SPLINE_SURFACE = spline_joints()

BASE_JOINTS = {
    "Rz": Revolute("z"),
    "R": Revolute(AXIS),
    "Px": Prismatic("x"),
    "P": Prismatic(AXIS),
    "Fixed": Fixed(),
    "H": Helical(AXIS, pitch=0.3),
    "C": Cylindrical(AXIS),
    "Planar": Planar(),
    "YPR": SphericalYPR(),
    "S": Spherical(),
    "Free": Free(),
    "RP": RackPinion(0.7),
    # Sueda's joint zoo (§2.4)
    "U": Universal(),
    "Uzx": Universal("z", "x"),
    "EZYX": SphericalEuler("ZYX"),
    "EXZX": SphericalEuler("XZX"),
    "EYXZ": SphericalEuler("YXZ"),
    "PT": PlanarTranslation(),
    "PTa": PlanarTranslation(AXIS, np.array([1.0, 2.0, 0.0]) / np.sqrt(5.0)),
    "T": Translational(),
    "SE": SphericalExp(),
    "CRP": Composite(Revolute(AXIS), Prismatic("x")),
    "CPlPR": Composite(Planar(), Composite(Prismatic("z"), Revolute("x"))),
    "CSPT": Composite(Spherical(), PlanarTranslation("y", "z")),
    "free2d": free_2d(),
    "free3d": free_3d(),
    "free3dE": free_3d(SphericalEuler("XYX")),
    "free3dX": free_3d(SphericalExp()),
    "SplC": SPLINE_CURVE,
    "SplS": SPLINE_SURFACE,
}
ALL_JOINTS = {
    **BASE_JOINTS,
    **{f"~{k}": Reversed(j) for k, j in BASE_JOINTS.items()},
    "~~RP": Reversed(Reversed(RackPinion(0.7))),
}
# joints with constant S and c_J = 0: constant α gives X(t) = exp(-t crm(v_J)) X(0)
CONSTANT_S = ["Rz", "R", "Px", "P", "H", "C", "Planar", "S", "Free", "~H", "PT", "PTa", "T"]
QUATERNION_JOINTS = ["S", "Free", "~S", "~Free", "CSPT", "~CSPT", "free3d", "~free3d"]

params = pytest.mark.parametrize("name", list(ALL_JOINTS))


def state(joint: Joint, rng, shape=()):
    q = joint.random_configuration(rng, shape)
    alpha = rng.uniform(-1.0, 1.0, size=tuple(shape) + (joint.nv,))
    return q, alpha


def crm_vector(M):
    """The motion vector ``v`` with ``crm(v) == M``, after checking that M has crm's structure."""
    w = sp.unskew(M[..., :3, :3])
    v = sp.unskew(M[..., 3:, :3])
    np.testing.assert_allclose(M, sp.crm(np.concatenate([w, v], -1)), atol=1e-7)
    return np.concatenate([w, v], -1)


def same_quaternion_rotation(q1, q2, atol):
    """Compare quaternions up to sign (q and -q are the same rotation)."""
    sign = np.where(np.sum(q1 * q2, axis=-1, keepdims=True) < 0, -1.0, 1.0)
    np.testing.assert_allclose(q1, sign * q2, atol=atol)


# ----------------------------------------------------------------------------- generic


@params
def test_shapes_and_batch_equals_loop(name, rng):
    joint = ALL_JOINTS[name]
    q, alpha = state(joint, rng, (2, 3))
    X, S, v_J, c_J = joint.jcalc(q, alpha)
    T = joint.constraint_subspace(q)
    assert X.shape == (2, 3, 6, 6) and S.shape == (2, 3, 6, joint.nv)
    assert v_J.shape == c_J.shape == (2, 3, 6) and T.shape == (2, 3, 6, 6 - joint.nv)
    qd = joint.q_dot(q, alpha)
    assert qd.shape == (2, 3, joint.nq)
    for i in range(2):
        for k in range(3):
            Xi, Si, vi, ci = joint.jcalc(q[i, k], alpha[i, k])
            np.testing.assert_allclose(X[i, k], Xi, atol=1e-14)
            np.testing.assert_allclose(S[i, k], Si, atol=1e-14)
            np.testing.assert_allclose(v_J[i, k], vi, atol=1e-14)
            np.testing.assert_allclose(c_J[i, k], ci, atol=1e-14)
            np.testing.assert_allclose(qd[i, k], joint.q_dot(q[i, k], alpha[i, k]), atol=1e-14)


@params
def test_jcalc_matches_the_separate_methods(name, rng):
    joint = ALL_JOINTS[name]
    q, alpha = state(joint, rng, (4,))
    X, S, v_J, c_J = joint.jcalc(q, alpha)
    np.testing.assert_allclose(X, joint.transform(q), atol=1e-14)
    np.testing.assert_allclose(S, joint.motion_subspace(q), atol=1e-14)
    np.testing.assert_allclose(v_J, (S @ alpha[..., None])[..., 0], atol=1e-14)
    np.testing.assert_allclose(c_J, joint.bias(q, alpha), atol=1e-14)


@params
def test_transform_is_plucker_and_identity_at_neutral(name, rng):
    joint = ALL_JOINTS[name]
    q = joint.random_configuration(rng, (5,))
    sp.unplux(joint.transform(q))  # raises unless [[E, 0], [-E r×, E]] with E a rotation
    np.testing.assert_allclose(joint.transform(joint.neutral()), np.eye(6), atol=1e-15)
    assert joint.neutral().shape == (joint.nq,)


@params
def test_motion_subspace_against_finite_differences_of_the_transform(name, rng):
    """crm(S α) = -Ẋ X⁻¹ along q̇ = q_dot(q, α) (see the module docstring)."""
    joint = ALL_JOINTS[name]
    h = 1e-5
    for _ in range(3):
        q, alpha = state(joint, rng)
        qd = joint.q_dot(q, alpha)
        X_dot = (joint.transform(q + h * qd) - joint.transform(q - h * qd)) / (2 * h)
        v_fd = crm_vector(-X_dot @ sp.xinv(joint.transform(q)))
        v_J = joint.motion_subspace(q) @ alpha
        np.testing.assert_allclose(v_J, v_fd, atol=1e-8)


@params
def test_velocity_product_against_finite_differences_of_S(name, rng):
    """c_J = (d/dt S(q(t))) α along q̇ = q_dot(q, α) (eq. 3.41–3.42, F_s coordinates)."""
    joint = ALL_JOINTS[name]
    h = 1e-5
    for _ in range(3):
        q, alpha = state(joint, rng)
        qd = joint.q_dot(q, alpha)
        S_dot = (joint.motion_subspace(q + h * qd) - joint.motion_subspace(q - h * qd)) / (2 * h)
        np.testing.assert_allclose(joint.bias(q, alpha), S_dot @ alpha, atol=1e-8)


@params
def test_q_dot_is_the_derivative_of_integrate(name, rng):
    joint = ALL_JOINTS[name]
    h = 1e-5
    q, alpha = state(joint, rng, (4,))
    fd = (joint.integrate(q, alpha, h) - joint.integrate(q, alpha, -h)) / (2 * h)
    np.testing.assert_allclose(joint.q_dot(q, alpha), fd, atol=1e-9)


@params
def test_integrate_and_difference_are_inverse(name, rng):
    joint = ALL_JOINTS[name]
    q0, alpha = state(joint, rng, (6,))
    dt = rng.uniform(0.1, 1.0, size=(6,))
    q1 = joint.integrate(q0, alpha, dt)
    np.testing.assert_allclose(joint.difference(q0, q1), dt[:, None] * alpha, atol=1e-12)
    np.testing.assert_allclose(joint.integrate(q0, alpha, 0.0), q0, atol=1e-15)
    # and the other way round, between two random configurations
    q2 = joint.random_configuration(rng, (6,))
    back = joint.integrate(q0, joint.difference(q0, q2), 1.0)
    if name in QUATERNION_JOINTS:
        same_quaternion_rotation(back[:, :4], q2[:, :4], atol=1e-12)
        np.testing.assert_allclose(back[:, 4:], q2[:, 4:], atol=1e-12)
    else:
        np.testing.assert_allclose(back, q2, atol=1e-12)


@pytest.mark.parametrize("name", CONSTANT_S)
def test_integrate_follows_constant_joint_velocity(name, rng):
    """With S constant and α constant, v_J is constant in F_s, so X(t) = exp(-t crm(v_J)) X(0)."""
    joint = ALL_JOINTS[name]
    q, alpha = state(joint, rng)
    alpha *= 2.0
    t = 0.8
    v_J = joint.motion_subspace(q) @ alpha
    expected = scipy.linalg.expm(-t * sp.crm(v_J)) @ joint.transform(q)
    np.testing.assert_allclose(joint.transform(joint.integrate(q, alpha, t)), expected, atol=1e-12)


@params
def test_random_configuration_is_valid(name, rng):
    joint = ALL_JOINTS[name]
    q = joint.random_configuration(rng, (50,))
    assert q.shape == (50, joint.nq)
    joint.check_q(q)
    assert joint.random_configuration(rng).shape == (joint.nq,)


@params
def test_constraint_subspace_annihilates_S(name, rng):
    joint = ALL_JOINTS[name]
    q = joint.random_configuration(rng, (4,))
    S, T = joint.motion_subspace(q), joint.constraint_subspace(q)
    np.testing.assert_allclose(np.swapaxes(T, -1, -2) @ S, 0.0, atol=1e-12)
    assert np.all(np.linalg.matrix_rank(np.concatenate([S, T], -1)) == 6)


@params
def test_repr_rebuilds_an_equivalent_joint(name, rng):
    joint = ALL_JOINTS[name]
    copy = eval(repr(joint), vars(J))
    assert type(copy) is type(joint) and repr(copy) == repr(joint)
    q, alpha = state(joint, rng)
    for a, b in zip(copy.jcalc(q, alpha), joint.jcalc(q, alpha), strict=True):
        np.testing.assert_array_equal(a, b)


# ----------------------------------------------------------------------------- known values


def test_table_4_1_revolute_helical_cylindrical_at_a_quarter_turn():
    E = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])  # rz(π/2)
    q = np.array([np.pi / 2])
    np.testing.assert_allclose(Revolute("z").transform(q), sp.plux(E, [0, 0, 0]), atol=1e-15)
    np.testing.assert_array_equal(Revolute("z").motion_subspace(q)[:, 0], [0, 0, 1, 0, 0, 0])
    prismatic = Prismatic("z")
    np.testing.assert_allclose(prismatic.transform(q), sp.xlt([0, 0, np.pi / 2]), atol=1e-15)
    np.testing.assert_array_equal(prismatic.motion_subspace(q)[:, 0], [0, 0, 0, 0, 0, 1])
    h = 0.2
    helical = Helical("z", pitch=h)
    np.testing.assert_allclose(helical.transform(q), sp.plux(E, [0, 0, h * np.pi / 2]), atol=1e-15)
    np.testing.assert_allclose(helical.motion_subspace(q)[:, 0], [0, 0, 1, 0, 0, h])
    # Table 4.1's T for the helical joint spans the same subspace as ours
    T_book = np.array(
        [[1, 0, 0, 0, 0], [0, 1, 0, 0, 0], [0, 0, 0, 0, -h], [0, 0, 1, 0, 0], [0, 0, 0, 1, 0]]
        + [[0, 0, 0, 0, 1]],
        dtype=float,
    )
    T = helical.constraint_subspace(q)
    assert np.linalg.matrix_rank(np.hstack([T, T_book])) == 5
    cyl = Cylindrical("z")
    np.testing.assert_allclose(
        cyl.transform(np.array([np.pi / 2, 0.3])), sp.plux(E, [0, 0, 0.3]), atol=1e-15
    )
    S = np.zeros((6, 2))
    S[2, 0] = S[5, 1] = 1.0
    np.testing.assert_array_equal(cyl.motion_subspace(np.zeros(2)), S)


def test_axis_joints_about_a_general_axis_match_a_rotated_z_joint(rng):
    """A joint about axis a equals the z joint seen in a frame whose z axis is a."""
    k = np.cross([0.0, 0.0, 1.0], AXIS)
    R = Rotation.from_rotvec(k / np.linalg.norm(k) * np.arccos(AXIS[2])).as_matrix()
    assert np.allclose(R @ [0, 0, 1], AXIS)  # R is active and takes z onto the axis
    Xa = sp.rot(R.T)  # from F_p (or F_s) to the rotated frame whose z axis is the joint axis
    for za, zj in ((Helical(AXIS, 0.3), Helical("z", 0.3)), (Cylindrical(AXIS), Cylindrical("z"))):
        q = za.random_configuration(rng)
        np.testing.assert_allclose(za.transform(q), sp.xinv(Xa) @ zj.transform(q) @ Xa, atol=1e-14)


def test_planar_joint_matches_table_4_1_with_the_position_in_F_s():
    """Our q = [θ, x, y] (position in F_p) is Table 4.1's [θ, q₂, q₃] with [x, y] = R(θ)[q₂, q₃]."""
    theta, q2, q3 = 0.7, 0.4, -1.3
    c, s = np.cos(theta), np.sin(theta)
    r = np.array([c * q2 - s * q3, s * q2 + c * q3, 0.0])  # Table 4.1's r column
    E = np.array([[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]])  # rz(θ)
    X = Planar().transform(np.array([theta, r[0], r[1]]))
    np.testing.assert_allclose(X, sp.plux(E, r), atol=1e-15)
    S = np.zeros((6, 3))
    S[2, 0] = S[3, 1] = S[4, 2] = 1.0
    np.testing.assert_array_equal(Planar().motion_subspace(np.zeros(3)), S)
    # q̇ = [α₁; R(θ) α₂₃] (Example 4.5 without the terms of α = d/dt q_s)
    alpha = np.array([0.5, 1.0, 2.0])
    expected = [0.5, c * 1.0 - s * 2.0, s * 1.0 + c * 2.0]
    np.testing.assert_allclose(Planar().q_dot(np.array([theta, 3.0, 4.0]), alpha), expected)


def test_rack_and_pinion_example_4_6():
    r, q, qd = 0.5, np.pi / 2, 2.0
    joint = RackPinion(r)
    E = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    np.testing.assert_allclose(
        joint.transform(np.array([q])), sp.plux(E, [r * q, 0, 0]), atol=1e-15
    )
    # S = v_J / q̇ with v_J = sX_p pv_J and pv_J = [0, 0, q̇, r q̇, -r q q̇, 0] (Example 4.6)
    pv = np.array([0, 0, qd, r * qd, -r * q * qd, 0])
    v_J = joint.transform(np.array([q])) @ pv
    np.testing.assert_allclose(joint.motion_subspace(np.array([q]))[:, 0], v_J / qd, atol=1e-15)
    np.testing.assert_allclose(v_J, [0, 0, qd, 0, -r * qd, 0], atol=1e-15)
    np.testing.assert_allclose(
        joint.bias(np.array([q]), np.array([qd])), [0, 0, 0, -r * qd**2, 0, 0], atol=1e-15
    )
    # the contact point (r q, r) of F_p is at rest: zero velocity of the pinion's point there
    point_velocity = sp.point_velocity(pv, np.array([r * q, r, 0.0]))
    np.testing.assert_allclose(point_velocity, 0.0, atol=1e-15)
    # r = 0 is a revolute joint about z
    np.testing.assert_allclose(
        RackPinion(0.0).transform(np.array([0.4])), Revolute("z").transform(np.array([0.4]))
    )


def test_spherical_ypr_equation_4_7_and_4_8():
    q1, q2, q3 = 0.3, -0.4, 1.1
    R = Rotation.from_euler("ZYX", [q1, q2, q3]).as_matrix()  # intrinsic z, then y, then x
    joint = SphericalYPR()
    q = np.array([q1, q2, q3])
    np.testing.assert_allclose(joint.transform(q), sp.rot(R.T), atol=1e-15)
    c2, s2, c3, s3 = np.cos(q2), np.sin(q2), np.cos(q3), np.sin(q3)
    S_book = np.array([[-s2, 0, 1], [c2 * s3, c3, 0], [c2 * c3, -s3, 0]])  # eq. 4.8
    np.testing.assert_allclose(joint.motion_subspace(q)[:3], S_book, atol=1e-15)
    np.testing.assert_array_equal(joint.motion_subspace(q)[3:], 0.0)
    # columns: F_p's z axis, then the once-rotated y axis, then F_s's x axis, in F_s coordinates
    np.testing.assert_allclose(S_book[:, 0], R.T @ [0, 0, 1], atol=1e-15)


def test_spherical_equation_4_12_and_4_13(rng):
    p = sp.quat_normalize(rng.standard_normal(4))
    p0, p1, p2, p3 = p
    E = 2 * np.array(  # eq. 4.12
        [
            [p0**2 + p1**2 - 0.5, p1 * p2 + p0 * p3, p1 * p3 - p0 * p2],
            [p1 * p2 - p0 * p3, p0**2 + p2**2 - 0.5, p2 * p3 + p0 * p1],
            [p1 * p3 + p0 * p2, p2 * p3 - p0 * p1, p0**2 + p3**2 - 0.5],
        ]
    )
    np.testing.assert_allclose(Spherical().transform(p), sp.rot(E), atol=1e-15)
    R = Rotation.from_quat([p1, p2, p3, p0]).as_matrix()  # scipy is scalar last
    np.testing.assert_allclose(E, R.T, atol=1e-15)
    G = 0.5 * np.array([[-p1, -p2, -p3], [p0, -p3, p2], [p3, p0, -p1], [-p2, p1, p0]])  # eq. 4.13
    w = rng.standard_normal(3)
    np.testing.assert_allclose(Spherical().q_dot(p, w), G @ w, atol=1e-15)
    S = np.vstack([np.eye(3), np.zeros((3, 3))])
    np.testing.assert_array_equal(Spherical().motion_subspace(p), S)


def test_free_joint_transform_and_q_dot(rng):
    q = Free().random_configuration(rng)
    R = Rotation.from_quat(np.r_[q[1:4], q[0]]).as_matrix()
    E, r = sp.unplux(Free().transform(q))
    np.testing.assert_allclose(E, R.T, atol=1e-15)
    np.testing.assert_allclose(r, q[4:], atol=1e-15)
    alpha = rng.standard_normal(6)
    qd = Free().q_dot(q, alpha)
    np.testing.assert_allclose(qd[:4], Spherical().q_dot(q[:4], alpha[:3]), atol=1e-15)
    np.testing.assert_allclose(qd[4:], R @ alpha[3:], atol=1e-15)
    np.testing.assert_array_equal(Free().motion_subspace(q), np.eye(6))
    np.testing.assert_array_equal(Free().bias(q, alpha), 0.0)


@pytest.mark.parametrize("name", QUATERNION_JOINTS)
def test_quaternion_stays_unit_under_integrate(name, rng):
    joint = ALL_JOINTS[name]
    q, alpha = state(joint, rng, (8,))
    for _ in range(500):
        q = joint.integrate(q, 5.0 * alpha, 0.1)
    np.testing.assert_allclose(np.linalg.norm(q[:, :4], axis=-1), 1.0, atol=1e-13)
    joint.check_q(q)


def test_free_difference_through_large_rotations(rng):
    """The log picks the shortest rotation, so difference∘integrate = id for |ω dt| < π."""
    q0 = Free().random_configuration(rng, (20,))
    v = rng.standard_normal((20, 6))
    v[:, :3] *= 3.0 / np.linalg.norm(v[:, :3], axis=-1, keepdims=True)  # |ω| = 3 < π
    np.testing.assert_allclose(Free().difference(q0, Free().integrate(q0, v, 1.0)), v, atol=1e-10)


# ----------------------------------------------------------------------------- reversed joints


@pytest.mark.parametrize("name", list(BASE_JOINTS))
def test_reversed_follows_table_4_2(name, rng):
    joint = BASE_JOINTS[name]
    rev = Reversed(joint)
    q, alpha = state(joint, rng, (3,))
    X, S, v_J, c_J = joint.jcalc(q, alpha)
    Xr, Sr, vr, cr = rev.jcalc(q, alpha)
    Xinv = np.linalg.inv(X)
    np.testing.assert_allclose(Xr, Xinv, atol=1e-12)
    np.testing.assert_allclose(Sr, -Xinv @ S, atol=1e-12)
    np.testing.assert_allclose(vr, -(Xinv @ v_J[..., None])[..., 0], atol=1e-12)
    np.testing.assert_allclose(cr, -(Xinv @ c_J[..., None])[..., 0], atol=1e-12)
    np.testing.assert_allclose(rev.q_dot(q, alpha), joint.q_dot(q, alpha), atol=0)
    assert (rev.nq, rev.nv) == (joint.nq, joint.nv)


@pytest.mark.parametrize("name", list(BASE_JOINTS))
def test_reversed_twice_is_the_joint(name, rng):
    joint = BASE_JOINTS[name]
    twice = Reversed(Reversed(joint))
    q, alpha = state(joint, rng, (3,))
    for a, b in zip(twice.jcalc(q, alpha), joint.jcalc(q, alpha), strict=True):
        np.testing.assert_allclose(a, b, atol=1e-12)
    T2, T = twice.constraint_subspace(q), joint.constraint_subspace(q)
    np.testing.assert_allclose(T2, T, atol=1e-12)
    np.testing.assert_allclose(twice.integrate(q, alpha, 0.3), joint.integrate(q, alpha, 0.3))


def test_reversed_joint_describes_the_predecessor_seen_from_the_successor(rng):
    """v_J' is the velocity of F_p relative to F_s, in F_p coordinates: -pX_s v_J."""
    joint = RackPinion(0.4)
    q, alpha = state(joint, rng)
    v_s_rel_p = joint.motion_subspace(q) @ alpha  # F_s relative to F_p, in F_s
    v_p_rel_s = Reversed(joint).motion_subspace(q) @ alpha  # F_p relative to F_s, in F_p
    np.testing.assert_allclose(joint.transform(q) @ v_p_rel_s, -v_s_rel_p, atol=1e-14)


# ----------------------------------------------------------------------------- validation


def test_check_q_rejects_non_unit_quaternions():
    with pytest.raises(ValueError, match="unit quaternion"):
        Spherical().check_q(np.array([1.0, 0.1, 0.0, 0.0]), "q of joint 3")
    with pytest.raises(ValueError, match="quaternion part"):
        Free().check_q(np.array([0.9, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="unit quaternion"):
        Reversed(Spherical()).check_q(np.array([[1.0, 0, 0, 0], [2.0, 0, 0, 0]]))
    Spherical().check_q(np.array([1.0, 1e-7, 0.0, 0.0]))  # within the tolerance 1e-6


def test_check_q_rejects_the_ypr_singularity():
    joint = SphericalYPR()
    joint.check_q(np.array([0.3, np.pi / 2 - 1e-3, 0.2]))
    with pytest.raises(ValueError, match="singularity"):
        joint.check_q(np.array([[0.0, 0.0, 0.0], [0.3, np.pi / 2, 0.2]]))
    with pytest.raises(ValueError, match="singularity"):
        SphericalYPR(singularity_tol=0.1).check_q(np.array([0.0, -np.pi / 2 + 0.05, 0.0]))


def test_constructor_errors():
    with pytest.raises(ValueError, match="pitch must be a finite number"):
        Helical("z", pitch=np.nan)
    with pytest.raises(ValueError, match="pitch must be a finite number"):
        Helical("z", pitch=[0.1, 0.2])
    with pytest.raises(ValueError, match="radius must be ≥ 0"):
        RackPinion(-1.0)
    with pytest.raises(ValueError, match="radius must be a finite number"):
        RackPinion(np.inf)
    with pytest.raises(ValueError, match="singularity_tol must be ≥ 0"):
        SphericalYPR(-1e-3)
    with pytest.raises(ValueError, match="joint must be a spatial.joints.Joint"):
        Reversed("R")
    with pytest.raises(ValueError, match="axis must be a unit vector"):
        Cylindrical([1.0, 1.0, 0.0])
    with pytest.raises(ValueError, match="axis must be 'x', 'y', 'z'"):
        Helical("w", 0.1)


def test_revolute_and_prismatic_transforms_equal_the_books_rx_ry_rz_and_xlt(rng):
    """The constant-matrix forms of rot(E(q)) and xlt(a q) agree with Table 2.2 for batches."""
    q = rng.uniform(-4.0, 4.0, size=(5, 1))
    for axis, r in zip("xyz", (sp.rotx, sp.roty, sp.rotz), strict=True):
        np.testing.assert_allclose(Revolute(axis).transform(q), r(q[:, 0]), atol=1e-14)
        expected = sp.xlt(q * J.axis_vector(axis))
        np.testing.assert_allclose(Prismatic(axis).transform(q), expected, atol=1e-14)
    a = np.array([1.0, -2.0, 0.5]) / np.linalg.norm([1.0, -2.0, 0.5])
    R = sp.quat_to_matrix(sp.quat_from_axis_angle(a, q[:, 0]))  # active rotation about a
    np.testing.assert_allclose(Revolute(a).transform(q), sp.rot(np.swapaxes(R, -1, -2)), atol=1e-14)


def test_revolute_transform_has_exact_zeros_and_ones():
    """rot(rz(q)) from the constant basis is exact: no cos(π/2) = 6e-17 left in it.

    The basis is ``cos q · X_cos + sin q · X_sin + X_one``; evaluated at π/2 the ``sin``
    part carried 6e-17 on its diagonal, so ``E₁₁`` was ``cos q + 6e-17 sin q`` and the
    generated code (``spatial.symbolic.generate``) could not drop that product.
    """
    from spatial.vectors import rot, rx, ry, rz

    for axis, E in (("x", rx), ("y", ry), ("z", rz)):
        joint = sp.joints.Revolute(axis)
        for q in (0.3, -1.2, 2.9):
            np.testing.assert_array_equal(joint.transform(np.array([q])), rot(E(q)))
        X_cos, X_sin = joint.transform_basis()[0]
        assert np.count_nonzero(X_sin) == 4 and set(np.unique(X_sin)) == {-1.0, 0.0, 1.0}
