"""Tests of hybrid dynamics (Featherstone §9.1–9.2, Tables 9.1–9.3).

Oracles: the RNEA (every returned state satisfies ``τ = rnea(q, q̇, q̈)``), the ABA (all joints
force-driven), the CRBA (``H₁₁`` is a submatrix of ``H``), the two hybrid methods against each
other, a cart-pole with a prescribed cart motion solved by hand, and the parent arrays of a
small tree merged by hand (Figure 9.1).
"""

import numpy as np
import pytest

from spatial import builders
from spatial.dynamics import aba, bias_force, crba, hybrid_dynamics, hybrid_inertia, rnea
from spatial.dynamics.hybrid import hybrid_parent
from spatial.joints import Revolute
from spatial.model import Model
from spatial.vectors import xlt

TOL = 1e-10
METHODS = ("articulated", "crba")
MIXED = ("R", "P", "H", "C", "S", "SY", "FREE", "PL", "F", "RP", "~RP", "~H")


def rel_err(a, b) -> float:
    return float(np.abs(np.asarray(a) - b).max() / (1.0 + np.abs(b).max()))


def trees(rng):
    return [
        builders.random_tree(rng, 10, joints=("R",)),
        builders.random_tree(rng, 12, joints=MIXED),
        builders.random_tree(rng, 10, joints=MIXED, floating=True),
        builders.random_tree(rng, 8, joints=MIXED, branching=0.0),
    ]


def random_problem(model, rng, batch=(3,)):
    q = model.random_configuration(rng, batch)
    qd = rng.standard_normal(batch + (model.nv,))
    qdd = rng.standard_normal(batch + (model.nv,))
    tau = rng.standard_normal(batch + (model.nv,))
    f_ext = rng.standard_normal(batch + (model.NB + 1, 6))
    f_ext[..., 0, :] = 0.0
    return q, qd, qdd, tau, f_ext


def variable_mask(model, joint_mask):
    """Per velocity variable: True where the joint's acceleration is known."""
    mask = np.zeros(model.nv, bool)
    for i in range(1, model.NB + 1):
        mask[model.v_index[i]] = joint_mask[i - 1]
    return mask


@pytest.mark.parametrize("method", METHODS)
def test_all_force_driven_is_aba(rng, method):
    for model in trees(rng):
        q, qd, _, tau, f_ext = random_problem(model, rng)
        qdd, tau_out = hybrid_dynamics(
            model, q, qd, None, tau, np.zeros(model.NB, bool), f_ext, method=method
        )
        assert rel_err(qdd, aba(model, q, qd, tau, f_ext)) < TOL
        assert np.array_equal(tau_out, tau)


@pytest.mark.parametrize("method", METHODS)
def test_all_acceleration_driven_is_rnea(rng, method):
    for model in trees(rng):
        q, qd, qdd, _, f_ext = random_problem(model, rng)
        qdd_out, tau = hybrid_dynamics(
            model, q, qd, qdd, None, np.ones(model.NB, bool), f_ext, method=method
        )
        assert rel_err(tau, rnea(model, q, qd, qdd, f_ext)) < TOL
        assert np.array_equal(qdd_out, qdd)


@pytest.mark.parametrize("method", METHODS)
def test_mixed_satisfies_both_sets_of_equations(rng, method):
    for model in trees(rng):
        for _ in range(3):
            q, qd, qdd_known, tau_known, f_ext = random_problem(model, rng)
            joint_mask = rng.uniform(size=model.NB) < 0.5
            known = variable_mask(model, joint_mask)
            qdd, tau = hybrid_dynamics(
                model, q, qd, qdd_known, tau_known, joint_mask, f_ext, method=method
            )
            # the given halves are returned unchanged ...
            assert np.array_equal(qdd[..., known], qdd_known[..., known])
            assert np.array_equal(tau[..., ~known], tau_known[..., ~known])
            # ... and the full state satisfies the equation of motion
            assert rel_err(tau, rnea(model, q, qd, qdd, f_ext)) < TOL


