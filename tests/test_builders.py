"""Tests of spatial.builders: random trees, the §10.3 benchmark families, DH parameters (§4.3),
named mechanisms, floating bases and renumbering.

Forward kinematics is computed here by the recursion of Featherstone Examples 4.3–4.4
(``ⁱX₀ = X_J X_T(i) ^λ(i)X₀``, ``v_i = ⁱX_λ(i) v_λ(i) + v_J``), and kinetic energies as
``Σ ½ v_iᵀ I_i v_i``, so that the builders are checked against closed forms derived by hand.
"""

import numpy as np
import pytest

import spatial as sp
from spatial import builders as B
from spatial.joints import Fixed, Free, Prismatic, Reversed, Revolute


def kinematics(model, q, qd=None):
    """World-to-body transforms ``ⁱX₀`` and body velocities (body coordinates), lists by body."""
    qd = np.zeros(model.nv) if qd is None else qd
    X0, v = [np.eye(6)], [np.zeros(6)]
    for i in range(1, model.NB + 1):
        X_J, _, v_J, _ = model.joints[i].jcalc(q[model.q_index[i]], qd[model.v_index[i]])
        Xup = X_J @ model.X_tree[i]
        X0.append(Xup @ X0[model.parent[i]])
        v.append(Xup @ v[model.parent[i]] + v_J)
    return X0, v


def kinetic_energy(model, q, qd):
    _, v = kinematics(model, q, qd)
    return sum(0.5 * v[i] @ model.inertia[i] @ v[i] for i in range(1, model.NB + 1))


def total_mass(model):
    return sum(model.inertia[i][3, 3] for i in range(1, model.NB + 1))


# ----------------------------------------------------------------------------- random trees


EXPECTED_TYPE = {
    "R": "Revolute",
    "Rx": "Revolute",
    "Ry": "Revolute",
    "Rz": "Revolute",
    "P": "Prismatic",
    "Px": "Prismatic",
    "Py": "Prismatic",
    "Pz": "Prismatic",
    "H": "Helical",
    "C": "Cylindrical",
    "PL": "Planar",
    "SY": "SphericalYPR",
    "S": "Spherical",
    "FREE": "Free",
    "RP": "RackPinion",
    "F": "Fixed",
    "U": "Universal",
    "SE": "SphericalEuler",
    "SX": "SphericalExp",
    "PT": "PlanarTranslation",
    "T": "Translational",
    "F2": "Composite",
    "F3": "Composite",
}


def test_every_joint_code(rng):
    assert set(EXPECTED_TYPE) == set(B.JOINT_CODES)
    for code, name in EXPECTED_TYPE.items():
        model = B.random_tree(rng, 3, joints=(code,))
        assert [type(j).__name__ for j in model.joints[1:]] == [name] * 3
        reversed_model = B.random_tree(rng, 2, joints=("~" + code,))
        assert all(isinstance(j, Reversed) for j in reversed_model.joints[1:])
        assert [type(j.joint).__name__ for j in reversed_model.joints[1:]] == [name] * 2


def test_random_tree_sizes(rng):
    model = B.random_tree(rng, 40, joints=tuple(B.JOINT_CODES) + ("~RP", "~S"))
    assert model.NB == 40
    assert all(model.parent[i] < i for i in range(1, 41))
    assert model.nq == sum(j.nq for j in model.joints[1:])
    model.check_state(model.random_configuration(rng))


def test_random_tree_default_and_codes(rng):
    model = B.random_tree(rng, 30)
    assert {type(j).__name__ for j in model.joints[1:]} == {
        "Revolute",
        "Prismatic",
        "Spherical",
        "Fixed",
    }
    axes = B.random_tree(rng, 6, joints=("Rx", "Py")).joints[1:]
    for j in axes:
        expected = [1, 0, 0] if isinstance(j, Revolute) else [0, 1, 0]
        np.testing.assert_array_equal(j.axis, expected)
    shared = Prismatic("z")
    assert all(j is shared for j in B.random_tree(rng, 3, joints=(shared,)).joints[1:])


def test_random_tree_branching_and_floating(rng):
    chain = B.random_tree(rng, 12, branching=0.0)
    assert chain.parent == [-1] + list(range(12))
    tree = B.random_tree(rng, 40, branching=1.0)
    assert tree.parent != [-1] + list(range(40))
    floating = B.random_tree(rng, 15, joints=("R", "S"), floating=True)
    assert isinstance(floating.joints[1], Free)
    assert floating.children(0) == [1]
    assert all(floating.support(i)[0] == 1 for i in range(1, 16))
    assert floating.nv == 6 + sum(j.nv for j in floating.joints[2:])


