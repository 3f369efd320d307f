"""Tests of joint springs with the linearly implicit REDMAX step and of hyper-reduced coordinates
(Sueda §2.5–2.6).

Oracles, all independent of :mod:`spatial.reduced.implicit`: the closed-form frequency
``sqrt(k / I)`` of a point mass on a spring joint; an explicit (symplectic) Euler step of
Featherstone's ``aba``; the linearly implicit step written out with ``crba`` and
``bias_force``; an accurate ``solve_ivp`` integration of ``aba`` plus the spring torque, with
its energy (``kinetic_energy``, ``potential_energy`` and ``½ dᵀ K d``); for hyper-reduced
coordinates, the KKT system of the full chain with the constraints ``q ∈ range(J_rR)`` built
with NumPy, ``body_velocities`` and finite differences of ``J_mR``.
"""

import numpy as np
import pytest
from scipy.integrate import solve_ivp
from scipy.linalg import null_space

from spatial import builders
from spatial.builders import double_pendulum, planar_chain, simple_pendulum
from spatial.dynamics import aba, bias_force, crba
from spatial.joints import Revolute
from spatial.kinematics import body_velocities, kinetic_energy, potential_energy
from spatial.model import Model
from spatial.reduced import (
    hyper_reduced_force,
    hyper_reduced_forward_dynamics,
    hyper_reduced_mass_matrix,
    redmax_step,
)
from spatial.reduced import hyper_reduced_jacobian as jacobian_mR
from spatial.reduced import hyper_reduced_jacobian_dot as jacobian_dot_mR

TOL = 1e-10  # relative tolerance for identities between formulations

# nq != nv (S, FREE, PL), q-dependent S (SY, RP), reversed joints
MIXED = ("R", "P", "H", "C", "S", "SY", "FREE", "PL", "F", "RP", "~RP", "~S")


def rel_err(a, b) -> float:
    return float(np.abs(np.asarray(a) - b).max() / (1.0 + np.abs(b).max()))


def spring_pendulum(k=18.0, length=1.5, mass=2.0):
    """A point mass on a spring joint, no gravity: ``I = m l²``, ``ω = sqrt(k / I)`` (= 2)."""
    return simple_pendulum(length=length, mass=mass, g=0.0), k, mass * length**2


def random_psd(rng, n, rank=None):
    A = rng.standard_normal((n, rank or n))
    return A @ A.T


# ----------------------------------------------------------------------------- the step


def test_spring_pendulum_oscillates_at_the_closed_form_frequency():
    model, k, inertia = spring_pendulum()
    omega = np.sqrt(k / inertia)
    h, q, qd = 2e-3, np.array([0.05]), np.array([0.0])
    t, qs = [0.0], [q[0]]
    while t[-1] < 4.2 * 2 * np.pi / omega:
        q, qd = redmax_step(model, q, qd, h, stiffness=[k])
        t.append(t[-1] + h)
        qs.append(q[0])
    t, qs = np.array(t), np.array(qs)
    down = np.nonzero((qs[:-1] > 0) & (qs[1:] <= 0))[0]  # downward zero crossings
    crossings = t[down] + h * qs[down] / (qs[down] - qs[down + 1])
    assert len(crossings) >= 4
    period = np.diff(crossings).mean()
    # implicit Euler turns by atan(hω) per step: relative frequency error (hω)²/3 ≈ 5e-6
    assert abs(2 * np.pi / period - omega) / omega < 1e-5


def test_implicit_step_is_stable_where_symplectic_euler_diverges():
    model, k, inertia = spring_pendulum()
    h = 1.5  # h ω = 3 > 2
    tau_K = lambda q: -k * q  # noqa: E731
    q, qd = np.array([0.1]), np.array([0.0])
    for _ in range(30):  # explicit reference: symplectic Euler of aba + spring torque
        qd = qd + h * aba(model, q, qd, tau_K(q))
        q = model.integrate(q, qd, h)
    assert abs(q[0]) > 1e3

    def energy(q, qd):
        return 0.5 * inertia * qd[0] ** 2 + 0.5 * k * q[0] ** 2

    q, qd = np.array([0.1]), np.array([0.0])
    energies = [energy(q, qd)]
    for _ in range(30):
        q, qd = redmax_step(model, q, qd, h, stiffness=[k])
        energies.append(energy(q, qd))
    assert np.all(np.diff(energies) <= 1e-15)  # backward Euler dissipates every step
    assert energies[-1] < 1e-3 * energies[0]


