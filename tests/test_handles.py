"""Tests of articulated bodies with several handles (Featherstone §7.1–7.2.1, §7.5).

Oracles: the projection formula on the assembled system against the assembly formula
(eq. 7.63) applied to its two halves — joined through one joint (a tree) and through two joints
at once (handle *sets*); the articulated-body inertia of a floating base from the ABA
(``Φ = (I^A)⁻¹`` for one 6-DoF handle); and the forward dynamics with forces applied at the
handles (``a = Φ f + b`` by definition).
"""

import numpy as np
import pytest

import spatial as sp
from spatial import builders
from spatial.dynamics import aba, articulated_inertia, assemble_handles, handle_inverse_inertia
from spatial.joints import Revolute, Spherical
from spatial.model import Model
from spatial.rotations import quat_from_matrix
from spatial.vectors import unplux

TOL = 1e-10


def rel_err(a, b) -> float:
    return float(np.abs(np.asarray(a) - b).max() / (1.0 + np.abs(b).max()))


def floating_trees(rng, sizes) -> Model:
    """One model holding several random floating trees, each root on a Free joint at X_T = 1.

    With ``X_T = 1`` a root's Free-joint ``q`` is simply its world pose.
    """
    model = Model()
    for n in sizes:
        tree = builders.random_tree(rng, n, joints=("R", "P", "S"), floating=True)
        offset = model.NB
        for i in range(1, n + 1):
            parent = 0 if i == 1 else tree.parent[i] + offset
            X_T = np.eye(6) if i == 1 else tree.X_tree[i]
            model.add_body(parent, tree.joints[i], X_T, tree.inertia[i])
    return model


def attach(A: Model, B: Model, handles_A, joints, X_trees) -> Model:
    """Join B's root bodies (in order) to the bodies ``handles_A`` of A with ``joints``."""
    out = Model(gravity=A.gravity)
    for i in range(1, A.NB + 1):
        out.add_body(A.parent[i], A.joints[i], A.X_tree[i], A.inertia[i])
    k = 0
    for i in range(1, B.NB + 1):
        if B.parent[i] == 0:
            out.add_body(handles_A[k], joints[k], X_trees[k], B.inertia[i])
            k += 1
        else:
            out.add_body(B.parent[i] + A.NB, B.joints[i], B.X_tree[i], B.inertia[i])
    return out


def split_state(joined: Model, A: Model, B: Model, q, qd, tau):
    """The states of A and B that the joined model's state implies."""
    qA, qdA, tauA = q[..., : A.nq], qd[..., : A.nv], tau[..., : A.nv]
    X0 = sp.forward_kinematics(joined, q)
    v = sp.body_velocities(joined, q, qd)
    qB, qdB, tauB = [], [], []
    for i in range(1, B.NB + 1):
        j = A.NB + i
        if B.parent[i] == 0:  # a root: its Free joint holds the world pose and body velocity
            E, r = unplux(X0[..., j, :, :])
            qB += [quat_from_matrix(np.swapaxes(E, -1, -2)), r]
            qdB.append(v[..., j, :])
            tauB.append(np.zeros(q.shape[:-1] + (6,)))
        else:
            qB.append(q[..., joined.q_index[j]])
            qdB.append(qd[..., joined.v_index[j]])
            tauB.append(tau[..., joined.v_index[j]])
    return (qA, qdA, tauA), tuple(np.concatenate(x, -1) for x in (qB, qdB, tauB))


def joint_terms(joined: Model, q, qd, child: int, parent_handle: int):
    """T in world coordinates and c = a_child - a_parent at zero joint accelerations."""
    X0 = sp.forward_kinematics(joined, q)[..., child, :, :]
    T_body = joined.joints[child].constraint_subspace(q[..., joined.q_index[child]])
    T = np.swapaxes(X0, -1, -2) @ T_body  # force subspace: ^0X_child* = (^childX_0)ᵀ
    c = sp.jdot_qdot(joined, q, qd, child, frame="world") - sp.jdot_qdot(
        joined, q, qd, parent_handle, frame="world"
    )
    return T, c