def test_random_tree_is_reproducible():
    a = B.random_tree(np.random.default_rng(5), 8, joints=("R", "H", "PL"))
    b = B.random_tree(np.random.default_rng(5), 8, joints=("R", "H", "PL"))
    assert a.parent == b.parent and [repr(j) for j in a.joints] == [repr(j) for j in b.joints]
    for i in range(1, 9):
        np.testing.assert_array_equal(a.X_tree[i], b.X_tree[i])
        np.testing.assert_array_equal(a.inertia[i], b.inertia[i])


def test_random_tree_errors(rng):
    with pytest.raises(ValueError, match="n must be a positive integer"):
        B.random_tree(rng, 0)
    with pytest.raises(ValueError, match="n must be a positive integer, got 2.0"):
        B.random_tree(rng, 2.0)
    with pytest.raises(ValueError, match="joints must be a non-empty sequence"):
        B.random_tree(rng, 3, joints=())
    with pytest.raises(ValueError, match="joints must be a non-empty sequence"):
        B.random_tree(rng, 3, joints="R")
    with pytest.raises(ValueError, match="unknown joint code 'Q'"):
        B.random_tree(rng, 3, joints=("Q",))
    with pytest.raises(ValueError, match="unknown joint code"):
        B.random_tree(rng, 3, joints=("~X",))
    with pytest.raises(ValueError, match="branching must be in"):
        B.random_tree(rng, 3, branching=1.5)


# ----------------------------------------------------------------------------- §10.3 families


def test_gu_chain():
    model = B.gu_chain(9)
    assert (model.NB, model.nq, model.nv) == (9, 9, 9)
    assert model.parent == [-1] + list(range(9))
    assert all(isinstance(j, Revolute) for j in model.joints[1:])
    again = B.gu_chain(9)
    for i in range(1, 10):
        np.testing.assert_array_equal(model.X_tree[i], again.X_tree[i])
    other = B.gu_chain(9, rng=np.random.default_rng(1))
    assert not np.allclose(other.inertia[3], model.inertia[3])
    # "general" parameters: no zero entries in the geometry or the centre of mass
    assert all(np.all(np.abs(sp.unplux(model.X_tree[i])[1]) > 0) for i in range(1, 10))
    with pytest.raises(ValueError, match="n must be a positive integer"):
        B.gu_chain(-2)


def test_branched_tree_numbering():
    assert B.branched_tree(7, 1.0).parent == [-1, 0, 1, 2, 3, 4, 5, 6]
    assert B.branched_tree(7, 2.0).parent == [-1, 0, 1, 1, 2, 2, 3, 3]  # binary, breadth first
    assert B.branched_tree(7, 1.5).parent == [-1, 0, 1, 2, 2, 3, 4, 4]  # floor(i / 1.5)
    binary = B.branched_tree(31, 2.0)
    assert max(len(binary.support(i)) for i in range(1, 32)) == 5  # depth log2(32)


def test_branched_tree_geometry_and_taper():
    taper, skew = 0.8, 0.3
    model = B.branched_tree(5, 2.0, skew=skew, taper=taper)
    for i in range(1, 6):
        m, c, I_c = sp.inertia_params(model.inertia[i])
        length = taper ** (i - 1)
        np.testing.assert_allclose(m, taper ** (3 * (i - 1)))
        np.testing.assert_allclose(c, [length / 2, 0, 0])
        np.testing.assert_allclose(np.diag(I_c) / (m * length**2), [0.0025, 1.015 / 12, 1.015 / 12])
    E, r = sp.unplux(model.X_tree[4])  # body 4's parent is 2, of length taper
    np.testing.assert_allclose(r, [taper, 0, 0], atol=1e-15)
    np.testing.assert_allclose(E, sp.rx(skew), atol=1e-15)
    np.testing.assert_array_equal(model.X_tree[1], np.eye(6))
    with pytest.raises(ValueError, match="branching_factor must be ≥ 1"):
        B.branched_tree(4, 0.5)
    with pytest.raises(ValueError, match="taper must be > 0"):
        B.branched_tree(4, 1.0, taper=0.0)


# ----------------------------------------------------------------------------- DH parameters


