"""Tests of spatial.attachments (ArtiSynth notes §0.17–0.21).

Oracles: the full KKT system with the attachments as constraint rows (spatial.solvers.solve_kkt),
explicit products of the projectors ``P_k``, ``point_mass_inertia`` and the RNEA of a free body
with the particle's inertia added, ``composite_inertia``, and ``hybrid_dynamics`` of a tree with
the particle merged into a body.
"""

import copy

import numpy as np
import pytest

import spatial as sp
from spatial import attachments as at
from spatial import builders
from spatial.dynamics import hybrid_dynamics, rnea
from spatial.joints import Free
from spatial.kinematics import jdot_qdot, point_jacobian
from spatial.se3 import frame_inverse
from spatial.solvers import solve_kkt

TOL = 1e-10


def random_rotation(rng):
    return sp.exp_so3(rng.normal(size=3))


def random_attachments(rng, n_components=9, multi=True):
    """Random sizes and a random DAG: component k hangs on masters among the components > k."""
    sizes = [int(rng.choice([3, 6])) for _ in range(n_components)]
    attachments = []
    for k in range(n_components - 2):
        if rng.random() < 0.3:
            continue  # k stays active
        candidates = list(range(k + 1, n_components))
        count = int(rng.integers(1, 4)) if multi else 1
        masters = rng.choice(candidates, size=min(count, len(candidates)), replace=False)
        blocks = {int(j): rng.normal(size=(sizes[k], sizes[j])) for j in masters}
        offset = rng.normal(size=sizes[k]) if rng.random() < 0.5 else None
        attachments.append(at.attach(k, blocks, offset=offset))
    rng.shuffle(attachments)
    return sizes, attachments


def random_system(rng, n, m=2):
    B = rng.normal(size=(n, n))
    return B @ B.T + n * np.eye(n), rng.normal(size=n), rng.normal(size=(m, n)), rng.normal(size=m)


def full_kkt(att, M, f, C, gamma):
    """The attachments as KKT rows ``x_k - Σ G_kj x_j = g_k`` next to ``C``."""
    rows, rhs = [C], [gamma]
    for a in att.attachments:
        A = np.zeros((att.sizes[a.component], att.n))
        A[:, att.slices[a.component]] = np.eye(att.sizes[a.component])
        for j, G in zip(a.masters, a.blocks, strict=True):
            A[:, att.slices[j]] -= G
        rows.append(A)
        rhs.append(np.zeros(len(A)) if a.offset is None else a.offset)
    x, lam = solve_kkt(M, np.vstack(rows), f, np.concatenate(rhs))
    return x, lam[: len(C)], lam[len(C) :]


def random_topological_order(att, rng):
    """A random elimination order: an attachment only after all attachments to its component."""
    by_component = {a.component: i for i, a in enumerate(att.attachments)}
    users = {i: set() for i in range(len(att.attachments))}
    for i, a in enumerate(att.attachments):
        for j in a.masters:
            if j in by_component:
                users[by_component[j]].add(i)
    order, done = [], set()
    while len(order) < len(att.attachments):
        ready = [i for i in users if i not in done and users[i] <= done]
        i = int(rng.choice(ready))
        order.append(i)
        done.add(i)
    return order


# ----------------------------------------------------------------------------- reduction


@pytest.mark.parametrize("seed", range(8))
def test_reduced_solve_equals_full_kkt(seed):
    rng = np.random.default_rng(seed)
    sizes, attachments = random_attachments(rng)
    att = at.Attachments(sizes, attachments)
    M, f, C, gamma = random_system(rng, att.n)
    sol = at.solve(att, M, f, C, gamma)
    x, lam, mu = full_kkt(att, M, f, C, gamma)
    assert np.abs(sol.x - x).max() <= TOL * (1 + np.abs(x).max())
    assert np.abs(sol.lam - lam).max() <= TOL * (1 + np.abs(lam).max())
    assert np.abs(np.concatenate(sol.mu) - mu).max() <= TOL * (1 + np.abs(mu).max())
    # and through the separate public steps
    separate = np.concatenate(at.attachment_forces(att, M, f, x, C, lam))
    assert np.abs(separate - mu).max() <= TOL * (1 + np.abs(mu).max())


def test_random_systems_have_chains_and_multiple_masters():
    rng = np.random.default_rng(0)
    sizes, attachments = random_attachments(rng)
    att = at.Attachments(sizes, attachments)
    attached = set(att.attached)
    assert any(j in attached for a in attachments for j in a.masters)  # a chain
    assert any(len(a.masters) > 1 for a in attachments)


@pytest.mark.parametrize("seed", range(4))
def test_elimination_order_does_not_matter(seed):
    rng = np.random.default_rng(100 + seed)
    sizes, attachments = random_attachments(rng)
    base = at.Attachments(sizes, attachments)
    M, f, C, gamma = random_system(rng, base.n)
    red0, x0 = at.reduce(base, M, f, C, gamma), at.solve(base, M, f, C, gamma).x
    for _ in range(5):
        order = random_topological_order(base, rng)
        att = at.Attachments(sizes, attachments, order=order)
        red = at.reduce(att, M, f, C, gamma)
        for a, b in ((red.M, red0.M), (red.f, red0.f), (red.C, red0.C), (red.gamma, red0.gamma)):
            assert np.abs(a - b).max() <= 1e-11 * (1 + np.abs(b).max())
        assert np.abs(at.solve(att, M, f, C, gamma).x - x0).max() <= TOL * (1 + np.abs(x0).max())


