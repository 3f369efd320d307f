"""A single constrained rigid body, three ways (Featherstone §3.6)."""

import numpy as np
import pytest

import spatial as sp
from spatial import constrained
from spatial.builders import random_inertia, random_tree


@pytest.mark.parametrize("code", ["R", "H", "C", "S", "PL", "U"])
def test_three_methods_agree_and_match_aba(code):
    rng = np.random.default_rng(36)
    model = random_tree(rng, 1, joints=(code,), gravity=(0.0, 0.0, -9.81))
    joint = model.joints[1]
    q = model.random_configuration(rng)
    qd, tau = rng.normal(size=(2, model.nv))
    I = model.inertia[1]
    X_J, S, v_J, c_J = joint.jcalc(q, qd)
    X = X_J @ model.X_tree[1]  # body from base
    v = v_J
    f_g = I @ (X @ model.a_grav)  # gravity as a force on the body, in body coordinates
    p = sp.crf(v) @ I @ v - f_g
    Sdot_qd = c_J + sp.crm(v) @ v_J  # a = S q̈ + c_J + v × v_J (eq. 3.49 in body coordinates)
    f = np.linalg.pinv(S.T) @ tau  # any f with Sᵀ f = τ (eq. 3.61)
    a1, qdd1 = constrained.constrained_acceleration(I, S, f, p, Sdot_qd)
    np.testing.assert_allclose(qdd1, sp.aba(model, q, qd, tau), rtol=1e-10, atol=1e-10)
    H, C = constrained.generalized_equation(I, S, p, Sdot_qd)
    np.testing.assert_allclose(np.linalg.solve(H, tau - C), qdd1, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(H, sp.crba(model, q), rtol=1e-10, atol=1e-12)
    T = np.asarray(joint.constraint_subspace(q))
    if T.shape[1] == 0:
        return
    # Ṫᵀ v follows from Tᵀ S = 0 differentiated: Ṫᵀ S q̇ = -Tᵀ Ṡ q̇ (the acceleration constraint)
    a2, lam = constrained.constrained_acceleration_kkt(I, T, f, p, -T.T @ Sdot_qd)
    np.testing.assert_allclose(a2, a1, rtol=1e-10, atol=1e-10)
    # the constraint force closes the equation of motion (eq. 3.59) and does no work on S
    np.testing.assert_allclose(f + T @ lam, I @ a1 + p, rtol=1e-10, atol=1e-9)
    assert np.allclose(S.T @ (T @ lam), 0, atol=1e-9)


def test_apparent_inverse_inertia_properties():
    rng = np.random.default_rng(354)
    I = random_inertia(rng)
    S = rng.normal(size=(6, 2))
    Phi = constrained.apparent_inverse_inertia(I, S)
    np.testing.assert_allclose(Phi, Phi.T, atol=1e-12)
    assert np.linalg.matrix_rank(Phi, tol=1e-9) == 2
    assert np.all(np.linalg.eigvalsh(Phi) > -1e-12)
    # null(Φ) = S⊥: forces that do no work on S cause no acceleration
    T = np.linalg.svd(S.T)[2][2:].T  # basis of {f : Sᵀ f = 0}
    np.testing.assert_allclose(Phi @ T, 0, atol=1e-12)
    # range(Φ) = S, and Φ I acts as the identity on S
    np.testing.assert_allclose(Phi @ I @ S, S, atol=1e-10)


def test_bad_input_is_named():
    I = np.eye(6)
    with pytest.raises(ValueError, match="linearly dependent"):
        constrained.apparent_inverse_inertia(I, np.ones((6, 2)))
    with pytest.raises(ValueError, match="6 x k matrix"):
        constrained.apparent_inverse_inertia(I, np.ones((5, 2)))
    with pytest.raises(ValueError, match="I is not symmetric"):
        constrained.apparent_inverse_inertia(np.triu(np.ones((6, 6))), np.eye(6)[:, :1])
    with pytest.raises(ValueError, match="positive definite on S"):
        constrained.constrained_acceleration(
            np.diag([0, 0, 1.0, 1, 1, 1]), np.eye(6)[:, :1], np.ones(6)
        )
    with pytest.raises(ValueError, match="f must have shape"):
        constrained.constrained_acceleration_kkt(I, np.eye(6)[:, :2], np.ones(5))


def test_big_matrix_equals_aba_on_trees():
    """Eq. 3.74 in body accelerations gives the joint-space motion of the ABA."""
    rng = np.random.default_rng(374)
    for codes in (("R",), ("R", "P", "H"), ("S", "C", "U", "PL"), ("FREE", "R")):
        model = random_tree(rng, 5, joints=codes, branching=0.5)
        q = model.random_configuration(rng)
        qd, tau = rng.normal(size=(2, model.nv))
        qdd, a, lam = constrained.big_matrix_dynamics(model, q, qd, tau)
        np.testing.assert_allclose(qdd, sp.aba(model, q, qd, tau), rtol=1e-8, atol=1e-8)
        # the body accelerations, in base coordinates, follow from the joint-space answer
        world = sp.body_accelerations(model, q, qd, qdd, frame="world")[1:]
        np.testing.assert_allclose(a, world, rtol=1e-8, atol=1e-8)
        n_c = sum(6 - model.joints[i].nv for i in range(1, model.NB + 1))
        assert lam.shape == (n_c,)


def test_big_matrix_rejects_batches():
    model = random_tree(np.random.default_rng(0), 2, joints=("R",))
    with pytest.raises(ValueError, match="takes one state"):
        constrained.big_matrix_dynamics(model, np.zeros((2, 2)), np.zeros((2, 2)), np.zeros((2, 2)))


def test_big_matrix_system_pieces():
    """Eq. 3.74's pieces: P from the parent array (eq. 3.69), a symmetric saddle-point matrix
    with as many negative eigenvalues as constraints, and joint forces equal to the RNEA's."""
    rng = np.random.default_rng(3741)
    model = random_tree(rng, 6, joints=("R", "S", "C", "P"), branching=0.6)
    q = model.random_configuration(rng)
    qd, tau = rng.normal(size=(2, model.nv))
    system = constrained.big_matrix_system(model, q, qd, tau)
    n = model.NB
    P = np.zeros((n, n))  # one entry per 6x6 block, written from the definition
    for j in range(1, n + 1):
        P[j - 1, j - 1] = 1.0  # joint j's successor is body j
        if model.parent[j] > 0:
            P[model.parent[j] - 1, j - 1] = -1.0
    np.testing.assert_array_equal(system.P, np.kron(P, np.eye(6)))
    n_c = sum(6 - model.joints[i].nv for i in range(1, n + 1))
    assert system.matrix.shape == (6 * n + n_c,) * 2
    np.testing.assert_allclose(system.matrix, system.matrix.T, atol=1e-12)
    eig = np.linalg.eigvalsh(system.matrix)
    assert np.sum(eig < 0) == n_c and np.sum(eig > 0) == 6 * n  # symmetric, indefinite
    np.testing.assert_allclose(system.Ta.T @ system.S, np.eye(model.nv), atol=1e-12)
    np.testing.assert_allclose(system.T.T @ system.S, 0, atol=1e-12)
    # the joint forces f_J = T_a τ + T λ are the RNEA's, moved to base coordinates
    qdd, a, lam = constrained.big_matrix_dynamics(model, q, qd, tau)
    f_J = (system.Ta @ tau + system.T @ lam).reshape(n, 6)
    f_rnea = sp.dynamics.joint_forces(model, q, qd, qdd)
    X = sp.forward_kinematics(model, q)
    for i in range(1, n + 1):
        np.testing.assert_allclose(f_J[i - 1], X[i].T @ f_rnea[i], rtol=1e-8, atol=1e-8)


def test_big_matrix_system_rejects_batches_and_loops():
    model = random_tree(np.random.default_rng(0), 2, joints=("R",))
    with pytest.raises(ValueError, match="takes one state"):
        constrained.big_matrix_system(model, np.zeros((2, 2)), np.zeros((2, 2)), np.zeros((2, 2)))
    four_bar = sp.builders.four_bar()
    with pytest.raises(ValueError, match="loop"):
        constrained.big_matrix_system(four_bar, np.zeros(3), np.zeros(3), np.zeros(3))
