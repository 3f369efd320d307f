"""Lötstedt's QP in q̈ (Featherstone eq. 11.44) against the contact LCP (eqs. 11.41-11.42)."""

import numpy as np
import pytest

from spatial import contact as ct


def _problem(rng, n=5, nc=3):
    A = rng.normal(size=(n, n))
    H = A @ A.T + n * np.eye(n)
    return H, rng.normal(size=n), rng.normal(size=(n, nc)), rng.normal(size=nc)


def test_gauss_principle_gives_the_lcp_accelerations_and_forces():
    rng = np.random.default_rng(1144)
    active = 0
    for _ in range(20):
        H, force, T, tdot_qd = _problem(rng)
        lcp = ct.contact_acceleration(H, force, T, tdot_qd)
        qp = ct.gauss_acceleration(H, force, T, tdot_qd)
        assert lcp.converged and qp.converged
        np.testing.assert_allclose(qp.qdd, lcp.qdd, rtol=1e-9, atol=1e-10)
        np.testing.assert_allclose(qp.force, lcp.force, rtol=1e-9, atol=1e-10)
        # KKT by hand: H q̈ = τ - C + T λ, λ ≥ 0, ζ̇ = Tᵀq̈ + Ṫᵀq̇ ≥ 0, λ·ζ̇ = 0
        zeta_dd = T.T @ qp.qdd + tdot_qd
        np.testing.assert_allclose(H @ qp.qdd, force + T @ qp.force, rtol=1e-9, atol=1e-9)
        assert np.all(qp.force >= -1e-12) and np.all(zeta_dd >= -1e-10)
        assert abs(qp.force @ zeta_dd) < 1e-9
        active += int(np.any(qp.force > 1e-9))
    assert active > 5  # the comparison covered contacts that push


def test_gauss_minimizes_the_acceleration_energy_among_feasible_accelerations():
    """Gauss: no feasible q̈ is closer to the free acceleration in the H metric."""
    rng = np.random.default_rng(11441)
    H, force, T, tdot_qd = _problem(rng, n=4, nc=2)
    qdd = ct.gauss_acceleration(H, force, T, tdot_qd).qdd
    free = np.linalg.solve(H, force)

    def distance(x):
        return 0.5 * (x - free) @ H @ (x - free)

    for _ in range(2000):
        trial = qdd + rng.normal(scale=0.3, size=4)
        if np.all(T.T @ trial + tdot_qd >= 0):
            assert distance(trial) >= distance(qdd) - 1e-12
    # without contacts in the way the answer is the free acceleration
    far = ct.gauss_acceleration(H, force, T, tdot_qd=np.full(2, 1e6))
    np.testing.assert_allclose(far.qdd, free, rtol=1e-12)


def test_dependent_normals_keep_qdd_unique():
    """With duplicated normals λ is not unique but q̈ and T λ are (§11.5 property 2)."""
    rng = np.random.default_rng(11442)
    H, force, T, tdot_qd = _problem(rng, n=4, nc=2)
    T2 = np.hstack([T, T[:, :1]])
    td2 = np.append(tdot_qd, tdot_qd[0])
    qp = ct.gauss_acceleration(H, force, T2, td2)
    lcp = ct.contact_acceleration(H, force, T, tdot_qd)
    np.testing.assert_allclose(qp.qdd, lcp.qdd, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(T2 @ qp.force, T @ lcp.force, rtol=1e-9, atol=1e-10)


def test_bad_input_is_named():
    H, force, T, tdot_qd = _problem(np.random.default_rng(0))
    with pytest.raises(ValueError, match="method must be 'lemke' or 'principal_pivoting'"):
        ct.gauss_acceleration(H, force, T, tdot_qd, method="pgs")
    with pytest.raises(ValueError, match="force"):
        ct.gauss_acceleration(H, force[:2], T, tdot_qd)