def test_projectors_commute_for_unattached_masters():
    rng = np.random.default_rng(3)
    sizes = [3, 3, 6, 3, 6, 3]
    attachments = [
        at.attach(0, {2: rng.normal(size=(3, 6)), 4: rng.normal(size=(3, 6))}),
        at.attach(1, {2: rng.normal(size=(3, 6))}),
        at.attach(3, {4: rng.normal(size=(3, 6)), 5: rng.normal(size=(3, 3))}),
    ]
    att = at.Attachments(sizes, attachments)
    P = [at.projector(att, i) for i in range(3)]
    for i in range(3):
        for j in range(3):
            assert np.array_equal(P[i] @ P[j], P[j] @ P[i])


def test_projectors_of_a_chain_do_not_commute_and_the_order_is_enforced():
    sizes = [3, 3, 6]
    chain = [at.weighted_point(0, [1], [1.0]), at.attach(1, {2: np.ones((3, 6))})]
    att = at.Attachments(sizes, chain)
    assert att.order == (0, 1)
    P0, P1 = at.projector(att, 0), at.projector(att, 1)
    assert not np.allclose(P0 @ P1, P1 @ P0)
    with pytest.raises(ValueError, match="'1->2' is eliminated before '0->1'"):
        at.Attachments(sizes, chain, order=[1, 0])


@pytest.mark.parametrize("seed", range(3))
def test_P_M_Pt_is_the_reduced_mass_padded_with_zeros(seed):
    rng = np.random.default_rng(200 + seed)
    sizes, attachments = random_attachments(rng)
    att = at.Attachments(sizes, attachments)
    M = random_system(rng, att.n)[0]
    P = at.reduction_matrix(att)
    PMP = P @ M @ P.T
    cols = np.concatenate([np.arange(att.n)[att.slices[i]] for i in att.active])
    rest = np.setdiff1d(np.arange(att.n), cols)
    assert np.abs(PMP[np.ix_(cols, cols)] - at.reduce(att, M).M).max() <= 1e-10 * np.abs(M).max()
    assert np.abs(PMP[rest]).max() == 0.0 and np.abs(PMP[:, rest]).max() == 0.0


def test_two_master_particle_mass_matrix_of_the_notes():
    """§0.18: v_k = w1 v1 + w2 v2 couples the masters' masses."""
    m1, m2, mk, w1 = 2.0, 3.0, 0.5, 0.3
    att = at.Attachments([3, 3, 3], [at.weighted_point(2, [0, 1], [w1, 1 - w1])])
    M = np.diag([m1] * 3 + [m2] * 3 + [mk] * 3)
    I3 = np.eye(3)
    expected = np.block(
        [
            [(m1 + w1**2 * mk) * I3, w1 * (1 - w1) * mk * I3],
            [w1 * (1 - w1) * mk * I3, (m2 + (1 - w1) ** 2 * mk) * I3],
        ]
    )
    assert np.abs(at.reduce(att, M).M - expected).max() <= 1e-15


def test_recovered_velocities_satisfy_every_attachment():
    rng = np.random.default_rng(7)
    sizes, attachments = random_attachments(rng)
    att = at.Attachments(sizes, attachments)
    x = at.expand(att, rng.normal(size=att.n_active))
    for a in attachments:
        xk = sum(G @ x[att.slices[j]] for j, G in zip(a.masters, a.blocks, strict=True))
        xk = xk + (0 if a.offset is None else a.offset)
        assert np.abs(x[att.slices[a.component]] - xk).max() <= 1e-12 * (1 + np.abs(xk).max())


def test_one_dimensional_constraint_on_an_attached_point():
    """§0.20: project a velocity onto one row on an attached point == the full KKT solve."""
    rng = np.random.default_rng(11)
    sizes = [6, 3, 3, 3]
    R = random_rotation(rng)
    attachments = [
        at.point_on_body(1, 0, [0.3, -0.2, 0.5], R=R),
        at.weighted_point(2, [1, 3], [0.25, 0.75]),
    ]
    att = at.Attachments(sizes, attachments)
    M = random_system(rng, att.n)[0]
    row = np.zeros(att.n)
    row[att.slices[2]] = [0.0, 0.0, 1.0]  # the z velocity of the point on the segment
    v0 = rng.normal(size=att.n_active)
    v, w = at.project_constraint(att, M, row, 0.4, v0)
    assert abs(v[att.slices[2]][2] - 0.4) <= 1e-12
    x, lam, _ = full_kkt(att, M, M @ at.expand(att, v0), row[None], np.array([0.4]))
    assert np.abs(v - x).max() <= TOL
    red = at.reduce(att, M, C=row[None])
    assert abs(w - red.C[0] @ np.linalg.solve(red.M, red.C[0])) <= 1e-12


# ----------------------------------------------------------------------------- rigid bodies


def free_body_model(inertia):
    model = sp.Model(gravity=[0.0, 0.0, 0.0])
    model.add_body(0, Free(), np.eye(6), inertia)
    return model


@pytest.mark.parametrize("seed", range(4))
def test_particle_on_body_added_inertia_and_fictitious_force(seed):
    rng = np.random.default_rng(300 + seed)
    I_body = sp.mcI(2.0, rng.normal(size=3) * 0.1, np.diag([0.3, 0.4, 0.5]))
    m, c, R = 0.7, rng.normal(size=3), random_rotation(rng)
    phi = rng.normal(size=6)
    a = at.point_on_body(1, 0, c, R=R).with_offset(at.point_bias(c, phi, R=R))
    att = at.Attachments([6, 3], [a])
    M = np.zeros((9, 9))
    M[:6, :6], M[6:, 6:] = I_body, m * np.eye(3)
    red = at.reduce(att, M, np.zeros(9))
    I_p = sp.point_mass_inertia(m, c)
    assert np.abs(red.M - (I_body + I_p)).max() <= 1e-12
    assert np.abs(at.added_inertia(m, c) - I_p).max() <= 1e-12
    # the velocity-product force of the point mass from the RNEA of a free body (Table 5.1)
    q = np.concatenate([[1.0, 0, 0, 0], rng.normal(size=3)])
    with_point = rnea(free_body_model(I_body + I_p), q, phi, np.zeros(6))
    without = rnea(free_body_model(I_body), q, phi, np.zeros(6))
    assert np.abs(red.f - (without - with_point)).max() <= 1e-12
    assert np.abs(at.fictitious_force(m, c, phi) - red.f).max() <= 1e-12


