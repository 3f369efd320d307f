"""Round-off and sensitivity (Featherstone §10.1–10.2) against the book's numbers."""

import numpy as np
import pytest

import spatial as sp
from spatial import accuracy, builders

BOOK_TAU_D = [126.4936, 97.4663, 69.9762, 43.7998, 21.9371, 6.1646]  # printed as "126.4936···"
BOOK_QDD_A = [0.6952, 1.3654, 1.3808, 0.5894, 0.9057, 1.0705]


def test_six_link_example_reproduces_tau_d_and_cond_h():
    ex = accuracy.sensitivity_example()
    # the book truncates to four decimals ("126.4936···")
    truncated = np.trunc(ex["tau_d"] * 1e4) / 1e4
    np.testing.assert_array_equal(truncated, BOOK_TAU_D)
    assert round(ex["cond"], 1) == 725.4
    np.testing.assert_array_equal(ex["tau_a"], [126, 97.5, 70.0, 43.8, 21.9, 6.16])
    # "more than a factor of 80": 38 % error in q̈ from forces rounded by at most 0.36 %
    assert ex["amplification"] > 80


def test_book_qdd_a_has_two_digits_swapped_in_its_first_entry():
    qdd_a = np.round(accuracy.sensitivity_example()["qdd_a"], 4)
    np.testing.assert_array_equal(qdd_a[1:], BOOK_QDD_A[1:])
    assert qdd_a[0] == 0.6592 and BOOK_QDD_A[0] == 0.6952  # 0.6592 printed as 0.6952


def test_tau_d_by_an_independent_route():
    """τ_d = H·1 is the inverse dynamics at rest with q̈ = 1: the RNEA gives it directly."""
    model, q = accuracy.zigzag_chain()
    np.testing.assert_allclose(
        sp.rnea(model, q, np.zeros(6), np.ones(6)), accuracy.sensitivity_example()["tau_d"]
    )


def test_condition_number_grows_like_4_n_to_the_fourth():
    """Featherstone (2004): the worst case for a chain of identical links is about 4 N⁴."""
    for n in (6, 10, 20):
        model, _ = accuracy.zigzag_chain(n)
        cond = np.linalg.cond(sp.crba(model, np.zeros(n)))  # straight: the worst case
        assert 0.95 < cond / (4 * n**4) < 1.15
        zig = np.linalg.cond(sp.crba(model, accuracy.zigzag_chain(n)[1]))
        assert zig < cond


def test_far_origin_error_is_flat_then_grows_like_c_squared():
    directions = [np.array([np.cos(p), np.sin(p)]) for p in np.linspace(0.1, 1.5, 8)]

    def error(r):
        return np.median([accuracy.far_origin_error(r * d) for d in directions])

    assert max(error(r) for r in (0.01, 0.1, 0.5)) < 1e-15
    radii = np.logspace(1.5, 4, 6)
    slope = np.polyfit(np.log10(radii), np.log10([error(r) for r in radii]), 1)[0]
    assert 1.6 < slope < 2.4
    # the book's example c = (100, 10): "about one part in 10¹²"
    assert 1e-13 < accuracy.far_origin_error([100.0, 10.0]) < 1e-11
    # and its coefficient matrix has condition number 1.02e8
    I_O = np.array([[10101.0, -10, 100], [-10, 1, 0], [100, 0, 1]])
    assert round(np.linalg.cond(I_O) / 1e8, 2) == 1.02


def test_backward_errors_of_aba_and_the_inertia_matrix_method_are_at_round_off():
    rng = np.random.default_rng(10)
    model = builders.gu_chain(30, rng)
    q = model.random_configuration(rng)
    qd, tau = rng.normal(size=(2, model.nv))
    for qdd in (sp.aba(model, q, qd, tau), sp.forward_dynamics(model, q, qd, tau)):
        assert accuracy.backward_error(model, q, qd, tau, qdd) < 1e-14
    # a wrong answer has a large backward error
    wrong = sp.aba(model, q, qd, tau) * (1 + 1e-6)
    assert accuracy.backward_error(model, q, qd, tau, wrong) > 1e-9


