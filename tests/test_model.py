"""Tests of spatial.model.Model: construction and its validation (Featherstone Table 4.3),
connectivity sets (§4.1.4), the expanded parent array (Table 6.4) and configuration-space
operations on models that mix joint types."""

import numpy as np
import pytest

import spatial as sp
from spatial.builders import JOINT_CODES, random_inertia, random_transform, random_tree
from spatial.joints import Fixed, Free, Prismatic, Revolute, Spherical, SphericalYPR

I1 = sp.mcI(1.0, [0.1, 0.0, 0.0], np.diag([0.01, 0.02, 0.025]))
ALL_CODES = tuple(JOINT_CODES) + ("~RP", "~S", "~PL", "~FREE")


def chain(*joints):
    model = sp.Model()
    for i, joint in enumerate(joints, start=1):
        model.add_body(i - 1, joint, sp.xlt([0.0, 0.0, 0.3]), I1)
    return model


# ----------------------------------------------------------------------------- construction


def test_add_body_builds_the_table_4_3_data():
    model = sp.Model(gravity=[0.0, -9.81, 0.0])
    assert model.add_body(0, Revolute("z"), np.eye(6), I1, name="upper") == 1
    assert model.add_body(1, Spherical(), sp.xlt([1.0, 0, 0]), I1) == 2
    assert model.add_body(1, Prismatic("x"), np.eye(6), I1) == 3
    assert (model.NB, model.nq, model.nv) == (3, 6, 5)
    assert model.parent == [-1, 0, 1, 1]
    assert model.names == ["base", "upper", "body2", "body3"]
    assert model.q_index[1:] == [slice(0, 1), slice(1, 5), slice(5, 6)]
    assert model.v_index[1:] == [slice(0, 1), slice(1, 4), slice(4, 5)]
    assert model.body("body2") == 2
    np.testing.assert_array_equal(model.a_grav, [0, 0, 0, 0, -9.81, 0])
    np.testing.assert_array_equal(model.neutral_configuration(), [0, 1, 0, 0, 0, 0])
    assert repr(model) == "Model(NB=3, nq=6, nv=5, gravity=[0.0, -9.81, 0.0])"


