"""Tests of spatial.contact.friction: box, polyhedral, pyramid-QP and Gauss–Seidel friction."""

import numpy as np
import pytest

from spatial.contact import (
    box_friction,
    delassus,
    friction_cone_violation,
    friction_E,
    gauss_seidel_friction,
    lemke,
    polyhedral_directions,
    polyhedral_friction,
    pyramid_friction,
)

MASS, APPROACH, MU = 2.0, 1.0, 0.5  # point mass, normal speed into the ground, friction coeff.
THETA = MASS * APPROACH  # normal impulse that stops the approach (frictionless, by hand)
SLIP_LIMIT = MU * THETA / MASS  # largest tangential speed friction can stop: μ a = 0.5

MODELS = {
    "box": lambda W, u, mu, **kw: box_friction(W, u, mu, **kw),
    "box-pgs": lambda W, u, mu, **kw: box_friction(W, u, mu, method="pgs", tol=1e-12, **kw),
    "polyhedral-4": lambda W, u, mu, **kw: polyhedral_friction(W, u, mu, k=4, **kw),
    "polyhedral-8": lambda W, u, mu, **kw: polyhedral_friction(W, u, mu, k=8, **kw),
    "gs-box": lambda W, u, mu, **kw: gauss_seidel_friction(W, u, mu, **kw),
    "gs-disk": lambda W, u, mu, **kw: gauss_seidel_friction(W, u, mu, cone="disk", **kw),
}


def point_mass(slip, direction=0.0):
    """A point mass hitting the ground while sliding: W = I/m, u = (-a, slip along direction)."""
    W = np.eye(3) / MASS
    u = np.array([-APPROACH, slip * np.cos(direction), slip * np.sin(direction)])
    return W, u


def random_contacts(rng, nc, nx=None):
    """A random multi-contact problem: W = J M⁻¹ Jᵀ, contacts approaching and sliding."""
    nx = nx or 3 * nc + 3
    A = rng.normal(size=(nx, nx))
    M = A @ A.T + np.eye(nx)
    J = rng.normal(size=(3 * nc, nx))
    u = np.concatenate([-rng.uniform(0.2, 1.0, nc), rng.normal(size=2 * nc)])
    return delassus(M, J), u


# ---------------------------------------------------------------------------- one contact by hand


@pytest.mark.parametrize("name", sorted(MODELS))
@pytest.mark.parametrize("slip", [0.0, 0.3, 0.5 - 1e-9])
def test_sticking_point_mass(name, slip):
    # friction can stop the slip (|u_t| <= μ a): no slip, λ_t = -m u_t, λ_n = m a
    res = MODELS[name](*point_mass(slip), MU).check()
    np.testing.assert_allclose(res.normal, [THETA], atol=1e-9)
    np.testing.assert_allclose(res.tangent, [[-MASS * slip, 0.0]], atol=1e-9)
    np.testing.assert_allclose(res.normal_velocity, [0.0], atol=1e-9)
    np.testing.assert_allclose(res.tangent_velocity, [[0.0, 0.0]], atol=1e-9)


@pytest.mark.parametrize("name", sorted(MODELS))
@pytest.mark.parametrize("slip", [0.8, 3.0])
def test_sliding_point_mass(name, slip):
    # too fast to stop: the full μ λ_n opposes the slip, which drops by μ a
    res = MODELS[name](*point_mass(slip), MU).check()
    np.testing.assert_allclose(res.normal, [THETA], atol=1e-9)
    np.testing.assert_allclose(res.tangent, [[-MU * THETA, 0.0]], atol=1e-9)
    np.testing.assert_allclose(res.normal_velocity, [0.0], atol=1e-9)
    np.testing.assert_allclose(res.tangent_velocity, [[slip - SLIP_LIMIT, 0.0]], atol=1e-9)


def test_pyramid_qp_point_mass_by_hand():
    # Sticking: same as the LCP models
    res = pyramid_friction(*point_mass(0.3), MU).check()
    np.testing.assert_allclose(res.tangent, [[-MASS * 0.3, 0.0]], atol=1e-9)
    np.testing.assert_allclose(res.normal_velocity, [0.0], atol=1e-12)
    # Sliding with speed s along t1: the QP's KKT conditions give v_n = μ ξ, ξ = v_t, and
    # v_t = s - μ α / m, α = m (v_n + a)  =>  v_t = (s - μ a) / (1 + μ²), v_n = μ v_t.
    s = 3.0
    res = pyramid_friction(*point_mass(s), MU).check()
    v_t = (s - MU * APPROACH) / (1 + MU**2)
    np.testing.assert_allclose(res.tangent_velocity, [[v_t, 0.0]], atol=1e-9)
    np.testing.assert_allclose(res.normal_velocity, [MU * v_t], atol=1e-9)  # lifts off
    np.testing.assert_allclose(res.normal, [MASS * (MU * v_t + APPROACH)], atol=1e-9)
    np.testing.assert_allclose(res.tangent, [[-MU * res.normal[0], 0.0]], atol=1e-9)