def test_methods_agree(rng):
    for model in trees(rng):
        q, qd, qdd_known, tau_known, f_ext = random_problem(model, rng)
        joint_mask = rng.uniform(size=model.NB) < 0.5
        out = [
            hybrid_dynamics(model, q, qd, qdd_known, tau_known, joint_mask, f_ext, method=m)
            for m in METHODS
        ]
        assert rel_err(out[0][0], out[1][0]) < TOL
        assert rel_err(out[0][1], out[1][1]) < TOL


@pytest.mark.parametrize("method", METHODS)
def test_rotor_inertias_add_to_the_diagonal(rng, method):
    """Example 9.5 / eq. 9.28: the result satisfies (H + diag(I_rot)) q̈ + C = τ."""
    model = builders.random_tree(rng, 9, joints=("R", "P", "S", "C"))
    q, qd, qdd_known, tau_known, f_ext = random_problem(model, rng)
    rotor = rng.uniform(0.0, 2.0, model.nv)
    joint_mask = rng.uniform(size=model.NB) < 0.5
    qdd, tau = hybrid_dynamics(
        model, q, qd, qdd_known, tau_known, joint_mask, f_ext, method, rotor_inertia=rotor
    )
    lhs = ((crba(model, q) + np.diag(rotor)) @ qdd[..., None])[..., 0]
    assert rel_err(lhs + bias_force(model, q, qd, f_ext), tau) < TOL


def test_cart_pole_with_prescribed_cart_acceleration():
    """A shaken pole, derived by hand from the Lagrangian of the pole with the cart given.

    Pole: a rod of mass ``m``, length ``l``, centre ``a = l/2`` above the pivot at θ = 0
    and moment ``I_c`` about its centre; θ > 0 tilts it towards -x.  With the cart at ``x``:
    ``(I_c + m a²) θ̈ - m a cos θ ẍ - m g a sin θ = τ_θ`` and
    ``F = (M + m) ẍ - m a cos θ θ̈ + m a sin θ θ̇²``.
    """
    M, m, l, g = 1.3, 0.4, 0.9, 9.81
    model = builders.cart_pole(cart_mass=M, pole_mass=m, pole_length=l, g=g)
    a, r = l / 2, l / 20  # the builder's rod has radius l/20
    I_c = m * (3 * r**2 + l**2) / 12
    theta, theta_d, x_dd = 0.7, -1.1, 2.5
    for method in METHODS:
        qdd, tau = hybrid_dynamics(
            model,
            [0.3, theta],
            [0.2, theta_d],
            [x_dd, 0.0],
            [0.0, 0.0],
            [True, False],
            method=method,
        )
        theta_dd = (m * a * np.cos(theta) * x_dd + m * g * a * np.sin(theta)) / (I_c + m * a**2)
        F = (M + m) * x_dd - m * a * np.cos(theta) * theta_dd + m * a * np.sin(theta) * theta_d**2
        np.testing.assert_allclose(qdd, [x_dd, theta_dd], rtol=1e-12)
        np.testing.assert_allclose(tau, [F, 0.0], rtol=1e-12, atol=1e-12)


def test_batched_equals_looped(rng):
    model = builders.random_tree(rng, 8, joints=MIXED)
    q, qd, qdd_known, tau_known, f_ext = random_problem(model, rng, (2, 3))
    joint_mask = rng.uniform(size=model.NB) < 0.5
    for method in METHODS:
        qdd, tau = hybrid_dynamics(model, q, qd, qdd_known, tau_known, joint_mask, f_ext, method)
        for idx in np.ndindex(2, 3):
            qdd_i, tau_i = hybrid_dynamics(
                model,
                q[idx],
                qd[idx],
                qdd_known[idx],
                tau_known[idx],
                joint_mask,
                f_ext[idx],
                method,
            )
            assert rel_err(qdd[idx], qdd_i) < 1e-12 and rel_err(tau[idx], tau_i) < 1e-12


