"""Tests of the constant tree structure the recursive algorithms precompute (speed, issue 15).

``Model.fused_tree_transform`` joins a joint's transform basis to its tree transform and
``Model.unit_motion_axis`` turns products with ``S = e_k`` into selections.  Oracles: the
joint's own ``transform`` times ``X_T(i)``, ``S`` read off the joint, and a model rebuilt from
scratch after a body's tree transform or joint is replaced.
"""

import numpy as np
import pytest

import spatial as sp
from spatial.builders import gu_chain
from spatial.joints import Cylindrical, Helical, Prismatic, Revolute, SphericalYPR


@pytest.mark.parametrize("joint", [Revolute("z"), Revolute([0.6, 0.0, 0.8]), Prismatic("y")])
def test_fused_tree_transform_equals_joint_transform_times_tree_transform(joint):
    rng = np.random.default_rng(3)
    model = sp.Model()
    X_tree = sp.builders.random_transform(rng)
    model.add_body(0, joint, X_tree, sp.builders.random_inertia(rng))
    K, K_0 = model.fused_tree_transform(1)
    q = rng.uniform(-3.0, 3.0, (5, 1))
    fused = (joint.transform_features(q) @ K).reshape(5, 6, 6) + K_0
    np.testing.assert_allclose(fused, joint.transform(q) @ X_tree, atol=1e-14)


def test_joints_without_a_transform_basis_have_no_fused_form():
    rng = np.random.default_rng(4)
    model = sp.Model()
    model.add_body(0, SphericalYPR(), np.eye(6), sp.builders.random_inertia(rng))
    assert model.fused_tree_transform(1) is None


def test_replacing_a_tree_transform_or_joint_refreshes_the_constants():
    rng = np.random.default_rng(5)
    model = gu_chain(4)
    q = model.random_configuration(rng)
    qd, tau = rng.standard_normal((2, 4))
    sp.aba(model, q, qd, tau)  # fills the caches
    X_new = sp.builders.random_transform(rng)
    model.X_tree[2] = X_new
    model.joints[3] = Prismatic("x")
    fresh = sp.Model(gravity=model.gravity)
    for i in range(1, 5):
        fresh.add_body(i - 1, model.joints[i], model.X_tree[i], model.inertia[i])
    np.testing.assert_allclose(
        sp.aba(model, q, qd, tau), sp.aba(fresh, q, qd, tau), rtol=1e-13, atol=1e-13
    )
    np.testing.assert_allclose(
        sp.rnea(model, q, qd, tau), sp.rnea(fresh, q, qd, tau), rtol=1e-13, atol=1e-13
    )


def test_replacing_an_inertia_refreshes_the_motion_constants():
    rng = np.random.default_rng(6)
    model = gu_chain(3)
    q, qd, tau = model.random_configuration(rng), *rng.standard_normal((2, 3))
    sp.aba(model, q, qd, tau)  # fills the caches
    model.inertia[2] = sp.builders.random_inertia(rng)
    fresh = sp.Model(gravity=model.gravity)
    for i in range(1, 4):
        fresh.add_body(i - 1, model.joints[i], model.X_tree[i], model.inertia[i])
    np.testing.assert_allclose(
        sp.aba(model, q, qd, tau), sp.aba(fresh, q, qd, tau), rtol=1e-13, atol=1e-13
    )
    # and the cached constants cannot be written into by mistake
    with pytest.raises(ValueError, match="read-only"):
        model.motion_constants().inertia[0, 0, 0] = 1.0


def test_motion_constants_hold_the_joints_S_and_the_stacked_inertias():
    model = sp.Model()
    rng = np.random.default_rng(7)
    joints = [Revolute("x"), Cylindrical("z"), SphericalYPR(), Prismatic([0.0, 0.6, 0.8])]
    for i, joint in enumerate(joints):
        model.add_body(i, joint, sp.builders.random_transform(rng), sp.builders.random_inertia(rng))
    c = model.motion_constants()
    assert c.S[3] is None  # S depends on q
    np.testing.assert_array_equal(c.S[2], Cylindrical("z").motion_subspace(np.zeros(2)))
    # the one-DoF joints with a constant S: bodies 1 and 4 (rows 0 and 3)
    np.testing.assert_array_equal(c.rows, [0, 3])
    np.testing.assert_array_equal(c.columns, [model.v_index[1].start, model.v_index[4].start])
    np.testing.assert_array_equal(c.S_one, [[1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0.6, 0.8]])
    assert c.others == [2, 3]
    assert c.axis == [None, 0, None, None, None]
    np.testing.assert_array_equal(c.inertia, np.stack(model.inertia[1:]))


@pytest.mark.parametrize(
    "joint, k",
    [
        (Revolute("z"), 2),
        (Revolute("x"), 0),
        (Prismatic("y"), 4),
        (Revolute("-z"), None),  # S = -e_3: not a plain selection
        (Revolute([0.6, 0.0, 0.8]), None),
        (Helical("z", 0.1), None),
        (Cylindrical("z"), None),  # two columns
        (SphericalYPR(), None),  # S depends on q
    ],
)
def test_unit_motion_axis_is_the_column_of_S(joint, k):
    model = sp.Model()
    model.add_body(0, joint, np.eye(6), sp.builders.random_inertia(np.random.default_rng(6)))
    assert model.unit_motion_axis(1) == k
    if k is not None:
        S = joint.motion_subspace(np.zeros(joint.nq))
        np.testing.assert_array_equal(S[:, 0], np.eye(6)[k])


def test_constant_S_means_no_velocity_product_term():
    assert Revolute("z").constant_S and Prismatic("x").constant_S
    assert not SphericalYPR().constant_S


def test_grouped_tree_transforms_equal_each_joint_times_its_tree_transform():
    from spatial.joints import Spherical
    from spatial.kinematics import _tree_transforms

    rng = np.random.default_rng(7)
    model = sp.Model()
    joints = [Revolute("z"), Prismatic("x"), Spherical(), Revolute("y"), Helical("z", 0.2)]
    for k, joint in enumerate(joints):
        model.add_body(k, joint, sp.builders.random_transform(rng), sp.builders.random_inertia(rng))
    assert [g[0] for g in model.fused_groups()] == [[1, 4], [2]]  # by class, one-variable joints
    q = model.random_configuration(rng, (3,))
    Xup = _tree_transforms(model, q)
    for i in range(1, model.NB + 1):
        expected = model.joints[i].transform(q[..., model.q_index[i]]) @ model.X_tree[i]
        np.testing.assert_allclose(Xup[i], expected, atol=1e-14)