@pytest.mark.parametrize("direction", [0.3, 1.1, 2.5])
def test_off_axis_slip(direction):
    s = 3.0
    W, u = point_mass(s, direction)
    e = np.array([np.cos(direction), np.sin(direction)])
    # Coulomb disc: impulse exactly opposite the slip (exact for one isotropic contact)
    res = gauss_seidel_friction(W, u, MU, cone="disk").check()
    np.testing.assert_allclose(res.tangent, [-MU * THETA * e], atol=1e-9)
    np.testing.assert_allclose(res.tangent_velocity, [(s - SLIP_LIMIT) * e], atol=1e-9)
    # box: each direction on its own, both at their bound here (|u_k| m > μ θ)
    res = box_friction(W, u, MU).check()
    expected = -np.clip(MASS * u[1:], -MU * THETA, MU * THETA)
    np.testing.assert_allclose(res.tangent[0], expected, atol=1e-9)
    # polyhedral cones approach the disc as the number of facets grows.  Here the polyhedral
    # impulse is the projection of -m u_t onto the k-gon, a point on the edge of the sector that
    # contains the exact answer -μθe: they are at most one chord 2 μθ sin(π/k) apart.
    exact = -MU * THETA * e
    for k in (4, 16, 64):
        got = polyhedral_friction(W, u, MU, k=k).check().tangent[0]
        assert friction_cone_violation([THETA], [got], MU, cone="polygon", k=k) <= 1e-12
        assert np.linalg.norm(got - exact) <= 2 * MU * THETA * np.sin(np.pi / k) + 1e-12


def test_planar_contact():
    W = np.eye(2) / MASS
    for slip, lam_t, v_t in [(0.3, -MASS * 0.3, 0.0), (-2.0, MU * THETA, -2.0 + SLIP_LIMIT)]:
        u = np.array([-APPROACH, slip])
        for res in [
            box_friction(W, u, MU, tangent_dim=1),
            polyhedral_friction(W, u, MU, k=2, tangent_dim=1),
            gauss_seidel_friction(W, u, MU, tangent_dim=1),
            gauss_seidel_friction(W, u, MU, tangent_dim=1, cone="disk"),
        ]:
            res.check()
            np.testing.assert_allclose(res.tangent, [[lam_t]], atol=1e-9)
            np.testing.assert_allclose(res.tangent_velocity, [[v_t]], atol=1e-9)


def test_separating_contact_has_no_impulse():
    W, u = point_mass(1.0)
    u[0] = +0.5  # moving away from the ground
    for make in MODELS.values():
        res = make(W, u, MU).check()
        np.testing.assert_allclose(res.normal, [0.0], atol=1e-12)
        np.testing.assert_allclose(res.tangent, [[0.0, 0.0]], atol=1e-12)


def test_frictionless_and_bias():
    # μ = 0: no friction; bias = 0.2 asks for an upward velocity of 0.2 (Baumgarte-style push-out)
    W, u = point_mass(1.0)
    for make in MODELS.values():
        res = make(W, u, 0.0, bias=0.2).check()
        np.testing.assert_allclose(res.normal_velocity, [0.2], atol=1e-9)
        np.testing.assert_allclose(res.tangent, [[0.0, 0.0]], atol=1e-12)


def test_box_friction_with_given_normal_estimate():
    W, u = point_mass(3.0)
    res = box_friction(W, u, MU, normal_impulse=[1.0]).check()
    np.testing.assert_allclose(res.tangent, [[-MU * 1.0, 0.0]], atol=1e-12)


# ---------------------------------------------------------------------------- several contacts


