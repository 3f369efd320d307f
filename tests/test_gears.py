"""Tests of gears and rotor inertias (Featherstone §9.6, Figure 9.2, eqs. 9.26–9.28, Ex. 9.5).

Oracles: the structure of ``Gᵀ H G`` for the geared arm worked out by hand (eq. 9.27, with the
rotor blocks ``H₂₂ = H₄₄ = H₁₄ = J`` derived below), the exact rotor model against the
reflected-inertia approximation (their difference derived by hand), the dense solve of
``(H + diag(I_rot)) q̈ = τ - C``, and forward/inverse consistency.
"""

import numpy as np
import pytest

from spatial import builders
from spatial.dynamics import (
    aba_with_rotors,
    bias_force,
    crba,
    crba_with_rotors,
    gear_matrix,
    geared_forward_dynamics,
    geared_inverse_dynamics,
    reflected_inertia,
)

TOL = 1e-10
J_ROTOR = 3e-5
RHO = (60.0, 40.0)


def rel_err(a, b) -> float:
    return float(np.abs(np.asarray(a) - b).max() / (1.0 + np.abs(b).max()))


def arm_gears():
    return gear_matrix(4, {1: (0, RHO[0]), 3: (2, RHO[1])})


def test_gear_matrix_of_figure_9_2():
    G = arm_gears()
    expected = np.array([[1.0, 0.0], [RHO[0], 0.0], [0.0, 1.0], [0.0, RHO[1]]])
    assert np.array_equal(G, expected)
    # a gear on the last variable driven by the first, and an ungeared middle variable
    assert np.array_equal(gear_matrix(3, {2: (0, -2.0)}), [[1, 0], [0, 1], [-2, 0]])


def test_geared_inertia_has_the_structure_of_eq_9_27(rng):
    """Gᵀ H G = [[H11 + ρ₁² H22, H13 + ρ₂ H14], [·, H33 + ρ₂² H44]], rotor blocks = J.

    By hand: each rotor is a disc spinning about its own axis (z, like every joint), centred
    on it, so ``H22 = H44 = J`` (its axial moment).  Rotor 2 rides on the upper arm; joint 1
    turns it about the parallel shoulder axis, and the moment about the rotor axis of that
    motion's momentum is again ``J``: ``H14 = J``.  Joints in different branches do not
    couple: ``H12 = H23 = H24 = H34 = 0``.
    """
    model = builders.geared_arm(rotor_inertia=J_ROTOR)
    G = arm_gears()
    for y in rng.uniform(-np.pi, np.pi, (3, 2)):
        H = crba(model, G @ y)
        for i, j in ((0, 1), (1, 2), (1, 3), (2, 3)):
            assert H[i, j] == 0.0 and H[j, i] == 0.0
        np.testing.assert_allclose([H[1, 1], H[3, 3], H[0, 3]], J_ROTOR, rtol=1e-12)
        (r1, r2), Hy = RHO, G.T @ H @ G
        expected = [
            [H[0, 0] + r1**2 * H[1, 1], H[0, 2] + r2 * H[0, 3]],
            [H[0, 2] + r2 * H[0, 3], H[2, 2] + r2**2 * H[3, 3]],
        ]
        np.testing.assert_allclose(Hy, expected, rtol=1e-13)


def test_exact_rotors_versus_reflected_inertia(rng):
    """The approximation misses exactly the coupling ρ₂ J between shoulder and elbow.

    With the rotors welded, the 2-body arm's H has the exact H11, H13, H33 (rotor 2's mass and
    spin inertia move with the upper arm either way); adding ρ² J to the diagonal restores the
    diagonal of Gᵀ H G.  The bias forces agree: the difference of the two inertia matrices is
    constant, so it adds no Coriolis terms, and the rotors' centres of mass lie on their axes.
    """
    exact, approx = builders.geared_arm(J_ROTOR), builders.geared_arm(J_ROTOR, rotors=False)
    G = arm_gears()
    I_rot = reflected_inertia(J_ROTOR, np.array(RHO))
    y, yd = rng.uniform(-2, 2, (4, 2)), rng.standard_normal((4, 2))
    Hy = G.T @ crba(exact, y @ G.T) @ G
    H_approx = crba_with_rotors(approx, y, I_rot)
    coupling = RHO[1] * J_ROTOR * np.array([[0.0, 1.0], [1.0, 0.0]])
    assert rel_err(Hy - H_approx, np.broadcast_to(coupling, Hy.shape)) < 1e-13
    C_exact = bias_force(exact, y @ G.T, yd @ G.T) @ G
    assert rel_err(C_exact, bias_force(approx, y, yd)) < 1e-13