def test_without_springs_the_step_is_symplectic_euler_of_aba(rng):
    for model in (
        builders.random_tree(rng, 7, joints=MIXED),
        builders.random_tree(rng, 6, joints=MIXED, floating=True),
    ):
        batch = (3,)
        q = model.random_configuration(rng, batch)
        qd, tau = rng.standard_normal((2,) + batch + (model.nv,))
        f_ext = rng.standard_normal(batch + (model.NB + 1, 6))
        f_ext[..., 0, :] = 0.0
        h = 0.013
        q1, qd1 = redmax_step(model, q, qd, h, tau=tau, f_ext=f_ext)
        qd_ref = qd + h * aba(model, q, qd, tau, f_ext)
        assert rel_err(qd1, qd_ref) < TOL
        assert rel_err(q1, model.integrate(q, qd_ref, h)) < TOL
        # explicit zero gains are the same as none
        zero = np.zeros((model.nv, model.nv))
        q2, qd2 = redmax_step(model, q, qd, h, tau, zero, np.zeros(model.nv), None, f_ext)
        assert rel_err(qd2, qd1) < TOL and rel_err(q2, q1) < TOL


@pytest.mark.parametrize("diagonal", [True, False])
def test_step_with_springs_and_dampers_matches_the_equation_written_with_crba(rng, diagonal):
    model = builders.random_tree(rng, 6, joints=MIXED)
    nv, batch, h = model.nv, (2,), 0.02
    q, rest = model.random_configuration(rng, (2,) + batch)
    qd, tau = rng.standard_normal((2,) + batch + (nv,))
    if diagonal:
        k, d = rng.uniform(0, 5, nv), rng.uniform(0, 2, nv)
        K, D = np.diag(k), np.diag(d)
    else:
        K, D = random_psd(rng, nv, rank=nv - 2), random_psd(rng, nv)
        k, d = K, D
    q1, qd1 = redmax_step(model, q, qd, h, tau, k, d, rest)
    # (H + hD + h²K) q̇⁺ = H q̇ + h (τ - C - K (q ⊖ q_rest))
    H = crba(model, q)
    rhs = np.einsum("...ij,...j->...i", H, qd) + h * (
        tau - bias_force(model, q, qd) - model.difference(rest, q) @ K.T
    )
    qd_ref = np.linalg.solve(H + h * D + h * h * K, rhs[..., None])[..., 0]
    assert rel_err(qd1, qd_ref) < TOL
    assert rel_err(q1, model.integrate(q, qd_ref, h)) < TOL


def spring_system():
    """Double pendulum with gravity, joint springs about a rest pose away from hanging."""
    model = double_pendulum(lengths=(1.0, 0.7), masses=(1.0, 0.5))
    K = np.array([[30.0, 5.0], [5.0, 12.0]])
    rest = np.array([0.3, -0.5])
    return model, K, rest


def spring_energy(model, K, rest, q, qd):
    d = model.difference(rest, q)
    spring = 0.5 * np.einsum("...i,ij,...j->...", d, K, d)
    return kinetic_energy(model, q, qd) + potential_energy(model, q) + spring


def reference(model, K, rest, y0, t_final, t_eval=None, D=None):
    """Accurate solution of aba with τ = -K (q - rest) - D q̇ (all joints revolute: nq = nv)."""
    D = np.zeros_like(K) if D is None else D

    def rhs(t, y):
        q, qd = y[: model.nq], y[model.nq :]
        tau = -K @ (q - rest) - D @ qd
        return np.concatenate([qd, aba(model, q, qd, tau)])

    return solve_ivp(rhs, (0, t_final), y0, method="DOP853", rtol=1e-10, atol=1e-12, t_eval=t_eval)


def test_undamped_spring_system_conserves_energy_under_an_accurate_integrator():
    model, K, rest = spring_system()
    y0 = np.array([1.0, -0.2, 0.5, 1.5])
    sol = reference(model, K, rest, y0, 5.0, t_eval=np.linspace(0, 5, 101))
    assert sol.success
    E = spring_energy(model, K, rest, sol.y[:2].T, sol.y[2:].T)
    assert np.abs(E - E[0]).max() <= 1e-8 * abs(E[0])


def test_implicit_step_converges_to_the_accurate_solution_at_first_order():
    model, K, rest = spring_system()
    D = np.diag([0.4, 0.2])
    y0 = np.array([1.0, -0.2, 0.5, 1.5])
    exact = reference(model, K, rest, y0, 1.0, t_eval=[1.0], D=D).y[:, -1]
    errors = []
    for n in (200, 400, 800):
        q, qd = y0[:2], y0[2:]
        for _ in range(n):
            q, qd = redmax_step(model, q, qd, 1.0 / n, stiffness=K, damping=D, rest=rest)
        errors.append(np.abs(np.concatenate([q, qd]) - exact).max())
    assert errors[-1] < 0.1  # 0.089 at h = 1/800 (velocities ~3 rad/s)
    ratios = np.array(errors[:-1]) / np.array(errors[1:])
    assert np.all((ratios > 1.8) & (ratios < 2.2))  # first order: halving h halves the error