@pytest.mark.parametrize("seed", range(4))
def test_impulses_stay_in_their_cones(seed):
    rng = np.random.default_rng(seed)
    nc = 3
    W, u = random_contacts(rng, nc)
    mu = rng.uniform(0.2, 1.0, nc)
    tol = 1e-8
    rigid = [
        (polyhedral_friction(W, u, mu, k=6), "polygon", 6),
        (gauss_seidel_friction(W, u, mu, tol=1e-12, max_iter=20000), "box", None),
        (gauss_seidel_friction(W, u, mu, cone="disk", tol=1e-12, max_iter=20000), "disk", None),
    ]
    for res, cone, k in rigid + [(pyramid_friction(W, u, mu), "polygon", 4)]:
        res.check()
        assert friction_cone_violation(res.normal, res.tangent, mu, cone=cone, k=k) <= tol
    for res, _, _ in rigid:  # rigid contact: no penetration, complementary normal impulses
        assert res.normal_velocity.min() >= -tol
        assert np.abs(res.normal * res.normal_velocity).max() <= tol
    # box friction: bounds from the frictionless normal impulses, computed here directly
    res = box_friction(W, u, mu).check()
    estimate = lemke(W[:nc, :nc], u[:nc]).z
    assert np.all(np.abs(res.tangent) <= (mu * estimate)[:, None] + tol)
    assert friction_cone_violation(estimate, res.tangent, mu, cone="box") <= tol
    assert res.normal_velocity.min() >= -tol