def test_point_bias_is_the_derivative_of_the_point_velocity():
    rng = np.random.default_rng(5)
    c, phi, phid = rng.normal(size=3), rng.normal(size=6), rng.normal(size=6)
    T = sp.frame(random_rotation(rng), rng.normal(size=3))

    def velocity(t):
        Tt = T @ sp.exp_se3(t * phi)  # constant body twist ...
        return Tt[:3, :3] @ (sp.material_jacobian(c) @ (phi + t * phid))  # ... plus t φ̇

    h = 1e-5
    numeric = (velocity(h) - velocity(-h)) / (2 * h)
    G = at.point_on_body(1, 0, c, R=T[:3, :3]).blocks[0]
    assert np.abs(numeric - (G @ phid + at.point_bias(c, phi, R=T[:3, :3]))).max() <= 1e-8


def test_frame_attached_to_body_is_a_composite_body():
    rng = np.random.default_rng(9)
    Ia = sp.mcI(1.5, [0.1, 0.0, 0.2], np.diag([0.2, 0.3, 0.4]))
    Ib = sp.mcI(0.8, [0.0, -0.1, 0.0], np.diag([0.05, 0.06, 0.07]))
    X = sp.frame(random_rotation(rng), rng.normal(size=3))
    att = at.Attachments([6, 6], [at.frame_on_body(1, 0, X)])
    M = np.zeros((12, 12))
    M[:6, :6], M[6:, 6:] = Ia, Ib
    red = at.reduce(att, M)
    composite = sp.composite_inertia([Ia, Ib], [np.eye(4), X])
    assert np.abs(red.M - composite).max() <= 1e-12


def test_prescribed_joint_force_equals_hybrid_dynamics():
    """§0.21 with a particle attached to a tree: the prescribed joint's force == hybrid."""
    rng = np.random.default_rng(12)
    model = builders.random_tree(rng, 4, joints=("R",))
    body, c, m = 3, rng.normal(size=3) * 0.3, 0.9
    q, qd = model.random_configuration(rng), rng.normal(size=model.nv)
    tau = rng.normal(size=model.nv)
    mask = np.array([True, False, True, False])
    qdd_known = rng.normal(size=model.nv)
    # the attached formulation: one component per joint, the particle in world coordinates
    J = point_jacobian(model, q, body, c)
    bias = jdot_qdot(model, q, qd, body, point=c)
    sizes = [1] * model.nv + [3]
    particle = model.nv
    a = at.attach(particle, {i: J[:, i : i + 1] for i in range(model.nv)}, offset=bias)
    att = at.Attachments(sizes, [a])
    M = np.zeros((model.nv + 3, model.nv + 3))
    M[: model.nv, : model.nv] = sp.crba(model, q)
    M[model.nv :, model.nv :] = m * np.eye(3)
    f = np.concatenate([tau - rnea(model, q, qd, np.zeros(model.nv)), m * model.gravity])
    f[: model.nv][mask] = -rnea(model, q, qd, np.zeros(model.nv))[mask]  # τ unknown there
    prescribed = {i: qdd_known[i : i + 1] for i in np.flatnonzero(mask)}
    sol = at.solve(att, M, f, prescribed=prescribed)
    merged = copy.deepcopy(model)
    merged.inertia[body] = model.inertia[body] + sp.point_mass_inertia(m, c)
    qdd, tau_h = hybrid_dynamics(merged, q, qd, qdd_known, tau, mask)
    assert np.abs(sol.x[: model.nv] - qdd).max() <= TOL
    for i in np.flatnonzero(mask):
        assert abs(sol.prescribed_force[i][0] - tau_h[i]) <= TOL


def test_attachment_force_on_a_particle_holds_it_on_the_body():
    """μ of a particle at rest on a body at rest, under gravity: it carries the weight."""
    m = 0.4
    att = at.Attachments([6, 3], [at.point_on_body(1, 0, [0.2, 0, 0])])
    M = np.zeros((9, 9))
    M[:6, :6], M[6:, 6:] = np.eye(6), m * np.eye(3)
    g = np.array([0.0, 0.0, -9.81])
    sol = at.solve(att, M, np.concatenate([np.zeros(6), m * g]), prescribed={0: np.zeros(6)})
    assert np.allclose(sol.mu[0], -m * g, atol=1e-12)
    # the body must be held with the particle's weight and its moment about the body origin
    assert np.allclose(
        sol.prescribed_force[0], -np.concatenate([np.cross([0.2, 0, 0], m * g), m * g])
    )


# ----------------------------------------------------------------------------- errors