def test_damped_step_loses_energy_every_step():
    model, K, rest = spring_system()
    D = np.array([[1.0, 0.3], [0.3, 0.5]])
    q, qd = np.array([1.0, -0.2]), np.array([0.5, 1.5])
    E = [spring_energy(model, K, rest, q, qd)]
    for _ in range(500):
        q, qd = redmax_step(model, q, qd, 0.01, stiffness=K, damping=D, rest=rest)
        E.append(spring_energy(model, K, rest, q, qd))
    assert np.all(np.diff(E) <= 0.0)
    assert E[-1] < E[0] - 0.5 * (E[0] - min(E))


# ----------------------------------------------------------------------------- hyper-reduced


def test_one_dof_driving_a_chain_projects_crba_and_the_bias_force(rng):
    n = 4
    model, J_rR = planar_chain(n), np.ones((n, 1))
    y, yd = rng.standard_normal((2, 3, 1))
    q, qd = y @ J_rR.T, yd @ J_rR.T
    tau_r = rng.standard_normal((3, n))
    M_R = hyper_reduced_mass_matrix(model, J_rR, y)
    assert rel_err(M_R, J_rR.T @ crba(model, q) @ J_rR) < TOL
    f_R = hyper_reduced_force(model, J_rR, y, yd, tau=tau_r @ J_rR)
    assert rel_err(f_R, (tau_r - bias_force(model, q, qd)) @ J_rR) < TOL


def test_hyper_reduced_dynamics_equals_the_constrained_chain():
    rng = np.random.default_rng(7)
    n = 5
    model, J_rR = planar_chain(n), np.ones((n, 1))
    G = np.hstack([-np.ones((n - 1, 1)), np.eye(n - 1)])  # q_i - q_1 = 0, i = 2 … n
    for _ in range(4):
        y, yd = rng.standard_normal((2, 1))
        tau_r = rng.standard_normal(n)
        f_ext = rng.standard_normal((n + 1, 6))
        f_ext[0] = 0.0
        ydd = hyper_reduced_forward_dynamics(model, J_rR, y, yd, J_rR.T @ tau_r, f_ext)
        qdd = kkt_accelerations(model, G, y @ J_rR.T, yd @ J_rR.T, tau_r, f_ext)
        assert np.allclose(qdd, qdd[0], rtol=0, atol=1e-12)
        assert abs(ydd[0] - qdd[0]) <= 1e-10 * (1.0 + abs(qdd[0]))


def kkt_accelerations(model, G, q, qd, tau, f_ext=None):
    """Solve [[H, Gᵀ], [G, 0]] [q̈; λ] = [τ - C; 0] (constant G: G q̈ = 0)."""
    H, nc = crba(model, q), G.shape[0]
    A = np.block([[H, G.T], [G, np.zeros((nc, nc))]])
    b = np.concatenate([tau - bias_force(model, q, qd, f_ext), np.zeros(nc)])
    return np.linalg.solve(A, b)[: model.nv]


def test_general_constant_map_matches_the_kkt_solution(rng):
    model = builders.random_tree(rng, 6, joints=("R", "P", "H"))
    J_rR = rng.standard_normal((model.nv, 2))
    G = null_space(J_rR.T).T  # q ∈ range(J_rR)  ⇔  G q = 0
    y, yd = rng.standard_normal((2, 2))
    tau_r = rng.standard_normal(model.nv)
    ydd = hyper_reduced_forward_dynamics(model, J_rR, y, yd, J_rR.T @ tau_r)
    qdd = kkt_accelerations(model, G, J_rR @ y, J_rR @ yd, tau_r)
    assert rel_err(J_rR @ ydd, qdd) < TOL
    # batched: each row alone
    ys, yds = rng.standard_normal((2, 3, 2))
    batched = hyper_reduced_forward_dynamics(model, J_rR, ys, yds)
    for b in range(3):
        one = hyper_reduced_forward_dynamics(model, J_rR, ys[b], yds[b])
        assert rel_err(batched[b], one) < TOL


def test_hyper_reduced_jacobian_gives_body_twists_and_its_derivative(rng):
    model = builders.random_tree(rng, 5, joints=("R", "P", "H", "C"))
    J_rR = rng.standard_normal((model.nv, 3))
    y, yd = rng.standard_normal((2, 3))
    J_mR = jacobian_mR(model, J_rR, y)
    v = body_velocities(model, J_rR @ y, J_rR @ yd)[1:].reshape(-1)
    assert rel_err(J_mR @ yd, v) < TOL
    eps = 1e-6
    fd = (jacobian_mR(model, J_rR, y + eps * yd) - jacobian_mR(model, J_rR, y - eps * yd)) / (
        2 * eps
    )
    assert rel_err(jacobian_dot_mR(model, J_rR, y, yd), fd) < 1e-7


