"""One body-numbering rule across the package: 0 is the fixed world, the bodies are 1 … N.

A kinematic tree (:class:`spatial.Model`, Featherstone's regular numbering), its maximal-coordinate
system (:func:`spatial.maximal.from_model`) and the force models of :mod:`spatial.forces` must
name the same body with the same number; the state arrays of maximal coordinates hold the N bodies
without the world, body ``b`` in row ``b - 1``.
"""

import numpy as np
import pytest

import spatial as sp
from spatial import joints as J
from spatial.builders import random_inertia, random_tree
from spatial.forces import (
    BodyDamping,
    FrameSpring,
    GreenStrainSpring,
    LinearLaw,
    MultiPointSpring,
    PointForce,
    PointToPointSpring,
    axial_spring,
    spring_damper,
)
from spatial.inertia import cuboid_inertia, sphere_inertia
from spatial.maximal import (
    GroundPlane,
    System,
    contact_jacobian,
    from_model,
    kkt_step,
    maximal_state,
)
from spatial.se3 import exp_se3, frame, log_so3
from spatial.vectors import skew

NB = 5


@pytest.fixture
def tree():
    rng = np.random.default_rng(11)
    model = random_tree(rng, NB, joints=("R", "P", "S", "C"), gravity=(0.0, 0.0, 0.0))
    q = model.random_configuration(rng)
    return model, q, rng


def test_tree_and_maximal_system_name_the_same_body_with_the_same_number(tree):
    model, q, _ = tree
    system = from_model(model)
    assert system.N == model.NB
    for i in range(1, model.NB + 1):
        name = model.names[i]
        assert system.body(name) == model.body(name) == i
        jc = system.joints[i - 1]
        assert (jc.parent, jc.child) == (model.parent[i], i)
    # the state arrays have no row for the world: tree body i is row i - 1
    T, _ = maximal_state(model, q, np.zeros(model.nv))
    poses = sp.body_poses(model, q)
    np.testing.assert_array_equal(T, poses[1:])


@pytest.mark.parametrize("b", range(1, NB + 1))
def test_a_force_on_body_b_moves_the_tree_body_b(tree, b):
    # Independent route: a point force F at a body-fixed point r of tree body b enters the
    # articulated-body algorithm as the world wrench [x × F; F] on body b (Featherstone's f^x_b,
    # row b of f_ext).  One KKT step from rest with PointForce(b, r, F) must give the same body
    # accelerations (Φ⁺/h, up to O(h²) from the force's stiffness in the linearly implicit step).
    model, q, rng = tree
    system = from_model(model)
    r, F = rng.normal(size=3), rng.normal(size=3)
    T_b = sp.body_poses(model, q)[b]
    x = T_b[:3, :3] @ r + T_b[:3, 3]
    f_ext = np.zeros((model.NB + 1, 6))
    f_ext[b] = np.concatenate([np.cross(x, F), F])
    qdd = sp.aba(model, q, np.zeros(model.nv), np.zeros(model.nv), f_ext)
    expected = sp.body_velocities(model, q, qdd)[1:]  # at rest: body accelerations are J q̈

    T, phi = maximal_state(model, q, np.zeros(model.nv))
    h = 1e-6
    step = kkt_step(system, T, phi, h, forces=[PointForce(b, r, F)], q0=q)
    np.testing.assert_allclose(
        step.phi / h, expected, rtol=1e-7, atol=1e-7 * np.abs(expected).max()
    )
    # and the force acts on body b's block only
    wrench = PointForce(b, r, F).evaluate(T, phi).f.reshape(model.NB, 6)
    assert np.abs(np.delete(wrench, b - 1, axis=0)).max() == 0.0
    np.testing.assert_allclose(wrench[b - 1, 3:], T_b[:3, :3].T @ F, rtol=1e-13)


def two_bodies(rng):
    T = exp_se3(rng.normal(scale=0.5, size=(2, 6)))
    phi = rng.normal(size=(2, 6))
    return T, phi