def random_joined_state(joined, rng, batch, passive):
    q = joined.random_configuration(rng, batch)
    qd = rng.standard_normal(batch + (joined.nv,))
    tau = rng.standard_normal(batch + (joined.nv,))
    for j in passive:
        tau[..., joined.v_index[j]] = 0.0  # eq. 7.61: the joining joints are passive
    return q, qd, tau


def test_assembly_through_one_joint_matches_projection(rng):
    A = floating_trees(rng, [5])
    B = floating_trees(rng, [4])
    h1, h2, h4 = 2, 5, 3  # handles 1, 2 in A; 3 = B's root, 4 in B
    joint = Revolute([0.6, 0.0, 0.8])
    joined = attach(A, B, [h2], [joint], [builders.random_transform(rng)])
    child = A.NB + 1
    q, qd, tau = random_joined_state(joined, rng, (3,), [child])
    (qA, qdA, tauA), (qB, qdB, tauB) = split_state(joined, A, B, q, qd, tau)
    Phi_12, b_12 = handle_inverse_inertia(A, qA, qdA, [h1, h2], tauA)
    Phi_34, b_34 = handle_inverse_inertia(B, qB, qdB, [1, h4], tauB)
    T, c = joint_terms(joined, q, qd, child, h2)
    Phi, b = assemble_handles(Phi_12, b_12, Phi_34, b_34, T, c)
    Phi_direct, b_direct = handle_inverse_inertia(joined, q, qd, [h1, A.NB + h4], tau)
    assert rel_err(Phi, Phi_direct) < TOL
    assert rel_err(b, b_direct) < TOL


def test_assembly_through_two_joints_matches_projection(rng):
    """Handle sets: two separate floating trees B, B' joined to A at two handles at once."""
    A = floating_trees(rng, [6])
    B = floating_trees(rng, [3, 2])  # roots are bodies 1 and 4
    h1, h2a, h2b, h4 = 1, 4, 6, 2
    joints = [Revolute("x"), Spherical()]
    joined = attach(A, B, [h2a, h2b], joints, [builders.random_transform(rng) for _ in range(2)])
    children = [A.NB + 1, A.NB + 4]
    q, qd, tau = random_joined_state(joined, rng, (2,), children)
    (qA, qdA, tauA), (qB, qdB, tauB) = split_state(joined, A, B, q, qd, tau)
    Phi_12, b_12 = handle_inverse_inertia(A, qA, qdA, [h1, h2a, h2b], tauA)
    Phi_34, b_34 = handle_inverse_inertia(B, qB, qdB, [1, 4, h4], tauB)
    terms = [joint_terms(joined, q, qd, ch, h) for ch, h in zip(children, [h2a, h2b], strict=True)]
    T = np.zeros((2, 12, 5 + 3))
    T[:, :6, :5], T[:, 6:, 5:] = terms[0][0], terms[1][0]  # block-diagonal
    c = np.concatenate([terms[0][1], terms[1][1]], -1)
    Phi, b = assemble_handles(Phi_12, b_12, Phi_34, b_34, T, c, n_joints=2)
    Phi_direct, b_direct = handle_inverse_inertia(joined, q, qd, [h1, A.NB + h4], tau)
    assert rel_err(Phi, Phi_direct) < TOL
    assert rel_err(b, b_direct) < TOL


def test_one_handle_of_a_floating_base_is_the_articulated_inertia(rng):
    """Φ = (I^A)⁻¹ (§7.1) with I^A from the ABA's pass 2, carried to world coordinates."""
    model = builders.humanoid(floating=True)
    q = model.random_configuration(rng, (2,))
    Phi, _ = handle_inverse_inertia(model, q, np.zeros(model.nv), [1])
    IA = articulated_inertia(model, q)[..., 1, :, :]
    X = sp.forward_kinematics(model, q)[..., 1, :, :]  # ^1X_0
    IA_world = np.swapaxes(X, -1, -2) @ IA @ X
    assert rel_err(np.linalg.inv(Phi), IA_world) < 1e-9