def test_broadcasting_one_state_many_forces(rng):
    model = builders.random_tree(rng, 6, joints=("R", "S"))
    q, qd, qdd_known, _, _ = random_problem(model, rng, ())
    tau_known = rng.standard_normal((4, model.nv))
    joint_mask = np.array([True, False] * 3)
    for method in METHODS:
        qdd, tau = hybrid_dynamics(model, q, qd, qdd_known, tau_known, joint_mask, method=method)
        assert qdd.shape == tau.shape == (4, model.nv)


# ----------------------------------------------------------------------------- Table 9.1, Fig. 9.1


def small_tree() -> Model:
    """λ = (0, 1, 2, 2, 1): a root, a body with two children, and a second branch."""
    model = Model()
    I = np.diag([0.1, 0.2, 0.3, 1.0, 1.0, 1.0])
    for parent in (0, 1, 2, 2, 1):
        model.add_body(parent, Revolute("z"), xlt([0.3, 0.1, 0.0]), I)
    return model


def test_hybrid_parent_by_hand():
    model = small_tree()
    # joints 1 and 2 acceleration-driven: bodies 3, 4, 5 hang from the merged base
    lam, fd_vars = hybrid_parent(model, np.array([True, True, False, False, False]))
    assert fd_vars.tolist() == [2, 3, 4] and lam.tolist() == [-1, -1, -1]
    # only joint 2 acceleration-driven: bodies 3 and 4 merge onto body 1
    lam, fd_vars = hybrid_parent(model, np.array([False, True, False, False, False]))
    assert fd_vars.tolist() == [0, 2, 3, 4] and lam.tolist() == [-1, 0, 0, 0]
    # all force-driven: the model's own expanded parent array
    lam, fd_vars = hybrid_parent(model, np.zeros(5, bool))
    assert lam.tolist() == model.expanded_parent().tolist()


def test_hybrid_inertia_is_the_submatrix_of_H(rng):
    for model in trees(rng):
        q = model.random_configuration(rng, (2,))
        joint_mask = rng.uniform(size=model.NB) < 0.5
        _, fd_vars = hybrid_parent(model, joint_mask)
        H11 = hybrid_inertia(model, q, joint_mask)
        H = crba(model, q)
        assert rel_err(H11, H[..., fd_vars[:, None], fd_vars]) < TOL


# ----------------------------------------------------------------------------- errors


def test_errors(rng):
    model = builders.random_tree(rng, 4, joints=("R",))
    q, qd, qdd, tau, _ = random_problem(model, rng, ())
    mask = np.array([True, False, True, False])
    with pytest.raises(ValueError, match="accel_known_mask must be a boolean array of shape"):
        hybrid_dynamics(model, q, qd, qdd, tau, mask[:3])
    with pytest.raises(ValueError, match="accel_known_mask must be a boolean"):
        hybrid_dynamics(model, q, qd, qdd, tau, [1, 0, 1, 0])
    with pytest.raises(ValueError, match="qdd_known is None"):
        hybrid_dynamics(model, q, qd, None, tau, mask)
    with pytest.raises(ValueError, match="tau_known is None"):
        hybrid_dynamics(model, q, qd, qdd, None, mask)
    with pytest.raises(ValueError, match="method must be one of"):
        hybrid_dynamics(model, q, qd, qdd, tau, mask, method="magic")
    with pytest.raises(ValueError, match="rotor_inertia must be one non-negative"):
        hybrid_dynamics(model, q, qd, qdd, tau, mask, rotor_inertia=-np.ones(model.nv))
    with pytest.raises(ValueError, match="rotor_inertia must have shape"):
        hybrid_dynamics(model, q, qd, qdd, tau, mask, rotor_inertia=np.ones(3))
    with pytest.raises(ValueError, match="qdd must have shape"):
        hybrid_dynamics(model, q, qd, qdd[:2], tau, mask)
    with pytest.raises(ValueError, match="accel_known_mask"):
        hybrid_parent(model, mask[:2])
    with pytest.raises(ValueError, match="accel_known_mask"):
        hybrid_inertia(model, q, mask[:2])
