"""Tests of spatial.dynamics.crba (Featherstone ch. 6, Tables 6.1–6.2; Echeandia & Wensing 2021).

``H`` is checked against the RNEA (eq. 6.1 and its columns, eq. 6.4), the kinetic energy from
body velocities (eq. 6.10), hand-derived pendulum matrices and its branch-induced sparsity
(eq. 6.14).  The Coriolis matrix is checked against the bias force (``C q̇``), central finite
differences of ``H`` along ``q(t) = model.integrate(q, q̇, t)`` (``Ḣ = C + Cᵀ``) and, for
joints with ``α = q̇``, the Christoffel symbols of ``H``.
"""

import numpy as np
import pytest

import spatial as sp
from spatial.builders import double_pendulum, random_tree, renumber, simple_pendulum
from spatial.dynamics import bias_force, coriolis_matrix, crba, inertia_product, rnea
from spatial.joints import Joint, Revolute

ALL_JOINTS = ("R", "P", "H", "C", "PL", "SY", "S", "FREE", "RP", "F")
REVERSED = ("~R", "~P", "~C", "~PL", "~SY", "~S", "~FREE", "~RP")
TOL = 1e-10


def assert_close(got, expected, tol=TOL):
    """Max-norm error relative to the size of ``expected`` (at least 1)."""
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    err = np.abs(got - expected).max(initial=0.0)
    assert err <= tol * max(1.0, np.abs(expected).max(initial=0.0)), err


@pytest.fixture(params=[0, 1, 2, 3])
def tree(request):
    """Random branched trees with every joint type, reversed joints (3) and a floating base (2)."""
    rng = np.random.default_rng(600 + request.param)
    joints = REVERSED + ("R", "F") if request.param == 3 else ALL_JOINTS
    model = random_tree(rng, 8, joints=joints, branching=0.6, floating=request.param == 2)
    q = model.random_configuration(rng)
    return model, q, rng.standard_normal(model.nv), rng.standard_normal(model.nv), rng


def ancestors(lam, k):
    out = set()
    while lam[k] != -1:
        k = lam[k]
        out.add(k)
    return out


# ----------------------------------------------------------------------------- H


def test_equation_of_motion(tree):
    """rnea(q, q̇, q̈) = H q̈ + C (eq. 6.1) and τ = H q̈ without H (Table 6.1)."""
    model, q, qd, qdd, _ = tree
    H = crba(model, q)
    assert_close(rnea(model, q, qd, qdd), H @ qdd + bias_force(model, q, qd))
    assert_close(inertia_product(model, q, qdd), H @ qdd)


def test_H_is_symmetric_positive_definite(tree):
    model, q, _, _, _ = tree
    H = crba(model, q)
    assert_close(H, H.T, tol=1e-13)
    assert np.linalg.eigvalsh(H).min() > 0.0


def test_columns_of_H_from_rnea(tree):
    """Column k of H is rnea(q, 0, e_k) - rnea(q, 0, 0) with gravity off (Featherstone §6.1)."""
    model, q, _, _, _ = tree
    model.gravity = np.zeros(3)
    zero = np.zeros(model.nv)
    assert_close(rnea(model, q, zero, zero), zero, tol=0.0)
    columns = [rnea(model, q, zero, e) for e in np.eye(model.nv)]
    assert_close(crba(model, q), np.stack(columns, -1))


def test_kinetic_energy(tree):
    """½ q̇ᵀ H q̇ = Σ ½ v_iᵀ I_i v_i with body velocities from the forward kinematics (eq. 6.10)."""
    model, q, qd, _, _ = tree
    v = sp.body_velocities(model, q, qd)
    T = sum(0.5 * v[i] @ model.inertia[i] @ v[i] for i in range(1, model.NB + 1))
    assert_close(0.5 * qd @ crba(model, q) @ qd, T)


def test_branch_induced_sparsity(tree):
    """H[k, j] is exactly zero unless j is k, an ancestor or a descendant (eq. 6.14)."""
    model, q, _, _, _ = tree
    H = crba(model, q)
    lam = model.expanded_parent()
    for k in range(model.nv):
        for j in range(k):
            if j not in ancestors(lam, k):
                assert H[k, j] == 0.0 and H[j, k] == 0.0


def test_pendulums_by_hand():
    l, m = 0.8, 1.7
    assert_close(crba(simple_pendulum(length=l, mass=m), [0.3]), [[m * l**2]])
    (l1, l2), (m1, m2), q2 = (0.7, 1.3), (1.5, 0.8), -1.1
    c2 = np.cos(q2)
    H11 = m1 * l1**2 + m2 * (l1**2 + l2**2 + 2 * l1 * l2 * c2)
    H12, H22 = m2 * (l2**2 + l1 * l2 * c2), m2 * l2**2
    H = crba(double_pendulum((l1, l2), (m1, m2)), [0.4, q2])
    assert_close(H, [[H11, H12], [H12, H22]])


def test_renumbering_permutes_H(tree):
    model, q, qd, _, _ = tree
    order = [1]
    while len(order) < model.NB:  # take the largest body whose parent is already numbered
        order.append(
            max(
                i
                for i in range(2, model.NB + 1)
                if i not in order and (model.parent[i] in order or model.parent[i] == 0)
            )
        )
    new, q_perm, v_perm = renumber(model, order)
    assert order != list(range(1, model.NB + 1))
    P = np.ix_(v_perm, v_perm)
    assert_close(crba(new, q[q_perm]), crba(model, q)[P])
    assert_close(coriolis_matrix(new, q[q_perm], qd[v_perm]), coriolis_matrix(model, q, qd)[P])