def test_errors_name_the_attachment():
    G = np.eye(3)
    with pytest.raises(ValueError, match=r"attachment cycle: attachments \['a', 'b'\]"):
        at.Attachments([3, 3, 3], [at.attach(0, {1: G}, name="a"), at.attach(1, {0: G}, name="b")])
    with pytest.raises(ValueError, match="attachment 'self': component 1 is attached to itself"):
        at.Attachments([3, 3], [at.attach(1, {1: G}, name="self")])
    with pytest.raises(
        ValueError, match="attachment 'w': the weights .* sum to 1, they sum to 0.9"
    ):
        at.weighted_point(0, [1, 2], [0.4, 0.5], name="w")
    with pytest.raises(ValueError, match="attachment 'far': master 7 does not exist"):
        at.Attachments([3, 3], [at.attach(0, {7: G}, name="far")])
    with pytest.raises(ValueError, match="attachment 'ghost': component 5 does not exist"):
        at.Attachments([3, 3], [at.attach(5, {0: G}, name="ghost")])
    with pytest.raises(ValueError, match="attachment 'twice': component 0 is already attached by"):
        at.Attachments([3, 3, 3], [at.attach(0, {1: G}), at.attach(0, {2: G}, name="twice")])
    with pytest.raises(
        ValueError, match=r"attachment 'shape': G for master 1 must have shape \(3, 6\)"
    ):
        at.Attachments([3, 6], [at.attach(0, {1: G}, name="shape")])
    with pytest.raises(ValueError, match="prescribed component 0 is attached"):
        att = at.Attachments([3, 3], [at.attach(0, {1: G})])
        at.solve(att, np.eye(6), np.zeros(6), prescribed={0: np.zeros(3)})
    with pytest.raises(ValueError, match="needs at least one master"):
        at.attach(0, {})
    with pytest.raises(ValueError, match="c' = 0"):
        att = at.Attachments([3, 3], [at.attach(0, {1: np.zeros((3, 3))})])
        at.project_constraint(att, np.eye(6), [1, 0, 0, 0, 0, 0], 0.0, np.zeros(3))


# ----------------------------------------------------------------------------- the system


def welded_system(rng):
    """Body a, body b welded to a, a particle on b: one composite body."""
    Ia = sp.mcI(1.5, [0.1, 0.0, 0.2], np.diag([0.2, 0.3, 0.4]))
    Ib = sp.mcI(0.8, [0.0, -0.1, 0.0], np.diag([0.05, 0.06, 0.07]))
    X = sp.frame(random_rotation(rng), rng.normal(size=3))
    c, m = np.array([0.3, -0.2, 0.5]), 0.6
    system = at.AttachedSystem()
    a, b, p = system.add_body(Ia), system.add_body(Ib), system.add_particle(m)
    system.attach_frame(b, a, X)
    system.attach_point(p, b, c)
    composite = sp.composite_inertia([Ia, Ib, sp.point_mass_inertia(m, c)], [np.eye(4), X, X])
    return system, a, composite, X, c


def test_welded_bodies_move_as_the_composite_body():
    rng = np.random.default_rng(21)
    system, a, composite, X, c = welded_system(rng)
    T0 = sp.frame(sp.exp_so3([0.1, 0.2, 0.3]), [0.0, 0.0, 1.0])
    phi0 = np.array([1.0, 2.0, 3.0, 0.1, 0.2, 0.3])
    q0, v0 = system.pack({a: T0}, {a: phi0})
    assert np.abs(system.mass_matrix(q0) - composite).max() <= 1e-12
    traj = sp.simulate(system, q0, v0, 1e-3, steps=100, integrator="rk4")
    single = sp.maximal.System()
    single.add_body(composite)
    ref = sp.simulate(single, T0[None], phi0[None], 1e-3, steps=100, integrator="rk4")
    assert np.abs(traj.q.reshape(-1, 4, 4) - ref.q[:, 0]).max() <= 1e-12
    assert np.abs(traj.v - ref.v[:, 0]).max() <= 1e-12
    drift, drift_ref = np.ptp(traj.energy), np.ptp(ref.energy)
    assert drift <= 2 * drift_ref + 1e-12
    # the attached frame and point are exactly where the master puts them
    poses, points = system.poses(traj.q), system.points(traj.q)
    assert np.abs(poses[:, 1] - poses[:, 0] @ X).max() <= 1e-12
    on_body = poses[:, 1, :3, 3] + poses[:, 1, :3, :3] @ c
    assert np.abs(points[:, 0] - on_body).max() <= 1e-12


def test_recovered_velocities_are_the_derivatives_of_the_attached_positions():
    rng = np.random.default_rng(22)
    system, a, _, _, _ = welded_system(rng)
    q, v = system.pack({a: sp.frame(random_rotation(rng), [0, 0, 0])}, {a: rng.normal(size=6)})
    h = 1e-6
    qp, qm = system.integrate(q, v, h), system.integrate(q, v, -h)
    velocities = system.velocities(q, v)
    x_dot = (system.points(qp)[0] - system.points(qm)[0]) / (2 * h)
    assert np.abs(x_dot - velocities[2]).max() <= 1e-7
    Tb = system.poses(q)[1]
    phi_b = sp.unbracket(frame_inverse(Tb) @ (system.poses(qp)[1] - system.poses(qm)[1]) / (2 * h))
    assert np.abs(phi_b - velocities[1]).max() <= 1e-7


def rope_between_bodies(n=6, gravity=(0.0, 0.0, -9.81)):
    system = at.AttachedSystem(gravity=gravity)
    I = sp.cuboid_inertia(2.0, 0.3, 0.3, 0.3)
    left, right = system.add_body(I), system.add_body(I)
    ends = [system.add_particle(0.0), system.add_particle(0.0)]
    system.attach_point(ends[0], left, [0.15, 0.0, 0.0])
    system.attach_point(ends[1], right, [-0.15, 0.0, 0.0])
    beads = [system.add_particle(0.05) for _ in range(n)]
    chain = [ends[0], *beads, ends[1]]
    for i, j in zip(chain[:-1], chain[1:], strict=True):
        system.add_spring(i, j, 200.0, 0.1)
    positions = {left: sp.frame(np.eye(3), [-0.5, 0, 0]), right: sp.frame(np.eye(3), [0.5, 0, 0])}
    for k, b in enumerate(beads):
        positions[b] = np.array([-0.35 + 0.7 * (k + 1) / (n + 1), 0.0, 0.0])
    velocities = {left: [0.0, 0.0, 2.0, 0.0, -0.5, 0.0], right: [1.0, 0.0, 0.0, 0.0, 0.5, 0.0]}
    return system, system.pack(positions, velocities), chain