@pytest.mark.parametrize("seed", range(4))
def test_polyhedral_maximal_dissipation(seed):
    # Anitescu–Stewart conditions on each contact: a slipping contact is on the cone boundary
    # and its friction impulse minimizes λ_t · v_t over the polygon (maximal dissipation)
    rng = np.random.default_rng(10 + seed)
    nc, k = 3, 8
    W, u = random_contacts(rng, nc)
    mu = rng.uniform(0.2, 1.0, nc)
    res = polyhedral_friction(W, u, mu, k=k).check()
    D = polyhedral_directions(k)
    for i in range(nc):
        v_t, lam_t, radius = res.tangent_velocity[i], res.tangent[i], mu[i] * res.normal[i]
        if np.linalg.norm(v_t) > 1e-8 and radius > 1e-8:
            assert lam_t @ v_t == pytest.approx(radius * (D @ v_t).min(), abs=1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_pyramid_qp_optimality_certificate(seed):
    rng = np.random.default_rng(20 + seed)
    nc, k = 2, 4
    W, u = random_contacts(rng, nc)
    mu = rng.uniform(0.3, 0.9, nc)
    res = pyramid_friction(W, u, mu, k=k).check()
    # Sueda eq. 1.88 assembled here independently: λ = [α; β], C M⁻¹ Cᵀ = B W Bᵀ, C v_free = B u
    D = polyhedral_directions(k)
    B = np.zeros((nc + nc * k, 3 * nc))
    B[:nc, :nc] = np.eye(nc)
    for i in range(nc):
        B[nc + i * k : nc + (i + 1) * k, nc + 2 * i : nc + 2 * i + 2] = D
    H, c = B @ W @ B.T, B @ u
    E = np.zeros((nc, nc + nc * k))  # Sueda eq. 1.86
    for i in range(nc):
        E[i, i] = mu[i]
        E[i, nc + i * k : nc + (i + 1) * k] = -1.0
    lam, xi = res.lcp.z[: nc + nc * k], res.lcp.z[nc + nc * k :]
    np.testing.assert_allclose(B.T @ lam, np.concatenate([res.normal, res.tangent.ravel()]))
    # KKT certificate of the convex QP: feasible λ, multipliers s, ξ >= 0 with
    # H λ + c = s + Eᵀξ and complementarity => λ is a global minimizer
    s = H @ lam + c - E.T @ xi
    tol = 1e-9
    assert lam.min() >= -tol and (E @ lam).min() >= -tol
    assert s.min() >= -tol and xi.min() >= -tol
    assert abs(s @ lam) <= tol and abs(xi @ (E @ lam)) <= tol
    # and no feasible random point does better
    f = lambda x: 0.5 * x @ H @ x + c @ x
    for _ in range(200):
        y = lam + rng.normal(size=lam.size) * 0.1
        y = np.maximum(y, 0)
        if (E @ y).min() >= 0:
            assert f(y) >= f(lam) - 1e-12


def test_gauss_seidel_friction_residuals_and_failure():
    rng = np.random.default_rng(30)
    W, u = random_contacts(rng, 3)
    res = gauss_seidel_friction(W, u, 0.5, tol=1e-12, max_iter=5000).check()
    assert res.residuals[-1] <= 1e-12 and res.iterations == res.residuals.size
    res = gauss_seidel_friction(W, u, 0.5, max_iter=1, tol=1e-14)
    assert not res.converged and "not converged" in res.message


# ---------------------------------------------------------------------------- helpers


def test_polyhedral_directions_and_E():
    D = polyhedral_directions(4)
    np.testing.assert_allclose(D, [[1, 0], [0, 1], [-1, 0], [0, -1]], atol=1e-15)  # Sueda's ±t
    D = polyhedral_directions(7)
    np.testing.assert_allclose(np.linalg.norm(D, axis=1), 1.0)
    np.testing.assert_allclose(D.sum(axis=0), 0.0, atol=1e-14)
    np.testing.assert_array_equal(polyhedral_directions(2, tangent_dim=1), [[1.0], [-1.0]])
    E = friction_E(2, 3)
    np.testing.assert_array_equal(E, [[1, 0], [1, 0], [1, 0], [0, 1], [0, 1], [0, 1]])


def test_friction_cone_violation_values():
    n, mu = np.array([2.0]), 0.5  # radius 1
    t = np.array([[0.8, 0.8]])  # |t| = 1.13: outside the disc, inside the box
    assert friction_cone_violation(n, t, mu, cone="disk") == pytest.approx(np.hypot(0.8, 0.8) - 1)
    assert friction_cone_violation(n, t, mu, cone="box") == 0.0
    # square k = 4 with vertices on the axes: |t1| + |t2| <= 1, i.e. t·e <= cos(π/4)
    assert friction_cone_violation(n, t, mu, cone="polygon", k=4) == pytest.approx(
        (1.6 - 1) / np.sqrt(2)
    )
    assert friction_cone_violation(n, [[0.5, 0.5]], mu, cone="polygon", k=4) == pytest.approx(0)
    assert friction_cone_violation([-1.0], [[0.0, 0.0]], mu) == 1.0  # pulling contact
    assert friction_cone_violation(n, [[1.5]], mu, cone="polygon", k=2) == pytest.approx(0.5)


# ---------------------------------------------------------------------------- input errors


def test_input_errors():
    W, u = point_mass(1.0)
    for make in [box_friction, polyhedral_friction, pyramid_friction, gauss_seidel_friction]:
        with pytest.raises(ValueError, match="friction coefficient mu must be >= 0"):
            make(W, u, -0.1)
        with pytest.raises(ValueError, match="mu contains non-finite"):
            make(W, u, np.nan)
        with pytest.raises(ValueError, match="not a multiple of 1 \\+ tangent_dim"):
            make(np.eye(4), np.zeros(4), 0.5)
        with pytest.raises(ValueError, match="tangent_dim must be 1"):
            make(W, u, 0.5, tangent_dim=3)
        with pytest.raises(ValueError, match="u must have length 3"):
            make(W, u[:2], 0.5)
        with pytest.raises(ValueError, match="mu must be a scalar or a vector of length 1"):
            make(W, u, [0.5, 0.5])
        with pytest.raises(ValueError, match="bias must have length 1"):
            make(W, u, 0.5, bias=[0.0, 0.0])
    with pytest.raises(ValueError, match="method must be"):
        box_friction(W, u, 0.5, method="simplex")
    with pytest.raises(ValueError, match="normal_impulse must be >= 0"):
        box_friction(W, u, 0.5, normal_impulse=[-1.0])
    with pytest.raises(ValueError, match="k must be an integer >= 3"):
        polyhedral_friction(W, u, 0.5, k=2)
    with pytest.raises(ValueError, match="k = 2 directions"):
        polyhedral_directions(4, tangent_dim=1)
    with pytest.raises(ValueError, match="tangent_dim must be 1"):
        polyhedral_directions(4, tangent_dim=3)
    with pytest.raises(ValueError, match="cone must be 'box' or 'disk'"):
        gauss_seidel_friction(W, u, 0.5, cone="circle")
    with pytest.raises(ValueError, match="positive diagonal"):
        gauss_seidel_friction(np.diag([1.0, 0.0, 1.0]), u, 0.5)
    with pytest.raises(ValueError, match="omega"):
        gauss_seidel_friction(W, u, 0.5, omega=2.5)
    with pytest.raises(ValueError, match="cone must be 'disk', 'box' or 'polygon'"):
        friction_cone_violation([1.0], [[0.0, 0.0]], 0.5, cone="circle")
    with pytest.raises(ValueError, match="needs the number of directions k"):
        friction_cone_violation([1.0], [[0.0, 0.0]], 0.5, cone="polygon")
    with pytest.raises(ValueError, match="tangent must have shape"):
        friction_cone_violation([1.0], [[0.0, 0.0, 0.0]], 0.5)
    with pytest.raises(ValueError, match="friction coefficient mu must be >= 0"):
        friction_cone_violation([1.0], [[0.0, 0.0]], -0.5)
    with pytest.raises(ValueError, match="tangent contains non-finite"):
        friction_cone_violation([1.0], [[np.nan, 0.0]], 0.5)
    with pytest.raises(ValueError, match="normal contains non-finite"):
        friction_cone_violation([np.inf], [[0.0, 0.0]], 0.5)