def test_batched_equals_looped(tree):
    model, _, _, _, rng = tree
    q = model.random_configuration(rng, (2, 3))
    qd = rng.standard_normal((3, model.nv))
    qdd = rng.standard_normal((2, 1, model.nv))
    H, C, tau = crba(model, q), coriolis_matrix(model, q, qd), inertia_product(model, q, qdd)
    assert H.shape == C.shape == (2, 3, model.nv, model.nv) and tau.shape == (2, 3, model.nv)
    for a in range(2):
        for b in range(3):
            assert_close(H[a, b], crba(model, q[a, b]))
            assert_close(C[a, b], coriolis_matrix(model, q[a, b], qd[b]))
            assert_close(tau[a, b], inertia_product(model, q[a, b], qdd[a, 0]))


# ----------------------------------------------------------------------------- C(q, q̇)


def test_coriolis_matrix_times_qd_is_the_bias_force(tree):
    model, q, qd, _, _ = tree
    model.gravity = np.zeros(3)
    assert_close(coriolis_matrix(model, q, qd) @ qd, bias_force(model, q, qd))


def test_H_dot_equals_C_plus_C_transpose(tree):
    """Ḣ = C + Cᵀ against a central difference of crba along q(t) = integrate(q, q̇, t)."""
    model, q, qd, _, _ = tree
    h = 1e-5
    H_dot = (crba(model, model.integrate(q, qd, h)) - crba(model, model.integrate(q, qd, -h))) / (
        2 * h
    )
    C = coriolis_matrix(model, q, qd)
    assert_close(C + C.T, H_dot, tol=1e-8)
    N = H_dot - 2 * C  # hence skew-symmetric: q̇ᵀ (Ḣ - 2C) q̇ = 0 (passivity)
    assert_close(N, -N.T, tol=1e-8)


def test_coriolis_matrix_is_the_christoffel_one_for_lagrangian_coordinates():
    """With α = q̇, C_ij = Σ_k Γ_ijk q̇_k, Γ_ijk = ½(∂_k H_ij + ∂_j H_ik - ∂_i H_jk)."""
    rng = np.random.default_rng(601)
    model = random_tree(rng, 6, joints=("R", "P", "H", "C", "SY", "RP", "~RP"), branching=0.6)
    q, qd = model.random_configuration(rng), rng.standard_normal(model.nv)
    h = 1e-6
    dH = np.stack(
        [(crba(model, q + h * e) - crba(model, q - h * e)) / (2 * h) for e in np.eye(model.nv)], -1
    )
    Gamma = 0.5 * (dH + dH.transpose(0, 2, 1) - dH.transpose(2, 0, 1))
    assert_close(coriolis_matrix(model, q, qd), Gamma @ qd, tol=1e-8)


def test_double_pendulum_coriolis_matrix_by_hand():
    (l1, l2), (m1, m2) = (0.7, 1.3), (1.5, 0.8)
    q, qd = np.array([0.4, -1.1]), np.array([0.7, 1.9])
    h = -m2 * l1 * l2 * np.sin(q[1])
    expected = [[h * qd[1], h * (qd[0] + qd[1])], [-h * qd[0], 0.0]]
    assert_close(coriolis_matrix(double_pendulum((l1, l2), (m1, m2)), q, qd), expected)


class _ScaledRevolute(Revolute):
    """A revolute joint with velocity variable α = 2 q̇ and an S that varies with q (test only)."""

    def motion_subspace(self, q):
        S = np.zeros(q.shape[:-1] + (6, 1))
        S[..., 2, 0] = 0.5
        S[..., 3, 0] = 0.1 * np.sin(q[..., 0])
        return S

    def q_dot(self, q, qd):
        return 0.5 * qd


def test_bad_input_raises():
    model = sp.builders.humanoid(floating=True)
    with pytest.raises(ValueError, match="q must have shape"):
        crba(model, np.zeros(model.nq + 1))
    with pytest.raises(ValueError, match="q of joint"):
        crba(model, np.full(model.nq, 0.3))
    q = model.neutral_configuration()
    with pytest.raises(ValueError, match="qdd must have shape"):
        inertia_product(model, q, np.zeros(model.nv + 1))
    with pytest.raises(ValueError, match="qd must have shape"):
        coriolis_matrix(model, q, np.zeros(model.nv - 1))
    assert issubclass(_ScaledRevolute, Joint)
    odd = sp.Model()
    odd.add_body(0, _ScaledRevolute(), np.eye(6), sp.mcI(1.0, [0.3, 0, 0], np.eye(3)))
    with pytest.raises(ValueError, match="S̊ is not available"):
        coriolis_matrix(odd, [0.3], [1.0])


# ----------------------------------------------------------------------------- loop joints


def test_crba_refuses_loop_joints_and_answers_for_the_spanning_tree_on_request(
    four_bar_and_open_tree,
):
    """A model with a loop joint is refused (naming the joint and pointing at the ch. 8
    functions); the spanning tree's H, asked for explicitly, is a hand-built tree's."""
    model, open_tree, q, qd, qdd = four_bar_and_open_tree
    refusal = r"crba computes .* loop joint \('pin C'\).*loop_forward_dynamics.*spanning_tree\(\)"
    with pytest.raises(ValueError, match=refusal):
        crba(model, q)
    with pytest.raises(ValueError, match=r"inertia_product .*'pin C'"):
        inertia_product(model, q, qdd)
    with pytest.raises(ValueError, match=r"coriolis_matrix .*'pin C'"):
        coriolis_matrix(model, q, qd)
    tree = model.spanning_tree()
    H = crba(open_tree, q)
    np.testing.assert_allclose(crba(tree, q), H, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(inertia_product(tree, q, qdd), H @ qdd, rtol=1e-12)