def test_rope_between_moving_bodies_conserves_energy_and_stays_attached():
    system, (q0, v0), chain = rope_between_bodies()
    coarse = sp.simulate(system, q0, v0, 2e-3, steps=100, integrator="rk4")
    fine = sp.simulate(system, q0, v0, 1e-3, steps=200, integrator="rk4")
    drift_coarse, drift_fine = np.ptp(coarse.energy), np.ptp(fine.energy)
    assert drift_fine <= 1e-6 * abs(fine.energy[0]) + 1e-9
    assert drift_fine < drift_coarse / 8  # RK4's energy error shrinks with h (order 4: ÷16)
    poses, points = system.poses(fine.q), system.points(fine.q)
    ends = poses[:, :, :3, 3] + np.einsum(
        "tbij,bj->tbi", poses[:, :, :3, :3], [[0.15, 0, 0], [-0.15, 0, 0]]
    )
    assert np.abs(points[:, :2] - ends).max() <= 1e-12


def test_system_errors():
    system = at.AttachedSystem()
    body, p = system.add_body(np.eye(6)), system.add_particle(0.0)
    assert (body, p) == (1, 2) and system.names == ["body 1", "particle 2"]
    with pytest.raises(ValueError, match="massless particle 'particle 2' must be attached"):
        system.pack({body: np.eye(4), p: np.zeros(3)})
    with pytest.raises(ValueError, match="particle 1 .* is a body, not a particle"):
        system.attach_point(body, body, [0, 0, 0])
    with pytest.raises(ValueError, match=r"body 0 is the fixed world, not a body \(components 1"):
        system.attach_point(p, 0, [0, 0, 0])
    with pytest.raises(ValueError, match=r"body 3 is not a component \(1 … 2; 0 is the world\)"):
        system.attach_point(p, 3, [0, 0, 0])
    system.attach_point(p, body, [0.0, 0.0, 1.0])
    with pytest.raises(ValueError, match="particle 2 .* is already attached"):
        system.attach_point(p, body, [0.0, 0.0, 2.0])
    with pytest.raises(ValueError, match="component 2 is attached or does not exist"):
        system.pack({body: np.eye(4), p: np.zeros(3)})
    with pytest.raises(ValueError, match="component 0 is attached or does not exist"):
        system.pack({0: np.eye(4), body: np.eye(4)})
    with pytest.raises(ValueError, match="component 1 .* needs a position"):
        system.pack({})
    other = system.add_particle(1.0)
    with pytest.raises(ValueError, match="weights of a point attachment must sum to 1"):
        system.attach_weighted(other, [p], [0.5])


# ----------------------------------------------------------------------------- exercises


def test_ch18_checkers_pass_the_solutions_and_fail_wrong_answers():
    from spatial.exercises import ch18
    from spatial.vectors import skew

    def block(R, c):
        return R @ np.hstack([-skew(c), np.eye(3)])

    def mass(m1, m2, mk, w1):
        w = np.array([w1, 1 - w1])
        return np.kron(np.diag([m1, m2]) + mk * np.outer(w, w), np.eye(3))

    def force(m, c, phi):
        w, v = phi[:3], phi[3:]
        a = np.cross(w, v + np.cross(w, c))
        return -m * np.concatenate([np.cross(c, a), a])

    ch18.CHECKS["18.1"](block)
    ch18.CHECKS["18.2"](mass)
    ch18.CHECKS["18.3"](force)
    with pytest.raises(AssertionError, match="linear-first"):
        ch18.CHECKS["18.1"](lambda R, c: R @ np.hstack([np.eye(3), -skew(c)]))
    with pytest.raises(AssertionError, match="the notes' sign"):
        ch18.CHECKS["18.1"](lambda R, c: -block(R, c))
    with pytest.raises(AssertionError, match="eq. 0.36|v_p = R"):
        ch18.CHECKS["18.1"](lambda R, c: np.hstack([-skew(c), np.eye(3)]))
    with pytest.raises(AssertionError, match="coupled"):
        ch18.CHECKS["18.2"](
            lambda m1, m2, mk, w1: np.kron(
                np.diag([m1 + w1 * w1 * mk, m2 + (1 - w1) ** 2 * mk]), np.eye(3)
            )
        )
    with pytest.raises(AssertionError, match="ArtiSynth §0.18"):
        ch18.CHECKS["18.2"](lambda m1, m2, mk, w1: mass(m1, m2, mk, 0.5))
    with pytest.raises(AssertionError, match="wrong sign"):
        ch18.CHECKS["18.3"](lambda m, c, phi: -force(m, c, phi))
    with pytest.raises(AssertionError, match="eq. 0.23"):
        ch18.CHECKS["18.3"](lambda m, c, phi: force(m, 2 * c, phi))


def test_implicit_steppers_run_an_attached_system_through_linearized():
    from spatial.integrators import Linearized

    system, (q0, v0), _ = rope_between_bodies(n=2, gravity=(0.0, 0.0, 0.0))
    runs = {
        name: sp.simulate(Linearized(system), q0, v0, 2e-3, steps=20, integrator=name)
        for name in ("implicit-euler", "trapezoidal")
    }
    backward = runs["implicit-euler"].energy
    assert np.all(np.diff(backward) < 0)  # backward Euler dissipates, step by step
    assert np.ptp(runs["trapezoidal"].energy) < np.ptp(backward) / 50