def test_add_body_copies_its_arrays():
    X = sp.xlt([1.0, 2.0, 3.0])
    I = I1.copy()
    model = sp.Model()
    model.add_body(0, Revolute(), X, I)
    X[:] = 0.0
    I[:] = 0.0
    np.testing.assert_array_equal(model.X_tree[1], sp.xlt([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(model.inertia[1], I1)


@pytest.mark.parametrize("parent", [1, 5, -1])
def test_parent_must_precede_child(parent):
    model = sp.Model()
    with pytest.raises(ValueError, match="parents must precede children"):
        model.add_body(parent, Revolute(), np.eye(6), I1)


@pytest.mark.parametrize("parent", [0.0, True, "0", None])
def test_parent_must_be_an_int(parent):
    with pytest.raises(ValueError, match="parent must be an int body number"):
        sp.Model().add_body(parent, Revolute(), np.eye(6), I1)


@pytest.mark.parametrize("joint", ["R", Revolute, None])
def test_joint_must_be_a_joint(joint):
    with pytest.raises(ValueError, match="joint must be a spatial.joints.Joint"):
        sp.Model().add_body(0, joint, np.eye(6), I1)


def test_bad_tree_transforms():
    model = sp.Model()
    with pytest.raises(ValueError, match="not a Plücker transform"):
        model.add_body(0, Revolute(), np.ones((6, 6)), I1)
    not_rotation = np.eye(6)
    not_rotation[:3, :3] = not_rotation[3:, 3:] = 2.0 * np.eye(3)
    with pytest.raises(ValueError, match="not orthonormal"):
        model.add_body(0, Revolute(), not_rotation, I1)
    with pytest.raises(ValueError, match="single 6x6 transform"):
        model.add_body(0, Revolute(), np.stack([np.eye(6)] * 2), I1)
    with pytest.raises(ValueError, match=r"X_tree of body 1 must have shape \(\.\.\., 6, 6\)"):
        model.add_body(0, Revolute(), np.eye(4), I1)
    with pytest.raises(ValueError, match="non-finite"):
        model.add_body(0, Revolute(), np.full((6, 6), np.nan), I1)
    assert model.NB == 0  # nothing was added by the failed calls


def test_bad_inertias():
    model = sp.Model()
    asym = I1.copy()
    asym[0, 1] += 0.1
    with pytest.raises(ValueError, match="inertia of body 1 must be symmetric"):
        model.add_body(0, Revolute(), np.eye(6), asym)
    not_m1 = I1.copy()
    not_m1[3, 3] = 2.0
    with pytest.raises(ValueError, match="lower-right block must be m·1"):
        model.add_body(0, Revolute(), np.eye(6), not_m1)
    negative_mass = -I1
    with pytest.raises(ValueError, match="m ≥ 0"):
        model.add_body(0, Revolute(), np.eye(6), negative_mass)
    not_skew = I1.copy()
    not_skew[0, 3] = not_skew[3, 0] = 0.5
    with pytest.raises(ValueError, match="upper-right block must be skew"):
        model.add_body(0, Revolute(), np.eye(6), not_skew)
    indefinite = I1.copy()
    indefinite[:3, :3] = np.diag([1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match="positive semi-definite"):
        model.add_body(0, Revolute(), np.eye(6), indefinite)
    with pytest.raises(ValueError, match="single 6x6 matrix"):
        model.add_body(0, Revolute(), np.eye(6), np.stack([I1, I1]))
    with pytest.raises(ValueError, match="inertia of body 1 contains non-finite"):
        model.add_body(0, Revolute(), np.eye(6), np.full((6, 6), np.nan))
    with pytest.raises(ValueError, match=r"inertia of body 1 must have shape"):
        model.add_body(0, Revolute(), np.eye(6), np.eye(3))


def test_inertia_rule_is_the_one_of_validate_inertia():
    model = sp.Model()
    impossible = np.zeros((6, 6))
    impossible[:3, :3], impossible[3:, 3:] = np.diag([1.0, 1.0, 5.0]), np.eye(3)
    with pytest.raises(ValueError, match=r"inertia of body 1: .* triangle inequality d1 \+ d2"):
        model.add_body(0, Revolute(), np.eye(6), impossible)
    # a tree body may be massless or a point mass
    model.add_body(0, Revolute(), np.eye(6), np.zeros((6, 6)))
    model.add_body(1, Revolute(), np.eye(6), sp.point_mass_inertia(1.0, [0.0, -1.0, 0.0]))
    assert model.NB == 2


def test_duplicate_names_and_unknown_names():
    model = sp.Model()
    model.add_body(0, Revolute(), np.eye(6), I1, name="arm")
    with pytest.raises(ValueError, match="'arm' is already used"):
        model.add_body(1, Revolute(), np.eye(6), I1, name="arm")
    with pytest.raises(ValueError, match="'base' is already used"):
        model.add_body(1, Revolute(), np.eye(6), I1, name="base")
    with pytest.raises(ValueError, match="no body named 'leg'"):
        model.body("leg")


def test_bad_gravity():
    with pytest.raises(ValueError, match="gravity must be a 3-vector"):
        sp.Model(gravity=np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"gravity must have shape"):
        sp.Model(gravity=[0.0, -9.81])


# ----------------------------------------------------------------------------- states


def test_check_state_shapes_values_and_quaternions():
    model = chain(Revolute(), Spherical(), Prismatic())  # nq = 6, nv = 5
    q = model.neutral_configuration()
    out = model.check_state([0, 1, 0, 0, 0, 0], [0] * 5, None, np.zeros((3, 5)))
    assert out[0].dtype == float and out[2] is None and out[3].shape == (3, 5)
    with pytest.raises(ValueError, match=r"q must have shape \(\.\.\., 6\)"):
        model.check_state(q=np.zeros(5))
    with pytest.raises(ValueError, match=r"qd must have shape \(\.\.\., 5\)"):
        model.check_state(q, qd=np.zeros(6))
    with pytest.raises(ValueError, match=r"qdd must have shape \(\.\.\., 5\)"):
        model.check_state(q, qdd=np.zeros((2, 4)))
    with pytest.raises(ValueError, match=r"tau must have shape \(\.\.\., 5\)"):
        model.check_state(tau=np.zeros(1))
    with pytest.raises(ValueError, match="qd contains non-finite"):
        model.check_state(q, qd=[0, 0, np.nan, 0, 0])
    with pytest.raises(ValueError, match="q contains non-finite"):
        model.check_state([np.inf, 1, 0, 0, 0, 0])
    bad = np.tile(q, (4, 1))
    bad[2, 1:5] = [1.0, 1.0, 0.0, 0.0]
    with pytest.raises(ValueError, match="q of joint 2 is not a unit quaternion"):
        model.check_state(bad)
    ypr = chain(Revolute(), SphericalYPR())
    with pytest.raises(ValueError, match="q of joint 2 is at the yaw-pitch-roll singularity"):
        ypr.check_state([0.0, 0.1, np.pi / 2, 0.3])


@pytest.mark.parametrize("method", ["q_dot", "integrate"])
def test_configuration_methods_validate(method):
    model = chain(Free(), Revolute())
    args = (np.zeros(8), np.zeros(7)) + ((0.1,) if method == "integrate" else ())
    with pytest.raises(ValueError, match="q of joint 1 \\(quaternion part\\) is not a unit"):
        getattr(model, method)(*args)
    with pytest.raises(ValueError, match=r"qd must have shape"):
        getattr(model, method)(model.neutral_configuration(), np.zeros(6), *args[2:])
    with pytest.raises(ValueError, match=r"q must have shape"):
        model.difference(np.zeros(7), model.neutral_configuration())


def test_random_configuration_is_valid_and_batched(rng):
    model = random_tree(rng, 12, joints=ALL_CODES)
    q = model.random_configuration(rng, (3, 2))
    assert q.shape == (3, 2, model.nq)
    model.check_state(q)
    model.check_state(model.neutral_configuration())
    for i in range(1, model.NB + 1):
        np.testing.assert_allclose(
            model.joints[i].transform(model.neutral_configuration()[model.q_index[i]]),
            np.eye(6),
            atol=1e-15,
        )


@pytest.mark.parametrize("seed", range(4))
def test_integrate_difference_and_q_dot_on_mixed_models(seed):
    rng = np.random.default_rng(seed)
    model = random_tree(rng, 10, joints=ALL_CODES)
    q0 = model.random_configuration(rng, (5,))
    v = rng.uniform(-1.0, 1.0, size=(5, model.nv))
    dt = 0.4
    q1 = model.integrate(q0, v, dt)
    model.check_state(q1)
    np.testing.assert_allclose(model.difference(q0, q1), dt * v, atol=1e-12)
    h = 1e-5
    fd = (model.integrate(q0, v, h) - model.integrate(q0, v, -h)) / (2 * h)
    np.testing.assert_allclose(model.q_dot(q0, v), fd, atol=1e-9)
    # joint by joint, the model methods agree with the joints' own
    for i in range(1, model.NB + 1):
        qi, vi, joint = q0[:, model.q_index[i]], v[:, model.v_index[i]], model.joints[i]
        np.testing.assert_array_equal(q1[:, model.q_index[i]], joint.integrate(qi, vi, dt))
        np.testing.assert_array_equal(model.q_dot(q0, v)[:, model.q_index[i]], joint.q_dot(qi, vi))
    # batch == loop, and a single state keeps shape (nq,)
    for k in range(5):
        np.testing.assert_allclose(model.integrate(q0[k], v[k], dt), q1[k], atol=1e-15)
    assert model.q_dot(q0[0], v[0]).shape == (model.nq,)
    assert model.difference(q0[0], q1[0]).shape == (model.nv,)


def test_nq_nv_are_the_sums_over_joints(rng):
    model = random_tree(rng, 15, joints=ALL_CODES)
    assert model.nq == sum(j.nq for j in model.joints[1:])
    assert model.nv == sum(j.nv for j in model.joints[1:])
    q_cover = np.concatenate([np.arange(model.nq)[s] for s in model.q_index])
    v_cover = np.concatenate([np.arange(model.nv)[s] for s in model.v_index])
    np.testing.assert_array_equal(q_cover, np.arange(model.nq))
    np.testing.assert_array_equal(v_cover, np.arange(model.nv))


# ----------------------------------------------------------------------------- connectivity


def tree_from_parents(parents, joints=None):
    model = sp.Model()
    for i, p in enumerate(parents, start=1):
        model.add_body(p, Revolute() if joints is None else joints[i - 1], np.eye(6), I1)
    return model


def test_connectivity_sets_of_figure_4_6():
    """§4.1.4 prints κ, μ and ν for Figure 4.6; λ = (0, 1, 1, 0, 3, 4, 4, 4) is consistent."""
    model = tree_from_parents([0, 1, 1, 0, 3, 4, 4, 4])
    assert model.support(1) == [1]
    assert model.support(2) == [1, 2]
    assert model.support(3) == [1, 3]
    assert model.support(8) == [4, 8]
    assert model.children(0) == [1, 4]
    assert model.children(1) == [2, 3]
    assert model.children(2) == [] and model.children(8) == []
    assert model.subtree(1) == [1, 2, 3, 5]
    assert model.subtree(2) == [2] and model.subtree(8) == [8]
    assert model.support(0) == []


def test_subtree_of_the_base_is_every_body():
    """§4.1.4: ν(0) = {0, 1, …, N_B}; the base is the root of the whole tree."""
    model = tree_from_parents([0, 1, 1, 0, 3, 4, 4, 4])
    assert set(range(1, 9)) <= set(model.subtree(0))


def test_connectivity_identities_on_random_trees(rng):
    """μ(i) ⊆ ν(i), j ∈ κ(i) ⇔ i ∈ ν(j) (so eq. 4.3 holds), and λ(i) < i."""
    model = random_tree(rng, 25, joints=("R",))
    pairs_kappa = {(i, j) for i in range(1, 26) for j in model.support(i)}
    pairs_nu = {(i, j) for j in range(1, 26) for i in model.subtree(j)}
    assert pairs_kappa == pairs_nu
    for i in range(1, 26):
        assert model.parent[i] < i
        assert set(model.children(i)) <= set(model.subtree(i))
        assert model.support(i)[-1] == i
        assert all(model.parent[c] == i for c in model.children(i))


def test_expanded_parent_array_of_table_6_4():
    """Parent array (0,1,1,2,2,3), joint 2 with 3 DoF → (0,1,2,3,1,4,4,5), 1-based (Table 6.4)."""
    joints = [Revolute(), Spherical(), Revolute(), Revolute(), Revolute(), Revolute()]
    model = tree_from_parents([0, 1, 1, 2, 2, 3], joints)
    book = np.array([0, 1, 2, 3, 1, 4, 4, 5])
    np.testing.assert_array_equal(model.expanded_parent(), book - 1)
    # the same with a 3-DoF joint whose nq = nv
    joints[1] = SphericalYPR()
    np.testing.assert_array_equal(
        tree_from_parents([0, 1, 1, 2, 2, 3], joints).expanded_parent(), book - 1
    )


def test_expanded_parent_skips_fixed_joints():
    # body 2 is welded to body 1; body 3 hangs from 2, body 4 from the base through a Fixed body
    model = tree_from_parents([0, 1, 2, 0, 4], [Revolute(), Fixed(), Revolute(), Fixed(), Free()])
    np.testing.assert_array_equal(model.expanded_parent(), [-1, 0, -1, 2, 3, 4, 5, 6])


def test_expanded_parent_is_the_sparsity_pattern_of_the_tree(rng):
    """Variables k and j (j < k) can couple only if j is an ancestor of k in the expanded tree;
    checked against the body-level rule: joint of j supports body of k."""
    model = random_tree(rng, 12, joints=("R", "S", "F", "C"))
    lam = model.expanded_parent()
    body_of = np.concatenate([[i] * model.joints[i].nv for i in range(1, model.NB + 1)]).astype(int)
    for k in range(model.nv):
        assert lam[k] < k
        ancestors, j = set(), lam[k]
        while j >= 0:
            ancestors.add(j)
            j = lam[j]
        expected = {j for j in range(k) if body_of[j] in model.support(body_of[k])}
        assert ancestors == expected


def test_random_helpers_give_valid_model_data(rng):
    X = random_transform(rng, (4,))
    sp.unplux(X)
    I = random_inertia(rng, (4,))
    model = sp.Model()
    for k in range(4):
        model.add_body(k, Revolute(), X[k], I[k])
    m, c, I_c = sp.inertia_params(I)
    moments = np.linalg.eigvalsh(I_c)
    assert np.all(moments > 0) and np.all(moments[..., 2] < moments[..., 0] + moments[..., 1])


# ----------------------------------------------------------------------------- spanning tree


def test_spanning_tree_is_the_model_without_its_loop_joints(four_bar_and_open_tree):
    model, open_tree, q, qd, tau = four_bar_and_open_tree
    tree = model.spanning_tree()
    assert (tree.NB, tree.nq, tree.nv, tree.NL, model.NL) == (3, 3, 3, 0, 1)
    assert tree.parent == open_tree.parent and tree.names == open_tree.names
    for i in range(1, 4):  # a shallow copy: the joints and arrays are the model's own
        assert tree.joints[i] is model.joints[i] and tree.inertia[i] is model.inertia[i]
        assert tree.X_tree[i] is model.X_tree[i]
        np.testing.assert_allclose(tree.inertia[i], open_tree.inertia[i], rtol=1e-14, atol=1e-16)
        np.testing.assert_array_equal(tree.X_tree[i], open_tree.X_tree[i])
    assert tree.gravity is model.gravity
    # the same object on every call, so its constant caches are computed once
    assert model.spanning_tree() is tree
    assert tree.motion_constants() is model.spanning_tree().motion_constants()
    assert tree.spanning_tree() is tree
    # a tree is its own spanning tree
    assert open_tree.spanning_tree() is open_tree


def test_spanning_tree_follows_bodies_and_parts_added_or_replaced_later(four_bar_and_open_tree):
    model, open_tree, q, qd, tau = four_bar_and_open_tree
    tree = model.spanning_tree()
    # a loop joint added later is not part of the tree: the cached tree still serves
    model.add_loop_joint(1, 3, Revolute("z"), sp.xlt([0.3, 0, 0]), np.eye(6), name="extra")
    assert model.NL == 2 and model.spanning_tree() is tree and tree.NL == 0
    # a body added later is: the next call builds a new tree, the old one is left as it was
    model.add_body(3, Revolute("z"), sp.xlt([0.8, 0, 0]), I1, name="tip")
    open_tree.add_body(3, Revolute("z"), sp.xlt([0.8, 0, 0]), I1, name="tip")
    grown = model.spanning_tree()
    assert grown is not tree and (grown.NB, grown.nq, grown.NL, tree.NB, tree.nq) == (4, 4, 0, 3, 3)
    q4, qd4, tau4 = np.r_[q, 0.2], np.r_[qd, -0.4], np.r_[tau, 0.1]
    np.testing.assert_allclose(
        sp.aba(grown, q4, qd4, tau4), sp.aba(open_tree, q4, qd4, tau4), rtol=1e-12
    )
    # replacing an inertia (or a joint, a tree transform, gravity) also makes a new tree
    model.inertia[4] = open_tree.inertia[4] = 2.0 * I1
    heavier = model.spanning_tree()
    assert heavier is not grown and heavier.inertia[4] is model.inertia[4]
    np.testing.assert_allclose(
        sp.aba(heavier, q4, qd4, tau4), sp.aba(open_tree, q4, qd4, tau4), rtol=1e-12
    )
    model.gravity = np.array([0.0, -1.62, 0.0])
    assert model.spanning_tree().gravity is model.gravity


def test_a_tree_that_gains_a_loop_joint_is_refused_and_its_spanning_tree_is_new():
    model = chain(Revolute("z"), Revolute("z"), Revolute("z"))
    q, zero = np.array([0.3, -0.2, 0.5]), np.zeros(3)
    before = sp.aba(model, q, zero, zero)
    assert model.spanning_tree() is model
    model.add_loop_joint(3, 0, Revolute("z"), sp.xlt([0, 0, 0.3]), np.eye(6))
    with pytest.raises(ValueError, match=r"loop joint \('loop0'\)"):
        sp.aba(model, q, zero, zero)
    tree = model.spanning_tree()
    assert tree is not model and tree.NL == 0
    np.testing.assert_array_equal(sp.aba(tree, q, zero, zero), before)


def test_a_spanning_tree_cannot_be_grown_but_a_copy_of_it_can(four_bar_and_open_tree):
    model = four_bar_and_open_tree[0]
    tree = model.spanning_tree()
    with pytest.raises(ValueError, match="spanning tree of another model"):
        tree.add_body(1, Revolute("z"), np.eye(6), I1)
    with pytest.raises(ValueError, match="spanning tree of another model"):
        tree.add_loop_joint(2, 3, Revolute("z"), np.eye(6), np.eye(6))
    assert tree.NB == 3 and model.spanning_tree() is tree  # nothing was added
    own = tree.astype(np.float64)
    assert own.add_body(1, Revolute("z"), np.eye(6), I1) == 4 and tree.NB == 3


def test_check_tree_and_check_state_refuse_loop_joints_by_name(four_bar_and_open_tree):
    model, _, q, qd, _ = four_bar_and_open_tree
    model.add_loop_joint(1, 3, Revolute("z"), sp.xlt([0.3, 0, 0]), np.eye(6), name="extra")
    message = (
        r"my_dynamics computes the dynamics of a kinematic tree, but this model has 2 loop "
        r"joints \('pin C', 'extra'\).*loop_forward_dynamics.*loop_inverse_dynamics"
        r".*spatial\.systems\.ClosureSystem.*spatial\.reduced\.constrained_forward_dynamics"
        r".*my_dynamics\(model\.spanning_tree\(\), \.\.\.\)"
    )
    with pytest.raises(ValueError, match=message):
        model.check_tree("my_dynamics")
    with pytest.raises(ValueError, match=message):
        model.check_state(q, qd, tree_dynamics="my_dynamics")
    # kinematics stays allowed: the state check alone, and the tree's functions on the tree
    assert model.check_state(q, qd)[0] is not None
    model.spanning_tree().check_tree("my_dynamics")


@pytest.mark.parametrize("dtype", ["banana", 3.5, int, "complex128"])
def test_astype_refuses_what_is_not_a_floating_type_with_the_promised_valueerror(dtype):
    model = sp.builders.double_pendulum()
    with pytest.raises(ValueError, match="dtype must be float32, float64 or longdouble"):
        model.astype(dtype)