def test_handle_accelerations_under_applied_forces(rng):
    """a = Φ f + b: the handles' world accelerations when forces f act on them (by ABA)."""
    model = builders.random_tree(rng, 7, joints=("R", "P", "S"), floating=True)
    handles = [2, 5, 7]
    q = model.random_configuration(rng, (3,))
    qd, tau = rng.standard_normal((2, 3, model.nv))
    f = rng.standard_normal((3, 3, 6))
    f_ext = np.zeros((3, model.NB + 1, 6))
    f_ext[:, handles, :] = f
    qdd = aba(model, q, qd, tau, f_ext)
    a = sp.body_accelerations(model, q, qd, qdd, frame="world")[:, handles, :]
    Phi, b = handle_inverse_inertia(model, q, qd, handles, tau)
    predicted = (Phi @ f.reshape(3, 18, 1))[..., 0] + b
    assert rel_err(predicted, a.reshape(3, 18)) < TOL


def test_inverse_inertia_is_symmetric_psd_with_the_rank_of_J(rng):
    """Eq. 7.14: rank Φ = rank J — a 3-joint planar chain gives its two handles rank 3."""
    model = builders.planar_chain(3)
    q = rng.uniform(-1, 1, (2, 3))
    Phi, _ = handle_inverse_inertia(model, q, np.zeros(3), [2, 3])
    assert np.abs(Phi - np.swapaxes(Phi, -1, -2)).max() < 1e-12
    eig = np.linalg.eigvalsh(Phi)
    assert eig.min() > -1e-12 and np.all(np.linalg.matrix_rank(Phi) == 3)


def test_batched_equals_looped(rng):
    model = builders.random_tree(rng, 6, joints=("R", "S"), floating=True)
    q = model.random_configuration(rng, (2, 2))
    qd = rng.standard_normal((2, 2, model.nv))
    Phi, b = handle_inverse_inertia(model, q, qd, [3, 6])
    T = np.eye(6)[:, :5]
    joined = assemble_handles(Phi, b, Phi, b, T, b[..., :6])
    for idx in np.ndindex(2, 2):
        Phi_i, b_i = handle_inverse_inertia(model, q[idx], qd[idx], [3, 6])
        assert rel_err(Phi[idx], Phi_i) < 1e-12 and rel_err(b[idx], b_i) < 1e-12
        single = assemble_handles(Phi_i, b_i, Phi_i, b_i, T, b_i[:6])
        assert rel_err(joined[0][idx], single[0]) < 1e-12
        assert rel_err(joined[1][idx], single[1]) < 1e-12


def test_errors(rng):
    model = builders.random_tree(rng, 3, joints=("R",), floating=True)
    q, qd = model.random_configuration(rng), np.zeros(model.nv)
    with pytest.raises(ValueError, match="handles must be a non-empty sequence"):
        handle_inverse_inertia(model, q, qd, [])
    with pytest.raises(ValueError, match="handles must be a non-empty sequence"):
        handle_inverse_inertia(model, q, qd, 2)
    with pytest.raises(ValueError, match="cannot be a handle"):
        handle_inverse_inertia(model, q, qd, [0])
    with pytest.raises(ValueError, match="body must be in"):
        handle_inverse_inertia(model, q, qd, [9])
    Phi, b = handle_inverse_inertia(model, q, qd, [1, 3])
    T, c = np.eye(6)[:, :5], np.zeros(6)
    with pytest.raises(ValueError, match="n_joints must be a positive int"):
        assemble_handles(Phi, b, Phi, b, T, c, n_joints=0)
    with pytest.raises(ValueError, match="Phi_34 must have shape"):
        assemble_handles(Phi, b, Phi[:6, :6], b[:6], T, c)
    with pytest.raises(ValueError, match="T must have shape"):
        assemble_handles(Phi, b, Phi, b, np.eye(5), c)
    with pytest.raises(ValueError, match="b_12 must have shape"):
        assemble_handles(Phi, b[:6], Phi, b, T, c)
    singular = np.zeros((12, 12))
    with pytest.raises(ValueError, match="is singular"):
        assemble_handles(singular, np.zeros(12), singular, np.zeros(12), T, c)