def test_point_springs_take_0_as_the_world():
    # a zero-rest-length spring from a world anchor to a point r on body 2 pulls with k (a - x),
    # whether it is written as a point-to-point spring, an axial spring or a two-point path
    rng = np.random.default_rng(3)
    T, phi = two_bodies(rng)
    anchor, r, k = np.array([0.3, -1.0, 2.0]), rng.normal(size=3), 7.0
    R, p = T[1, :3, :3], T[1, :3, 3]
    pull = R.T @ (k * (anchor - (R @ r + p)))  # in body 2's coordinates
    expected = np.zeros(12)
    expected[6:] = np.concatenate([np.cross(r, pull), pull])  # Γ(r)ᵀ Rᵀ F (Sueda eq. 1.13)
    for spring in (
        PointToPointSpring(0, anchor, 2, r, k=k),
        axial_spring(0, anchor, 2, r, LinearLaw(k)),
        MultiPointSpring([0, 2], [anchor, r], LinearLaw(k)),
    ):
        np.testing.assert_allclose(spring.evaluate(T, phi).f, expected, rtol=1e-12, atol=1e-12)


def test_a_frame_spring_on_the_world_measures_from_a_world_frame():
    rng = np.random.default_rng(4)
    T, _ = two_bodies(rng)
    T_W1 = exp_se3(rng.normal(size=6))  # frame 1, fixed in the world
    spring = FrameSpring(0, T_W1, 1, np.eye(4), k_t=2.0, k_r=3.0)
    theta, delta = spring.displacement(T)
    R1, p1 = T_W1[:3, :3], T_W1[:3, 3]
    np.testing.assert_allclose(theta, log_so3(R1.T @ T[0, :3, :3]), atol=1e-13)
    np.testing.assert_allclose(delta, R1.T @ (T[0, :3, 3] - p1), atol=1e-13)
    # the world takes no block: body 1 is row 0, body 2 is untouched
    f = spring.evaluate(T, np.zeros((2, 6))).f
    assert np.abs(f[:6]).max() > 0.1 and np.abs(f[6:]).max() == 0.0


NONE_IS_NOT_A_BODY = [
    lambda: BodyDamping(None, 1.0),
    lambda: PointForce(None, [0.0, 0.0, 0.0], [1.0, 0.0, 0.0]),
    lambda: PointToPointSpring(None, [0.0, 0.0, 0.0], 1, [0.0, 0.0, 0.0], k=1.0),
    lambda: GreenStrainSpring(1, [0.0, 0.0, 0.0], None, [1.0, 0.0, 0.0], k=1.0, rest_length=1.0),
    lambda: axial_spring(None, [0.0, 0.0, 0.0], 1, [0.0, 0.0, 0.0], LinearLaw(1.0)),
    lambda: spring_damper(1, [0.0, 0.0, 0.0], None, [1.0, 0.0, 0.0], 1.0, 0.1, 1.0),
    lambda: MultiPointSpring([1, None], [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]], LinearLaw(1.0)),
    lambda: FrameSpring(None, np.eye(4), 1, np.eye(4), k_t=1.0, k_r=1.0),
]


@pytest.mark.parametrize("build", NONE_IS_NOT_A_BODY)
def test_forces_reject_None_and_say_that_0_is_the_world(build):
    with pytest.raises(ValueError, match=r"got None: 0 is the world \(bodies are numbered 1 … N\)"):
        build()


BEYOND_N = [
    BodyDamping(3, 1.0),
    PointForce(3, [0.0, 0.0, 0.0], [1.0, 0.0, 0.0]),
    PointToPointSpring(0, [0.0, 0.0, 0.0], 3, [0.0, 0.0, 0.0], k=1.0),
    GreenStrainSpring(3, [0.0, 0.0, 0.0], 1, [1.0, 0.0, 0.0], k=1.0, rest_length=1.0),
    MultiPointSpring([1, 2, 3], [[0.0, 0.0, 0.0]] * 3, LinearLaw(1.0)),
    FrameSpring(2, np.eye(4), 3, np.eye(4), k_t=1.0, k_r=1.0),
]


