"""Recursive hybrid dynamics, the Delassus matrix and the dual problem (Sueda §2.12, Alg. 9).

Oracles: Featherstone's ``hybrid_dynamics`` (both methods), ``aba``, ``rnea``, ``crba`` solved
densely, and the primal KKT/QP of :mod:`spatial.reduced.constrained` (itself checked against
Featherstone's loop method), plus a block resting on the floor (contact force ``m g``).
"""

import numpy as np
import pytest

import spatial as sp
from spatial import builders
from spatial.dynamics import aba, crba, hybrid_dynamics, rnea
from spatial.dynamics import loops as L
from spatial.inertia import cuboid_inertia
from spatial.joints import Prismatic
from spatial.reduced import (
    JointConstraint,
    PointConstraint,
    PointContact,
    constrained_forward_dynamics,
    constraint_rows,
    delassus_matrix,
    dual_forward_dynamics,
    recursive_hybrid_dynamics,
)

MIXED = ("R", "P", "H", "C", "S", "SY", "FREE", "PL", "F", "RP", "~RP", "~H")
TOL = 1e-10


def rel_err(a, b) -> float:
    return float(np.abs(np.asarray(a) - b).max() / (1.0 + np.abs(b).max()))


def state(seed, n=8, batch=()):
    rng = np.random.default_rng(seed)
    model = builders.random_tree(rng, n, joints=MIXED)
    q = model.random_configuration(rng, batch)
    qd, qdd, tau = rng.standard_normal((3,) + batch + (model.nv,))
    f = rng.standard_normal(batch + (model.NB + 1, 6))
    f[..., 0, :] = 0.0
    return model, q, qd, qdd, tau, f, rng


@pytest.mark.parametrize("seed", range(3))
def test_rhd_equals_featherstone_hybrid_dynamics(seed):
    model, q, qd, qdd, tau, f, rng = state(seed)
    mask = rng.uniform(size=model.NB) < 0.5
    got = recursive_hybrid_dynamics(model, q, qd, qdd, tau, mask, f_ext=f)
    for method in ("crba", "articulated"):
        ref = hybrid_dynamics(model, q, qd, qdd, tau, mask, f_ext=f, method=method)
        assert rel_err(got[0], ref[0]) <= TOL and rel_err(got[1], ref[1]) <= TOL


def test_rhd_all_force_driven_is_aba_and_all_prescribed_is_rnea():
    model, q, qd, qdd, tau, f, _ = state(5, batch=(3,))
    none, every = np.zeros(model.NB, bool), np.ones(model.NB, bool)
    qdd_fd, tau_fd = recursive_hybrid_dynamics(model, q, qd, None, tau, none, f_ext=f)
    assert rel_err(qdd_fd, aba(model, q, qd, tau, f)) <= TOL and np.array_equal(tau_fd, tau)
    qdd_id, tau_id = recursive_hybrid_dynamics(model, q, qd, qdd, None, every, f_ext=f)
    assert rel_err(tau_id, rnea(model, q, qd, qdd, f)) <= TOL and np.array_equal(qdd_id, qdd)


def test_rhd_bad_input():
    model, q, qd, qdd, tau, _, _ = state(1, n=3)
    with pytest.raises(ValueError, match="boolean array of shape"):
        recursive_hybrid_dynamics(model, q, qd, qdd, tau, [1, 0, 1])
    with pytest.raises(ValueError, match="qdd_known is None"):
        recursive_hybrid_dynamics(model, q, qd, None, tau, np.array([True, False, False]))
    with pytest.raises(ValueError, match="tau_known is None"):
        recursive_hybrid_dynamics(model, q, qd, qdd, None, np.array([True, False, False]))


def test_delassus_matrix_equals_dense_product():
    model, q, *_, rng = state(2)
    A = rng.standard_normal((4, model.nv))
    ref = A @ np.linalg.solve(crba(model, q), A.T)
    assert rel_err(delassus_matrix(model, q, A), ref) <= TOL
    with pytest.raises(ValueError, match="A must"):
        delassus_matrix(model, q, np.zeros(model.nv))


def test_dual_equals_primal_on_the_four_bar():
    lengths = (0.3, 1.0, 0.8, 0.9)
    closure = L.four_bar_closure(*lengths)
    q, G, _ = closure.jacobians(np.array([0.8]), np.array([1.3]))
    qd = G @ np.array([1.3])
    model = builders.four_bar(*lengths).spanning_tree()  # REDMAX closes the loop with `pin`
    pin = [PointConstraint(2, (1.0, 0.0, 0.0), 3, (0.8, 0.0, 0.0), axis=(0.0, 0.0, 1.0))]
    tau = np.array([0.3, -0.2, 0.5])
    dual = dual_forward_dynamics(model, q, qd, tau, pin)
    primal = constrained_forward_dynamics(model, q, qd, tau, pin)
    assert rel_err(dual.qdd, primal.qdd) <= TOL and rel_err(dual.lam, primal.lam) <= TOL


def test_dual_equals_primal_qp_with_inequalities():
    model = builders.planar_chain(4)
    q, qd = np.array([np.pi / 2, 0.1, -0.2, 0.1]), np.array([0.0, 0.3, -0.2, 0.1])
    tie = [JointConstraint(np.array([[0.0, 0.0, 1.0, 1.0]]))]
    floor = [PointContact(i, (0.0, -1.0, 0.0), normal=(0.0, 1.0, 0.0), height=-5.0) for i in (2, 4)]
    tau = np.array([0.0, 1.0, -2.0, 0.5])
    dual = dual_forward_dynamics(model, q, qd, tau, tie, inequalities=floor)
    primal = constrained_forward_dynamics(model, q, qd, tau, tie, inequalities=floor)
    assert rel_err(dual.qdd, primal.qdd) <= 1e-9
    assert rel_err(dual.mu, primal.mu) <= 1e-9 and rel_err(dual.lam, primal.lam) <= 1e-9
    C = constraint_rows(model, q, qd, floor)
    assert np.all(C.G @ dual.qdd + C.Gdot_qd >= -1e-9)  # feasible


def test_active_contact_is_pushed_not_pulled():
    """One constraint: a 2 kg block resting on the floor (eq. 2.127's multiplier sign)."""
    model = sp.Model(gravity=[0.0, 0.0, -9.81])
    model.add_body(0, Prismatic("z"), np.eye(6), cuboid_inertia(2.0, 0.2, 0.2, 0.2))
    floor = [PointContact(1, (0.0, 0.0, 0.0))]
    sol = dual_forward_dynamics(model, [0.0], [0.0], [0.0], inequalities=floor)
    assert abs(sol.qdd[0]) <= 1e-12  # corrected: the block does not fall through
    assert sol.mu[0] == pytest.approx(2.0 * 9.81)  # a push (≥ 0) of exactly m g
    # pulled up hard enough, the contact lets go
    sol = dual_forward_dynamics(model, [0.0], [0.0], [30.0], inequalities=floor)
    assert sol.qdd[0] == pytest.approx(15.0 - 9.81) and sol.mu[0] == pytest.approx(0.0)