def test_reflected_inertia():
    np.testing.assert_allclose(reflected_inertia(2e-5, [10.0, 100.0]), [2e-3, 0.2], rtol=1e-15)
    with pytest.raises(ValueError, match="rotor_inertia must be ≥ 0"):
        reflected_inertia(-1.0, 10.0)


def test_crba_and_aba_with_rotors(rng):
    """Eq. 9.28 in the ABA equals the dense solve with H + diag(I_rot)."""
    model = builders.random_tree(rng, 8, joints=("R", "P", "S", "C"))
    rotor = np.where(rng.uniform(size=model.nv) < 0.5, rng.uniform(0.1, 3.0, model.nv), 0.0)
    q = model.random_configuration(rng, (3,))
    qd, tau = rng.standard_normal((2, 3, model.nv))
    H = crba_with_rotors(model, q, rotor)
    assert rel_err(H, crba(model, q) + np.diag(rotor)) < 1e-15
    qdd = aba_with_rotors(model, q, qd, tau, rotor)
    expected = np.linalg.solve(H, (tau - bias_force(model, q, qd))[..., None])[..., 0]
    assert rel_err(qdd, expected) < TOL
    for k in range(3):  # batched == looped
        assert rel_err(qdd[k], aba_with_rotors(model, q[k], qd[k], tau[k], rotor)) < 1e-13


def test_geared_forward_and_inverse_dynamics(rng):
    model, G = builders.geared_arm(J_ROTOR), arm_gears()
    y, yd = rng.uniform(-2, 2, (3, 2)), rng.standard_normal((3, 2))
    tau = np.zeros((3, 4))
    tau[:, [1, 3]] = rng.standard_normal((3, 2))  # motor torques at the rotor joints
    ydd = geared_forward_dynamics(model, G, y, yd, tau)
    # the generalized force on y is Gᵀτ = ρ times the motor torque
    np.testing.assert_allclose(
        geared_inverse_dynamics(model, G, y, yd, ydd), tau[:, [1, 3]] * RHO, rtol=1e-9
    )
    # and the geared motion satisfies Gᵀ(H q̈ + C - τ) = 0 on the ungeared tree
    q, qd, qdd = y @ G.T, yd @ G.T, ydd @ G.T
    residual = (crba(model, q) @ qdd[..., None])[..., 0] + bias_force(model, q, qd) - tau
    assert np.abs(residual @ G).max() < 1e-9


def test_a_gear_ratio_of_one_is_a_rigid_pair(rng):
    """ρ = 1 and equal axes: the rotor turns with the arm (H's columns simply add)."""
    model = builders.geared_arm(J_ROTOR)
    G = gear_matrix(4, {1: (0, 1.0), 3: (2, 1.0)})
    y = rng.uniform(-2, 2, 2)
    H = crba(model, G @ y)
    Hy = G.T @ H @ G
    assert Hy[0, 0] == pytest.approx(H[0, 0] + H[1, 1], rel=1e-14)


def test_errors(rng):
    with pytest.raises(ValueError, match="itself driven by a gear"):
        gear_matrix(3, {1: (0, 2.0), 2: (1, 3.0)})
    with pytest.raises(ValueError, match="indices must be in"):
        gear_matrix(3, {5: (0, 2.0)})
    with pytest.raises(ValueError, match="must be a pair"):
        gear_matrix(3, {1: 2.0})
    with pytest.raises(ValueError, match="n must be a positive int"):
        gear_matrix(0, {})
    with pytest.raises(ValueError, match="gears must be a mapping"):
        gear_matrix(3, [(1, 0, 2.0)])
    with pytest.raises(ValueError, match="ratio of gear 1"):
        gear_matrix(3, {1: (0, np.nan)})
    floating = builders.humanoid(floating=True)
    with pytest.raises(ValueError, match="nq == nv"):
        geared_forward_dynamics(floating, np.eye(floating.nv), np.zeros(21), np.zeros(21), 0)
    model = builders.geared_arm()
    with pytest.raises(ValueError, match="G must have shape"):
        geared_inverse_dynamics(model, np.eye(3), np.zeros(3), np.zeros(3), np.zeros(3))
    with pytest.raises(ValueError, match="y must have shape"):
        geared_forward_dynamics(model, arm_gears(), np.zeros(3), np.zeros(2), np.zeros(4))
    with pytest.raises(ValueError, match="rotor_inertia must be a non-negative"):
        crba_with_rotors(model, np.zeros(4), -np.ones(4))
    with pytest.raises(ValueError, match="rotor_inertia must"):
        aba_with_rotors(model, np.zeros(4), np.zeros(4), np.zeros(4), np.ones(2))
    with pytest.raises(ValueError, match="gear_distance"):
        builders.geared_arm(gear_distance=1.0)