def test_the_notes_linear_first_formulas_of_section_0_19_converted():
    """Eq. 0.36's G, the added inertia and the fictitious force as the notes print them."""
    from spatial.vectors import skew, swap_linear_angular

    rng = np.random.default_rng(23)
    m, c, R, phi = 0.8, rng.normal(size=3), random_rotation(rng), rng.normal(size=6)
    w, v = phi[:3], phi[3:]
    G_notes = np.hstack([-R, R @ skew(c)])  # v_p + G_notes (v, ω) = 0
    assert (
        np.abs(-swap_linear_angular(G_notes) - at.point_on_body(1, 0, c, R=R).blocks[0]).max()
        <= 1e-15
    )
    C = skew(c)
    added_notes = m * np.block([[np.eye(3), -C], [C, -C @ C]])
    assert np.abs(swap_linear_angular(added_notes) - at.added_inertia(m, c)).max() <= 1e-15
    # the notes' force goes with their acceleration a = v̇ + ω × v; ours with φ̇
    force_notes = np.concatenate(
        [-m * np.cross(w, np.cross(w, c)), m * np.cross(w, np.cross(c, np.cross(c, w)))]
    )
    ours = (
        swap_linear_angular(force_notes)
        - sp.point_mass_inertia(m, c) @ np.r_[np.zeros(3), np.cross(w, v)]
    )
    assert np.abs(ours - at.fictitious_force(m, c, phi)).max() <= 1e-12


def test_cable_over_via_points_on_bones_is_the_multi_point_spring():
    """Massless via points attached to two bodies: the same accelerations as MultiPointSpring."""
    from spatial.forces import LinearLaw, MultiPointSpring

    rng = np.random.default_rng(24)
    inertias = [sp.cuboid_inertia(1.0, 0.4, 0.1, 0.1), sp.cuboid_inertia(1.5, 0.1, 0.5, 0.1)]
    where = [
        (0, [0.2, 0.05, 0.0]),
        (0, [0.1, -0.05, 0.05]),
        (1, [0.0, 0.2, 0.05]),
        (1, [0.05, -0.2, 0.0]),
    ]
    system = at.AttachedSystem(gravity=(0.0, 0.0, -9.81))
    bodies = [system.add_body(I) for I in inertias]
    path = []
    for b, c in where:
        path.append(system.add_particle(0.0))
        system.attach_point(path[-1], bodies[b], c)
    system.add_cable(path, 40.0, 0.3, damping=0.7)
    T = sp.exp_se3(rng.normal(size=(2, 6)) * 0.5)
    phi = rng.normal(size=(2, 6))
    assert bodies == [1, 2]  # components are numbered from 1 (0 is the world)
    q, v = system.pack({1: T[0], 2: T[1]}, {1: phi[0], 2: phi[1]})
    reference = sp.maximal.System(gravity=(0.0, 0.0, -9.81))
    for I in inertias:
        reference.add_body(I)
    spring = MultiPointSpring(
        [b + 1 for b, _ in where], [c for _, c in where], LinearLaw(40.0, 0.3, 0.7)
    )
    expected = reference.accelerations(0.0, T, phi, forces=(spring,))
    assert np.abs(system.accelerations(0.0, q, v) - expected.reshape(-1)).max() <= 1e-10
    # the energies: the bodies' plus the cable's ½ k (L - L₀)²
    length = np.linalg.norm(np.diff(system.points(q), axis=0), axis=1).sum()
    kinetic, potential = system.energy(q, v)
    kinetic_ref, gravity_ref = reference.energy(T, phi)
    assert abs(kinetic - kinetic_ref) <= 1e-12 * kinetic_ref
    assert abs(potential - gravity_ref - 0.5 * 40.0 * (length - 0.3) ** 2) <= 1e-12


def test_cable_errors():
    system = at.AttachedSystem()
    p = system.add_particle(1.0)
    with pytest.raises(ValueError, match="two or more distinct consecutive points"):
        system.add_cable([p, p], 1.0, 0.0)
    with pytest.raises(ValueError, match="stiffness"):
        system.add_spring(p, system.add_particle(1.0), -1.0, 0.0)


def test_joint_step_with_attachments_is_the_composite_body_kkt_step():
    """A pendulum on a ball joint carrying a welded ball and a particle == maximal.kkt_step."""
    from spatial.joints import Revolute, Spherical

    Ia, Ib = sp.cylinder_inertia(1.0, 0.03, 1.0), sp.sphere_inertia(0.5, 0.1)
    X, top = sp.frame(np.eye(3), [0.0, 0.0, -0.5]), sp.frame(np.eye(3), [0.0, 0.0, 0.5])
    c, m = np.array([0.1, 0.0, 0.3]), 0.4
    system = at.AttachedSystem()
    a, b, p = system.add_body(Ia), system.add_body(Ib), system.add_particle(m)
    system.attach_frame(b, a, X)
    system.attach_point(p, a, c)
    system.add_joint(Spherical(), 0, a, child_frame=top)  # 0: the world
    composite = sp.composite_inertia(
        [Ia, Ib, sp.point_mass_inertia(m, c)], [np.eye(4), X, np.eye(4)]
    )
    single = sp.maximal.System()
    single.add_joint(Spherical(), 0, single.add_body(composite), child_frame=top)
    R = sp.exp_so3([0.5, 0.2, 0.0])
    T0 = sp.frame(R, -R @ top[:3, 3])  # the joint at the world origin
    w = np.array([0.3, -0.2, 1.0])
    phi0 = np.concatenate([w, -np.cross(w, top[:3, 3])])
    q0, v0 = system.pack({a: T0}, {a: phi0})
    run = sp.simulate(system, q0, v0, 1e-3, steps=200, baumgarte=10.0)
    ref = sp.simulate(single, T0[None], phi0[None], 1e-3, steps=200, baumgarte=10.0)
    assert np.abs(system.poses(run.q)[:, 0] - ref.q[:, 0]).max() <= 1e-12
    assert np.abs(run.v - ref.v[:, 0]).max() <= 1e-11
    assert np.abs(run.error).max() <= 1e-12 and run.joint_force.shape == (201, 3)
    with pytest.raises(ValueError, match="1 joint\\(s\\): .* integrator=None"):
        system.accelerations(0.0, q0, v0)
    with pytest.raises(ValueError, match="parent 3 .* is a particle, not a body"):
        system.add_joint(Revolute("x"), p, a)