def test_componentwise_backward_error_stays_at_round_off_where_the_normwise_one_falls():
    """On a long chain ‖H‖‖q̈‖ is set by the joints near the base, so the normwise η of the ABA
    falls far below the unit round-off; each joint's own scale does not let that happen."""
    rng = np.random.default_rng(12)
    model = builders.gu_chain(128, np.random.default_rng(128))
    q = model.random_configuration(rng)
    qd, tau = rng.normal(size=(2, model.nv))
    eps = np.finfo(float).eps
    qdd = sp.aba(model, q, qd, tau)
    assert accuracy.backward_error(model, q, qd, tau, qdd) < eps / 10
    assert eps / 10 < accuracy.componentwise_backward_error(model, q, qd, tau, qdd) < 1e-14
    qdd_crba = sp.forward_dynamics(model, q, qd, tau)
    assert accuracy.componentwise_backward_error(model, q, qd, tau, qdd_crba) < 1e-14
    # a wrong answer has a large componentwise backward error too
    wrong = qdd * (1 + 1e-6)
    assert accuracy.componentwise_backward_error(model, q, qd, tau, wrong) > 1e-9


def test_round_significant():
    np.testing.assert_array_equal(
        accuracy.round_significant([126.4936, 0.0, -0.012345, 6.1646]), [126, 0, -0.0123, 6.16]
    )


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="c must have shape"):
        accuracy.far_origin_error([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="n must be a positive integer"):
        accuracy.zigzag_chain(0)
    with pytest.raises(ValueError, match="angle_deg must be a single finite number"):
        accuracy.zigzag_chain(3, float("nan"))
    with pytest.raises(ValueError, match="digits must be a positive integer"):
        accuracy.round_significant([1.0], 0)
    with pytest.raises(ValueError, match="x must be finite"):
        accuracy.round_significant([np.inf])
    model, q = accuracy.zigzag_chain(3)
    with pytest.raises(ValueError, match="tau"):
        accuracy.backward_error(model, q, np.zeros(3), np.zeros(2), np.zeros(3))
    with pytest.raises(ValueError, match="tau"):
        accuracy.componentwise_backward_error(model, q, np.zeros(3), np.zeros(2), np.zeros(3))


def test_ch10_checkers_pass_right_answers_and_fail_wrong_ones():
    from spatial.exercises import ch10

    def counts(lam):
        depth = []
        for p in lam:
            depth.append(1 if p == -1 else depth[p] + 1)
        return sum(p != -1 for p in lam), sum(d - 1 for d in depth)

    def rotate(c, s, cs, s2, two_cs, om2s2, A):
        A11, A21, A22, A31, A32, A33 = A
        D = A22 - A11
        alpha, beta = two_cs * A21 + s2 * D, cs * D + om2s2 * A21
        return [A11 + alpha, beta, A22 - alpha, c * A31 + s * A32, c * A32 - s * A31, A33]

    def rotate_dense(c, s, cs, s2, two_cs, om2s2, A):  # right value, 27m + 18a or so
        E = np.array([[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]], dtype=object)
        A11, A21, A22, A31, A32, A33 = A
        M = np.array([[A11, A21, A31], [A21, A22, A32], [A31, A32, A33]], dtype=object)
        B = E @ M @ E.T
        return [B[0, 0], B[1, 0], B[1, 1], B[2, 0], B[2, 1], B[2, 2]]

    def H_of(q2, m, l, I_c):
        lc = l / 2
        h22 = I_c + m * lc**2
        h12 = h22 + m * l * lc * np.cos(q2)
        return np.array([[2 * h22 + m * l**2 + 2 * m * l * lc * np.cos(q2), h12], [h12, h22]])

    ch10.CHECKS["10.1"](counts)
    ch10.CHECKS["10.2"](rotate)
    ch10.CHECKS["10.3"](H_of)
    with pytest.raises(AssertionError, match="eq. 10.5"):
        ch10.CHECKS["10.1"](lambda lam: (counts(lam)[0], len(lam)))
    with pytest.raises(AssertionError, match="App. A.5 does it in 8m \\+ 7a"):
        ch10.CHECKS["10.2"](rotate_dense)
    with pytest.raises(AssertionError, match="App. A.5"):
        ch10.CHECKS["10.2"](lambda *a: rotate(*a)[::-1])
    with pytest.raises(AssertionError, match="Lagrange"):
        ch10.CHECKS["10.3"](lambda q2, m, l, I_c: H_of(q2, m, l, 0.0))


def test_base_coordinates_rnea_equals_rnea_on_mixed_trees():
    rng = np.random.default_rng(51)
    for _ in range(3):
        model = builders.random_tree(rng, 6, joints=("R", "P", "S", "H", "C", "FREE"))
        q = model.random_configuration(rng)
        qd, qdd = rng.normal(size=(2, model.nv))
        expected = sp.rnea(model, q, qd, qdd)
        got = accuracy.rnea_base_coordinates(model, q, qd, qdd)
        np.testing.assert_allclose(got, expected, rtol=1e-11, atol=1e-11)


def test_far_base_origin_costs_digits_in_base_coordinates_only():
    """§10.1 inside an algorithm: the error of base coordinates grows like d², body ones do not."""
    rng = np.random.default_rng(52)
    model = builders.gu_chain(7, rng)
    q = model.random_configuration(rng)
    qd, qdd = rng.normal(size=(2, model.nv))
    reference = sp.rnea(model, q, qd, qdd)
    direction = np.array([1.0, 0.3, -0.2])
    distances = np.logspace(2, 5, 4)
    base_err, body_err = [], []
    for d in distances:
        moved = accuracy.move_base_origin(model, d * direction)
        base = accuracy.rnea_base_coordinates(moved, q, qd, qdd)
        base_err.append(np.max(np.abs(base - reference)) / np.max(np.abs(reference)))
        body = sp.rnea(moved, q, qd, qdd)
        body_err.append(np.max(np.abs(body - reference)) / np.max(np.abs(reference)))
    slope = np.polyfit(np.log10(distances), np.log10(base_err), 1)[0]
    assert 1.5 < slope < 2.5 and base_err[-1] > 1e-9
    assert max(body_err) < 1e-14


def test_base_coordinates_bad_input_is_named():
    model, q = accuracy.zigzag_chain(2)
    with pytest.raises(ValueError, match="takes one state"):
        accuracy.rnea_base_coordinates(model, np.stack([q, q]), np.zeros((2, 2)), np.zeros((2, 2)))
    with pytest.raises(ValueError, match="d must have shape"):
        accuracy.move_base_origin(model, np.zeros((2, 3)))


def test_wrong_types_and_batches_are_refused():
    with pytest.raises(ValueError, match="angle_deg must be a single finite number, got '75'"):
        accuracy.zigzag_chain(3, "75")  # math.isfinite raised a TypeError naming nothing
    with pytest.raises(ValueError, match="angle_deg must be real"):
        accuracy.zigzag_chain(3, 75.0 + 1j)
    with pytest.raises(ValueError, match="n must be a positive integer, got 3.0"):
        accuracy.zigzag_chain(3.0)
    with pytest.raises(ValueError, match="^x must be real"):
        accuracy.round_significant(np.ones(2) + 1j)
    model = builders.double_pendulum()
    z = np.zeros((3, 2))
    with pytest.raises(ValueError, match=r"q must be one state \(1-D\), got shape \(3, 2\)"):
        accuracy.backward_error(model, z, z, z, z)  # was NumPy's "Improper number of dimensions"