@pytest.mark.parametrize("force", BEYOND_N, ids=lambda F: type(F).__name__)
def test_forces_reject_body_N_plus_1_naming_the_range(force):
    # two bodies: 1 and 2 exist, 3 does not (the old 0-based numbering would have taken it)
    T, phi = two_bodies(np.random.default_rng(5))
    message = rf"{type(force).__name__} acts on body 3, but T has only 2 bodies \(1 … 2; 0 is"
    with pytest.raises(ValueError, match=message):
        force.evaluate(T, phi)


def test_the_world_cannot_be_damped_or_pushed():
    with pytest.raises(ValueError, match=r"the world \(0\) cannot be damped"):
        BodyDamping(0, 1.0)
    with pytest.raises(ValueError, match=r"a force on the world \(0\) does nothing"):
        PointForce(0, [0.0, 0.0, 0.0], [1.0, 0.0, 0.0])


def test_system_numbers_bodies_from_1_and_rejects_None():
    rng = np.random.default_rng(6)
    system = System()
    assert system.add_body(random_inertia(rng)) == 1
    assert system.add_body(random_inertia(rng), name="second") == 2
    assert system.names == ["body1", "second"]
    assert system.body("body1") == 1 and system.body("second") == 2
    assert system.add_joint(J.Revolute(), 0, 1) == 0  # parent 0: the world
    system.add_joint(J.Revolute(), "body1", "second")
    assert [(jc.parent, jc.child) for jc in system.joints] == [(0, 1), (1, 2)]
    bodies = r"bodies are numbered 1 … 2 and 0 is the world"
    with pytest.raises(ValueError, match=rf"parent body None is not accepted: {bodies}"):
        system.add_joint(J.Revolute(), None, 2)
    with pytest.raises(ValueError, match=rf"parent body 3 is not in the system \({bodies}\)"):
        system.add_joint(J.Revolute(), 3, 2)
    with pytest.raises(ValueError, match=r"child body 0 is the fixed world; it must be a body"):
        system.add_joint(J.Revolute(), 1, 0)
    with pytest.raises(ValueError, match=r"contact body 0 is the fixed world"):
        system.add_contact_points(0, [[0.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match=rf"contact body 3 is not in the system \({bodies}\)"):
        system.add_contact_points(3, [[0.0, 0.0, 0.0]])


def test_contacts_are_reported_by_body_number():
    # body 1 floats high above the ground, body 2 (a box) rests on it: every contact is body 2's,
    # and its rows live in body 2's columns 6 … 11
    system = System(gravity=[0.0, 0.0, -9.81])
    system.add_body(sphere_inertia(1.0, 0.1), name="ball")
    box = system.add_body(cuboid_inertia(2.0, 0.4, 0.3, 0.2), name="box")
    corners = 0.5 * np.array([[sx * 0.4, sy * 0.3, -0.2] for sx in (-1, 1) for sy in (-1, 1)])
    system.add_contact_points(box, corners)
    T = np.stack([frame(np.eye(3), [0.0, 0.0, 5.0]), frame(np.eye(3), [0.0, 0.0, 0.1])])
    phi = np.zeros((2, 6))
    ground = GroundPlane(mu=0.5)
    J_c, gap = contact_jacobian(system, T, ground)
    assert len(gap) == 4 and np.abs(J_c[:, :6]).max() == 0.0 and np.abs(J_c[:, 6:]).max() > 0
    step = kkt_step(system, T, phi, 0.01, ground=ground)
    np.testing.assert_array_equal(step.contact.body, [box] * 4)
    # the box's weight is carried: total normal impulse m g h
    assert step.contact.normal_impulse.sum() == pytest.approx(2.0 * 9.81 * 0.01, rel=1e-9)
    # the contact rows of a box corner match Γ by hand: nᵀ R Γ(r) = [(r × n)ᵀ, nᵀ] for R = 1
    n = np.array([0.0, 0.0, 1.0])
    np.testing.assert_allclose(J_c[0, 6:], np.concatenate([skew(corners[0]) @ n, n]), atol=1e-15)