def test_add_joint_numbers_the_world_0_and_refuses_none():
    """parent=0 is the world (the package's numbering), as in maximal.System; None is refused
    (it used to be the world here, and 0 silently meant the first component)."""
    from spatial.joints import Revolute

    I = sp.cylinder_inertia(1.0, 0.03, 1.0)
    top = sp.frame(np.eye(3), [0.0, 0.0, 0.5])
    system, reference = at.AttachedSystem(), sp.maximal.System()
    first = system.add_body(I)  # component 1: parent=0 must not mean this body
    second = system.add_body(I)
    assert (first, second) == (1, 2) and system.bodies == [1, 2] and system.particles == []
    system.add_joint(Revolute("x"), 0, second, child_frame=top)
    reference.add_body(I)
    reference.add_joint(Revolute("x"), 0, reference.add_body(I), child_frame=top)
    R = sp.exp_so3([0.4, 0.0, 0.0])
    T = [sp.frame(np.eye(3), [2.0, 0.0, 0.0]), sp.frame(R, -R @ top[:3, 3])]  # hinge at 0
    phi = [np.zeros(6), np.array([1.0, 0.0, 0.0, 0.0, -0.5, 0.0])]  # turning about the hinge
    q, v = system.pack({first: T[0], second: T[1]}, {first: phi[0], second: phi[1]})
    run = sp.simulate(system, q, v, 1e-3, steps=50)
    ref = sp.simulate(reference, np.array(T), np.array(phi), 1e-3, steps=50)
    assert np.abs(run.v - ref.v.reshape(51, -1)).max() <= 1e-12
    # the second body hangs from the world at the origin (not from the first body, at x = 2)
    assert np.abs(run.error[0]).max() <= 1e-15 and np.abs(run.error - ref.error).max() <= 1e-12
    # the first body, joined to nothing, falls freely
    assert np.allclose(run.v[-1, :6], [0, 0, 0, 0, 0, -9.81 * 0.05], rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match=r"parent None: the world is 0"):
        system.add_joint(Revolute("x"), None, first)
    with pytest.raises(ValueError, match=r"child 0 is the fixed world, not a body"):
        system.add_joint(Revolute("x"), first, 0)
    with pytest.raises(ValueError, match=r"parent True is not a component"):
        system.add_joint(Revolute("x"), True, first)


def test_nodes_on_a_body_agree_with_suedas_coupled_formulation():
    """Sueda §2.7 (J_am, spatial.reduced.deformable) and the null-space reduction: same motion."""
    from spatial.reduced import ParticleSystem, coupled_forward_dynamics

    rng = np.random.default_rng(25)
    I = sp.mcI(2.0, [0.05, 0.0, -0.1], np.diag([0.1, 0.2, 0.15]))
    model = sp.Model(gravity=[0.0, 0.0, -9.81])
    model.add_body(0, Free(), np.eye(6), I)
    r = [np.array([0.2, 0.1, 0.0]), np.array([-0.1, 0.0, 0.3])]
    masses = [0.3, 0.2, 0.4, 0.5]
    springs = [(0, 2), (2, 3), (3, 1)]
    particles = ParticleSystem(
        masses, [(1, r[0]), (1, r[1]), None, None], springs, [50.0, 30.0, 40.0], [0.2, 0.3, 0.25]
    )
    R, p = random_rotation(rng), rng.normal(size=3)
    q = np.concatenate([sp.rotations.quat_from_matrix(R), p])
    qd, x, xd = rng.normal(size=6), rng.normal(size=(2, 3)), rng.normal(size=(2, 3))
    qdd, xdd = coupled_forward_dynamics(model, particles, q, x, qd, xd)

    system = at.AttachedSystem(gravity=(0.0, 0.0, -9.81))
    body = system.add_body(I)
    nodes = [system.add_particle(mass) for mass in masses]
    system.attach_point(nodes[0], body, r[0])
    system.attach_point(nodes[1], body, r[1])
    for (i, j), k, L in zip(springs, [50.0, 30.0, 40.0], [0.2, 0.3, 0.25], strict=True):
        system.add_spring(nodes[i], nodes[j], k, L)
    state = system.pack(
        {body: sp.frame(R, p), nodes[2]: x[0], nodes[3]: x[1]},
        {body: qd, nodes[2]: xd[0], nodes[3]: xd[1]},
    )
    a = system.accelerations(0.0, *state)
    assert np.abs(a - np.concatenate([qdd, xdd.reshape(-1)])).max() <= 1e-10