# ----------------------------------------------------------------------------- bad input


def test_step_rejects_bad_input():
    model = double_pendulum()
    q, qd = [0.1, 0.2], [0.0, 0.0]
    with pytest.raises(ValueError, match="h must be > 0"):
        redmax_step(model, q, qd, 0.0)
    with pytest.raises(ValueError, match="h must be a single number"):
        redmax_step(model, q, qd, [0.1, 0.2])
    with pytest.raises(ValueError, match=r"stiffness must be a vector of 2 gains .* \(2, 2\)"):
        redmax_step(model, q, qd, 0.1, stiffness=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="damping gains must be >= 0, got -1 at velocity var"):
        redmax_step(model, q, qd, 0.1, damping=[1.0, -1.0])
    with pytest.raises(ValueError, match="stiffness must be symmetric"):
        redmax_step(model, q, qd, 0.1, stiffness=[[1.0, 0.5], [0.0, 1.0]])
    with pytest.raises(ValueError, match="damping must be positive semidefinite, its smallest"):
        redmax_step(model, q, qd, 0.1, damping=[[1.0, 2.0], [2.0, 1.0]])
    with pytest.raises(ValueError, match="stiffness contains non-finite"):
        redmax_step(model, q, qd, 0.1, stiffness=[np.nan, 1.0])
    with pytest.raises(ValueError, match=r"rest must have shape \(\.\.\., 2\)"):
        redmax_step(model, q, qd, 0.1, rest=[0.0])
    with pytest.raises(ValueError, match="batch shapes do not broadcast"):
        redmax_step(model, np.zeros((3, 2)), qd, 0.1, rest=np.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"batch shapes do not broadcast: .* rest \(2,\)"):
        redmax_step(model, q, np.zeros((3, 2)), 0.1, rest=np.zeros((2, 2)))
    with pytest.raises(ValueError, match="qd must have shape"):
        redmax_step(model, q, [0.0], 0.1)
    free = builders.random_tree(np.random.default_rng(1), 2, joints=("S",))
    with pytest.raises(ValueError, match="rest of joint 1"):
        redmax_step(
            free,
            free.neutral_configuration(),
            np.zeros(free.nv),
            0.1,
            rest=[2, 0, 0, 0, 0, 0, 0, 1],
        )
    massless = Model(gravity=[0.0, 0.0, 0.0])
    massless.add_body(0, Revolute("z"), np.eye(6), np.zeros((6, 6)))
    with pytest.raises(ValueError, match="redmax_step: the mass matrix is singular"):
        redmax_step(massless, [0.0], [0.0], 0.1)


def test_hyper_reduced_rejects_bad_input():
    model, J = planar_chain(3), np.ones((3, 1))
    with pytest.raises(ValueError, match=r"J_rR must be a constant matrix of shape \(nv, nR\)"):
        hyper_reduced_forward_dynamics(model, np.ones(3), [0.0], [0.0])
    with pytest.raises(ValueError, match=r"\(3, nR\) with nR >= 1, got shape \(2, 1\)"):
        hyper_reduced_mass_matrix(model, np.ones((2, 1)), [0.0])
    with pytest.raises(ValueError, match="J_rR contains non-finite"):
        jacobian_mR(model, np.full((3, 1), np.inf), [0.0])
    with pytest.raises(ValueError, match=r"y must have shape \(\.\.\., 1\)"):
        jacobian_mR(model, J, [0.0, 1.0])
    with pytest.raises(ValueError, match=r"yd must have shape \(\.\.\., 1\)"):
        jacobian_dot_mR(model, J, [0.0], [0.0, 1.0])
    with pytest.raises(ValueError, match=r"tau must have shape \(\.\.\., 1\)"):
        hyper_reduced_force(model, J, [0.0], [0.0], tau=np.zeros(3))
    with pytest.raises(ValueError, match="hyper_reduced_forward_dynamics: the mass matrix is sing"):
        hyper_reduced_forward_dynamics(model, np.zeros((3, 1)), [0.0], [0.0])
    sphere = builders.random_tree(np.random.default_rng(1), 2, joints=("S", "R"))
    with pytest.raises(ValueError, match="hyper-reduced coordinates need q̇ as the velocity"):
        hyper_reduced_mass_matrix(sphere, np.ones((sphere.nv, 1)), [0.0])