def test_dh_planar_two_link_arm_by_hand():
    l1, q1, q2 = 0.7, 0.4, -1.1
    model = B.from_dh(a=[0.0, l1], alpha=[0.0, 0.0], d=[0.0, 0.0], theta=[0.0, 0.0])
    X0, _ = kinematics(model, np.array([q1, q2]))
    # frame 2 sits at the end of link 1, rotated by q1 + q2 about z
    expected = sp.plux(sp.rz(q1 + q2), [l1 * np.cos(q1), l1 * np.sin(q1), 0.0])
    np.testing.assert_allclose(X0[2], expected, atol=1e-15)
    np.testing.assert_allclose(X0[1], sp.rotz(q1), atol=1e-15)


def test_dh_spatial_arm_against_homogeneous_transforms():
    """Modified DH (Siciliano–Khatib, §4.3): T_{i-1,i} = RotX(α) TransX(a) RotZ(θ) TransZ(d)."""
    a, alpha, d = [0.0, 0.3, 0.2], [0.0, np.pi / 2, -0.4], [0.1, 0.0, 0.25]
    offsets = [0.0, 0.2, 0.0]
    q = np.array([0.5, -0.3, 0.15])  # revolute, revolute, prismatic

    def rot_x(t):
        c, s = np.cos(t), np.sin(t)
        return np.array([[1, 0, 0, 0], [0, c, -s, 0], [0, s, c, 0], [0, 0, 0, 1.0]])

    def rot_z(t):
        c, s = np.cos(t), np.sin(t)
        return np.array([[c, -s, 0, 0], [s, c, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])

    def trans(x, y, z):
        T = np.eye(4)
        T[:3, 3] = [x, y, z]
        return T

    theta = [q[0], q[1] + offsets[1], 0.0]
    dd = [d[0], d[1], d[2] + q[2]]
    T = np.eye(4)
    for i in range(3):
        T = T @ rot_x(alpha[i]) @ trans(a[i], 0, 0) @ rot_z(theta[i]) @ trans(0, 0, dd[i])
    model = B.from_dh(a, alpha, d, offsets, joint_types="RRP")
    assert isinstance(model.joints[3], Prismatic)
    X0, _ = kinematics(model, q)
    # pluho(³X₀) maps base point coordinates to frame-3 coordinates: the inverse of T
    np.testing.assert_allclose(sp.pluho(X0[3]) @ T, np.eye(4), atol=1e-14)


def test_dh_base_frame_offsets():
    X = B.dh_transforms([0.0], [0.0], [0.0], [0.0], base_d=0.3, base_theta=0.2)
    np.testing.assert_allclose(X[0], sp.rotz(0.2) @ sp.xlt([0, 0, 0.3]), atol=1e-15)


def test_dh_errors():
    with pytest.raises(ValueError, match="same length"):
        B.dh_transforms([0.0, 1.0], [0.0], [0.0, 0.0], [0.0, 0.0])
    with pytest.raises(ValueError, match="same length ≥ 1"):
        B.dh_transforms([], [], [], [])
    with pytest.raises(ValueError, match="non-finite"):
        B.dh_transforms([np.nan], [0.0], [0.0], [0.0])
    with pytest.raises(ValueError, match="joint_types must be 'R'/'P'"):
        B.from_dh([0.0, 1.0], [0, 0], [0, 0], [0, 0], joint_types="RX")
    with pytest.raises(ValueError, match="joint_types must be 'R'/'P'"):
        B.from_dh([0.0, 1.0], [0, 0], [0, 0], [0, 0], joint_types="RRR")
    with pytest.raises(ValueError, match="inertias must have one entry per joint"):
        B.from_dh([0.0, 1.0], [0, 0], [0, 0], [0, 0], inertias=[np.eye(6)])


# ----------------------------------------------------------------------------- named mechanisms


def test_simple_pendulum_energy(rng):
    l, m = 1.3, 0.7
    model = B.simple_pendulum(length=l, mass=m)
    assert (model.NB, model.nq, model.nv) == (1, 1, 1)
    q, qd = rng.standard_normal(1), rng.standard_normal(1)
    np.testing.assert_allclose(kinetic_energy(model, q, qd), 0.5 * m * l**2 * qd[0] ** 2)
    # the bob hangs at (0, -l) at q = 0 and gravity points along -y
    X0, _ = kinematics(model, np.zeros(1))
    np.testing.assert_allclose(sp.inertia_params(model.inertia[1])[1], [0, -l, 0])
    np.testing.assert_allclose(model.gravity, [0, -9.81, 0])
    np.testing.assert_array_equal(X0[1], np.eye(6))


def test_double_pendulum_kinetic_energy_closed_form(rng):
    (l1, l2), (m1, m2) = (0.8, 0.6), (1.2, 0.5)
    model = B.double_pendulum((l1, l2), (m1, m2))
    for _ in range(3):
        q, qd = rng.standard_normal(2), rng.standard_normal(2)
        w1, w12 = qd[0], qd[0] + qd[1]
        T = (
            0.5 * (m1 + m2) * l1**2 * w1**2
            + 0.5 * m2 * l2**2 * w12**2
            + m2 * l1 * l2 * w1 * w12 * np.cos(q[1])
        )
        np.testing.assert_allclose(kinetic_energy(model, q, qd), T, rtol=1e-13)


def test_cart_pole_kinetic_energy_closed_form(rng):
    M, m, l = 1.5, 0.3, 0.9
    model = B.cart_pole(M, m, l)
    r = l / 20
    I_c = m * (3 * r**2 + l**2) / 12  # rod about a transverse axis through its centre
    for _ in range(3):
        (x, th), (xd, thd) = rng.standard_normal(2), rng.standard_normal(2)
        vc2 = xd**2 - l * np.cos(th) * xd * thd + (l / 2) ** 2 * thd**2
        T = 0.5 * M * xd**2 + 0.5 * m * vc2 + 0.5 * I_c * thd**2
        np.testing.assert_allclose(kinetic_energy(model, np.array([x, th]), np.array([xd, thd])), T)


def test_planar_chain(rng):
    n, l, m = 4, 0.5, 2.0
    model = B.planar_chain(n, length=l, mass=m)
    assert (model.NB, model.nv) == (n, n) and model.parent == [-1, 0, 1, 2, 3]
    # hanging straight down at q = 0: joint i at (0, -(i-1) l)
    X0, _ = kinematics(model, np.zeros(n))
    for i in range(1, n + 1):
        np.testing.assert_allclose(sp.unplux(X0[i])[1], [0, -(i - 1) * l, 0], atol=1e-15)
    one = B.planar_chain(1, length=l, mass=m)
    I_pivot = m * (3 * (l / 20) ** 2 + l**2) / 12 + m * (l / 2) ** 2
    np.testing.assert_allclose(kinetic_energy(one, np.zeros(1), np.array([2.0])), 2.0 * I_pivot)


def test_arm7():
    model = B.arm7()
    assert (model.NB, model.nq, model.nv) == (7, 7, 7)
    assert model.parent == [-1, 0, 1, 2, 3, 4, 5, 6]
    np.testing.assert_allclose(total_mass(model), 17.5)
    axes = [j.axis.tolist() for j in model.joints[1:]]
    assert axes == [[0, 0, 1], [0, 1, 0]] * 3 + [[0, 0, 1]]
    X0, _ = kinematics(model, np.zeros(7))
    np.testing.assert_allclose(sp.unplux(X0[7])[1], [0, 0, 1.22], atol=1e-14)  # straight up


def test_humanoid():
    fixed, floating = B.humanoid(), B.humanoid(floating=True)
    assert (fixed.NB, fixed.nq, fixed.nv) == (16, 15, 15)
    assert (floating.NB, floating.nq, floating.nv) == (16, 22, 21)
    assert isinstance(fixed.joints[1], Fixed) and isinstance(floating.joints[1], Free)
    assert fixed.children(1) == [2, 3, 6, 9, 13]
    assert fixed.support(16) == [1, 13, 14, 15, 16]
    assert fixed.body("l_foot") == 16 and fixed.body("head") == 2
    np.testing.assert_allclose(
        total_mass(fixed), 25 + 4 + 2 * (0.3 + 2 + 1.5) + 2 * (0.3 + 6 + 3 + 1)
    )
    same = B.floating_base(fixed)
    assert [repr(j) for j in same.joints] == [repr(j) for j in floating.joints]
    for i in range(1, 17):
        np.testing.assert_array_equal(same.X_tree[i], floating.X_tree[i])
        np.testing.assert_array_equal(same.inertia[i], floating.inertia[i])
    # standing: the feet are at the bottom, 1 m below the pelvis
    X0, _ = kinematics(fixed, np.zeros(15))
    np.testing.assert_allclose(sp.unplux(X0[16])[1], [0, 0.1, 0.1], atol=1e-14)


# ----------------------------------------------------------------------------- operations


def test_floating_base_adds_six_dof(rng):
    # (a) a Fixed root becomes Free
    base = sp.Model()
    base.add_body(0, Fixed(), sp.xlt([0, 0, 1.0]), B.random_inertia(rng), name="torso")
    for i in range(2, 6):
        base.add_body(
            int(rng.integers(1, i)), Revolute(), B.random_transform(rng), B.random_inertia(rng)
        )
    free = B.floating_base(base)
    assert (free.NB, free.nq, free.nv) == (base.NB, base.nq + 7, base.nv + 6)
    assert isinstance(free.joints[1], Free) and free.parent == base.parent
    q = base.random_configuration(rng)
    q_free = np.concatenate([free.joints[1].neutral(), q])
    for X_old, X_new in zip(kinematics(base, q)[0], kinematics(free, q_free)[0], strict=True):
        np.testing.assert_allclose(X_new, X_old, atol=1e-14)
    # (b) with an inertia, a new floating body carries every former root
    tree = B.random_tree(rng, 7, joints=("R", "S", "F"))
    I = B.random_inertia(rng)
    free = B.floating_base(tree, inertia=I, name="platform")
    assert (free.NB, free.nq, free.nv) == (tree.NB + 1, tree.nq + 7, tree.nv + 6)
    assert free.children(0) == [1] and free.names[1] == "platform"
    assert free.children(1) == [i + 1 for i in tree.children(0)]
    assert free.parent[2:] == [p + 1 if p > 0 else 1 for p in tree.parent[1:]]
    np.testing.assert_array_equal(free.inertia[1], I)
    q = tree.random_configuration(rng)
    qd = rng.standard_normal(tree.nv)
    q_free = np.concatenate([free.joints[1].neutral(), q])
    qd_free = np.concatenate([np.zeros(6), qd])
    X_old, v_old = kinematics(tree, q, qd)
    X_new, v_new = kinematics(free, q_free, qd_free)
    for i in range(1, tree.NB + 1):
        np.testing.assert_allclose(X_new[i + 1], X_old[i], atol=1e-14)
        np.testing.assert_allclose(v_new[i + 1], v_old[i], atol=1e-14)


def test_floating_base_errors(rng):
    with pytest.raises(ValueError, match="needs one root body with a Fixed joint"):
        B.floating_base(B.arm7())
    two_roots = B.random_tree(rng, 5, joints=("F",), branching=0.0)
    two_roots.add_body(0, Fixed(), np.eye(6), B.random_inertia(rng))
    with pytest.raises(ValueError, match=r"got roots \[1, 6\]"):
        B.floating_base(two_roots)


def random_regular_order(model, rng):
    """A random topological order of the bodies: each body after its parent."""
    order, ready = [], list(model.children(0))
    while ready:
        body = ready.pop(int(rng.integers(len(ready))))
        order.append(body)
        ready.extend(model.children(body))
    return order


@pytest.mark.parametrize("seed", range(3))
def test_renumber_gives_the_same_tree(seed):
    rng = np.random.default_rng(seed)
    model = B.random_tree(rng, 12, joints=("R", "S", "FREE", "F", "C", "~RP"))
    order = random_regular_order(model, rng)
    new, q_perm, v_perm = B.renumber(model, order)
    new_number = {0: 0, **{old: k for k, old in enumerate(order, start=1)}}
    for k, old in enumerate(order, start=1):
        assert new.parent[k] == new_number[model.parent[old]]
        assert new.joints[k] is model.joints[old] and new.names[k] == model.names[old]
        np.testing.assert_array_equal(new.X_tree[k], model.X_tree[old])
    q = model.random_configuration(rng)
    qd = rng.standard_normal(model.nv)
    X_old, v_old = kinematics(model, q, qd)
    X_new, v_new = kinematics(new, q[q_perm], qd[v_perm])
    for k, old in enumerate(order, start=1):
        np.testing.assert_allclose(X_new[k], X_old[old], atol=1e-13)
        np.testing.assert_allclose(v_new[k], v_old[old], atol=1e-13)
    assert sorted(q_perm) == list(range(model.nq)) and sorted(v_perm) == list(range(model.nv))
    np.testing.assert_allclose(
        kinetic_energy(new, q[q_perm], qd[v_perm]), kinetic_energy(model, q, qd)
    )


def test_renumber_errors():
    model = B.humanoid()
    with pytest.raises(ValueError, match="permutation of 1 … 16"):
        B.renumber(model, range(1, 16))
    with pytest.raises(ValueError, match="permutation"):
        B.renumber(model, [1] * 16)
    order = list(range(1, 17))
    order[2], order[3] = order[3], order[2]  # the upper arm before the shoulder it hangs from
    with pytest.raises(ValueError, match="puts body 4 before its parent 3"):
        B.renumber(model, order)


def test_renumber_refuses_orders_that_int_would_truncate():
    model = B.double_pendulum()
    with pytest.raises(ValueError, match=r"order\[0\] must be an integer, got 1.7"):
        B.renumber(model, [1.7, 2.2])  # int() made it the permutation [1, 2]