def test_welded_bodies_move_as_the_composite_body_of_a_tree():
    """The tree route: one Free-joint body with the composite inertia, by the ABA (Table 7.1)."""
    rng = np.random.default_rng(26)
    system, a, composite, _, _ = welded_system(rng)
    tree = sp.Model(gravity=[0.0, 0.0, -9.81])
    tree.add_body(0, Free(), np.eye(6), composite)
    R, p = random_rotation(rng), np.array([0.1, -0.2, 0.3])
    phi = np.array([0.5, -1.0, 2.0, 0.3, 0.1, -0.4])
    q_tree = np.concatenate([sp.rotations.quat_from_matrix(R), p])
    q, v = system.pack({a: sp.frame(R, p)}, {a: phi})
    assert (
        np.abs(system.accelerations(0.0, q, v) - sp.aba(tree, q_tree, phi, np.zeros(6))).max()
        <= 1e-12
    )
    run = sp.simulate(system, q, v, 1e-3, steps=100, integrator="rk4")
    ref = sp.simulate(tree, q_tree, phi, 1e-3, steps=100, integrator="rk4")
    frames = system.poses(run.q)[:, 0]
    assert np.abs(frames[:, :3, 3] - ref.q[:, 4:]).max() <= 1e-10
    rotations = np.array([sp.rotations.quat_to_matrix(qq[:4]) for qq in ref.q])
    assert np.abs(frames[:, :3, :3] - rotations).max() <= 1e-10
    assert np.abs(run.v - ref.v).max() <= 1e-10


# ----------------------------------------------------------------------------- bad input


def test_sizes_orders_and_indices_are_integers_never_truncated():
    G = np.eye(3)
    with pytest.raises(ValueError, match=r"sizes\[0\] must be a positive integer, got 3.7"):
        at.Attachments([3.7, 3], [])  # int() made it 3
    with pytest.raises(ValueError, match=r"sizes\[0\] must be a positive integer, got the bool"):
        at.Attachments([True, 3], [])
    with pytest.raises(ValueError, match=r"sizes\[1\] must be a positive integer, got 0"):
        at.Attachments([3, 0], [])
    with pytest.raises(ValueError, match=r"order\[0\] must be an integer, got 0.5"):
        at.Attachments([3, 3], [at.attach(0, {1: G})], order=[0.5])
    with pytest.raises(ValueError, match="the attached component must be an integer, got 1.0"):
        at.attach(1.0, {0: G})
    with pytest.raises(ValueError, match="dim must be a positive integer, got 2.5"):
        at.weighted_point(0, [1], [1.0], dim=2.5)
    att = at.Attachments([3, 3], [at.attach(0, {1: G})])
    with pytest.raises(ValueError, match="got the bool True"):
        at.projector(att, True)
    system = at.AttachedSystem()
    body, particle = system.add_body(np.eye(6)), system.add_particle(1.0)
    assert body == 1  # so True would have passed for it
    with pytest.raises(ValueError, match="body True is not a component"):
        system.attach_point(particle, True, [0.0, 0.0, 0.0])


def test_constraint_rows_of_the_wrong_shape_are_not_reshaped():
    att = at.Attachments([3, 3], [at.attach(0, {1: np.eye(3)})])
    # a (3, 2) array has six entries: reshape(-1, 6) made it one row of the wrong numbers
    with pytest.raises(ValueError, match=r"C must be a finite \(m, 6\) matrix"):
        at.reduce(att, np.eye(6), np.zeros(6), C=np.ones((3, 2)), gamma=[0.0])
    one_row = at.reduce(att, np.eye(6), np.zeros(6), C=np.arange(6.0), gamma=[0.0])
    assert one_row.C.shape == (1, 3)


def test_complex_and_non_finite_arrays_are_refused_by_name():
    att = at.Attachments([3, 3], [at.attach(0, {1: np.eye(3)})])
    with pytest.raises(ValueError, match="^M must be real"):
        at.solve(att, np.eye(6) + 0j, np.zeros(6))
    with pytest.raises(ValueError, match="G for master 1 must be real"):
        at.attach(0, {1: np.eye(3) + 0j})
    with pytest.raises(ValueError, match="^x contains non-finite"):
        at.attachment_forces(att, np.eye(6), np.zeros(6), np.full(6, np.nan))
    with pytest.raises(ValueError, match="^v0 contains non-finite"):
        at.project_constraint(att, np.eye(6), [0, 0, 0, 1.0, 0, 0], 0.0, [np.nan, 0, 0])
    with pytest.raises(ValueError, match="R is not orthonormal"):
        at.point_bias([0.0, 0.0, 1.0], np.ones(6), R=np.ones((3, 3)))


def test_kkt_rows_hold_the_attached_velocities_and_give_the_reduced_solution():
    """kkt_rows: +1 on the attached component, -G on its masters, the offset on the right; the KKT
    solve with these rows equals the reduced solve (and its multipliers the attachment forces)."""
    rng = np.random.default_rng(3)
    att = at.Attachments(
        [3, 3, 3, 3],
        [
            at.weighted_point(2, [0, 3], [0.3, 0.7]).with_offset([0.1, -0.2, 0.3]),
            at.weighted_point(3, [1], [1.0]),
        ],
    )
    A, g = at.kkt_rows(att)
    assert A.shape == (6, 12) and g.shape == (6,)
    expected = np.zeros((6, 12))
    expected[:3, 6:9], expected[:3, 0:3], expected[:3, 9:12] = (
        np.eye(3),
        -0.3 * np.eye(3),
        -0.7 * np.eye(3),
    )
    expected[3:, 9:12], expected[3:, 3:6] = np.eye(3), -np.eye(3)
    assert np.array_equal(A, expected) and np.array_equal(g, [0.1, -0.2, 0.3, 0, 0, 0])
    B = rng.normal(size=(12, 12))
    M, f = B @ B.T + 12 * np.eye(12), rng.normal(size=12)
    x, mu = solve_kkt(M, A, f, g)
    sol = at.solve(att, M, f)
    assert np.abs(sol.x - x).max() < 1e-12
    assert np.abs(np.concatenate(sol.mu) - mu).max() < 1e-12
    empty = at.Attachments([3, 6], [])
    assert at.kkt_rows(empty)[0].shape == (0, 9) and at.kkt_rows(empty)[1].shape == (0,)
    with pytest.raises(TypeError, match="att must be an Attachments"):
        at.kkt_rows([3, 6])
