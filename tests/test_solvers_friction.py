"""Tests of spatial.solvers.friction and .disc: box, polyhedral, pyramid QP, Gauss–Seidel."""

import numpy as np
import pytest

from spatial.solvers import (
    box_friction,
    delassus,
    disc_qp,
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


# ---------------------------------------------------------------------------- disc sub-problem


def disc_samples(radius, n_radii=200, n_angles=720):
    """Dense polar grid of the disc |x| <= radius, boundary included."""
    rho = np.linspace(0.0, radius, n_radii)[:, None]
    phi = np.linspace(0.0, 2 * np.pi, n_angles, endpoint=False)[None, :]
    return np.stack([rho * np.cos(phi), rho * np.sin(phi)], axis=-1).reshape(-1, 2)


def quadratic(A, c, x):
    x = np.atleast_2d(x)
    return 0.5 * np.einsum("ni,ij,nj->n", x, A, x) + x @ c


def radial_projection(A, c, radius):
    """The old disc step: -A⁻¹c pulled radially into the disc (exact only for A ∝ 1)."""
    x = -np.linalg.solve(A, c)
    return x * min(1.0, radius / np.linalg.norm(x))


def assert_disc_kkt(A, c, radius, x, nu, tol=1e-9):
    """Global optimality on the disc: (A + ν1) x = -c, ν >= 0, |x| <= r, ν (|x| - r) = 0."""
    scale = np.abs(A).max() * radius + np.linalg.norm(c)
    assert nu >= 0
    assert np.linalg.norm(x) <= radius * (1 + 1e-12)
    np.testing.assert_allclose((A + nu * np.eye(len(c))) @ x, -c, atol=tol * scale)
    assert abs(nu * (np.linalg.norm(x) - radius)) <= tol * scale
    assert np.linalg.eigvalsh(A + nu * np.eye(len(c))).min() >= -tol * scale


@pytest.mark.parametrize("seed", range(12))
def test_disc_qp_is_the_minimizer_on_the_disc(seed):
    rng = np.random.default_rng(40 + seed)
    B = rng.normal(size=(2, 2))
    A = B @ B.T + 0.05 * np.eye(2)  # SPD, condition numbers up to ~100
    c = rng.normal(size=2) * rng.uniform(0.1, 5.0)
    radius = rng.uniform(0.05, 2.0)
    x, nu = disc_qp(A, c, radius)
    assert_disc_kkt(A, c, radius, x, nu)
    # no sample of the disc (grid spacing ~ radius/200) does better
    assert quadratic(A, c, x)[0] <= quadratic(A, c, disc_samples(radius)).min() + 1e-12
    # sticking (ν = 0) exactly when the unconstrained minimizer fits
    inside = np.linalg.norm(np.linalg.solve(A, c)) <= radius
    assert (nu == 0) == inside


def test_disc_qp_beats_radial_projection_when_anisotropic():
    # W_tt of a box vertex is anisotropic: the radial projection of -A⁻¹c is feasible but not
    # optimal, and its direction is not opposite the slip it leaves
    A, c, radius = np.array([[1.0, 0.6], [0.6, 3.0]]), np.array([2.0, 1.0]), 0.3
    x, nu = disc_qp(A, c, radius)
    old = radial_projection(A, c, radius)
    assert quadratic(A, c, x)[0] < quadratic(A, c, old)[0] - 1e-3
    slip = A @ x + c  # = -ν x: the impulse opposes the slip it leaves
    np.testing.assert_allclose(x / radius, -slip / np.linalg.norm(slip), atol=1e-12)


@pytest.mark.parametrize("c", [[3.0, -1.0], [0.2, 0.1], [0.0, 5.0]])
def test_disc_qp_isotropic_is_the_radial_projection(c):
    A, radius = 2.5 * np.eye(2), 0.4
    x, nu = disc_qp(A, np.array(c), radius)
    np.testing.assert_allclose(x, radial_projection(A, np.array(c), radius), atol=1e-14)
    # by hand: ν = |c|/r - a on the boundary, 0 inside
    assert nu == pytest.approx(max(0.0, np.linalg.norm(c) / radius - 2.5), abs=1e-12)


def test_disc_qp_one_dimensional_is_a_clip():
    for c, expected in [(0.3, -0.15), (5.0, -1.0), (-5.0, 1.0)]:
        x, nu = disc_qp([[2.0]], [c], 1.0)
        np.testing.assert_allclose(x, [expected], atol=1e-15)
        assert nu == pytest.approx(max(0.0, abs(c) - 2.0))


def test_disc_qp_hard_and_singular_cases():
    # singular A = 2 u uᵀ, u = (1, 1)/√2, c in its range: a line of unconstrained minimizers;
    # the minimum-norm one -A⁺c = -(1/4)(1, 1) fits in the disc, so it is kept (ν = 0)
    A = np.array([[1.0, 1.0], [1.0, 1.0]])
    x, nu = disc_qp(A, [0.5, 0.5], 1.0)
    np.testing.assert_allclose(x, [-0.25, -0.25], atol=1e-15)
    assert nu == 0.0
    # c along the null direction: unbounded without the disc, so the full radius along -c
    x, nu = disc_qp(A, [1.0, -1.0], 0.5)
    np.testing.assert_allclose(x, np.array([-1.0, 1.0]) * 0.5 / np.sqrt(2), atol=1e-12)
    assert nu == pytest.approx(2 * np.sqrt(2))  # (A + ν1)x = -c with A x = 0
    # indefinite A with c orthogonal to the negative eigenvector: the hard case, ν = -e₁ = 1 and
    # x = (±√(1 - 1/9), -1/3); either sign is a global minimizer
    A, c = np.diag([-1.0, 2.0]), np.array([0.0, 1.0])
    x, nu = disc_qp(A, c, 1.0)
    assert nu == pytest.approx(1.0)
    np.testing.assert_allclose(np.abs(x), [np.sqrt(8) / 3, 1 / 3], atol=1e-12)
    assert_disc_kkt(A, c, 1.0, x, nu)
    assert quadratic(A, c, x)[0] <= quadratic(A, c, disc_samples(1.0)).min() + 1e-12
    # nearly the hard case: a tiny c₁ tilts the answer continuously towards +/- e₁
    for c1, sign in [(1e-9, -1.0), (-1e-9, 1.0)]:
        x, nu = disc_qp(A, [c1, 1.0], 1.0)
        assert_disc_kkt(A, np.array([c1, 1.0]), 1.0, x, nu)
        np.testing.assert_allclose(x, [sign * np.sqrt(8) / 3, -1 / 3], atol=1e-7)
    # zero radius: no impulse
    np.testing.assert_array_equal(disc_qp(np.eye(2), [1.0, 2.0], 0.0)[0], [0.0, 0.0])


@pytest.mark.parametrize("seed", range(4))
def test_gauss_seidel_disc_is_maximally_dissipative(seed):
    # At the converged Gauss–Seidel answer every contact's friction impulse makes the frictional
    # power λ_t · v_t as negative as any admissible force in its disc: -μλ_n |v_t| when it
    # slips (Coulomb: opposite the slip, on the circle), and the slip is zero otherwise.
    rng = np.random.default_rng(50 + seed)
    nc = 3
    W, u = random_contacts(rng, nc)
    u[nc:] *= 4.0  # fast enough that some contacts slide
    mu = rng.uniform(0.2, 1.0, nc)
    res = gauss_seidel_friction(W, u, mu, cone="disk", tol=1e-13, max_iter=50000).check()
    sliding = 0
    for i in range(nc):
        v_t, lam_t, radius = res.tangent_velocity[i], res.tangent[i], mu[i] * res.normal[i]
        assert np.linalg.norm(lam_t) <= radius * (1 + 1e-12)
        power = lam_t @ v_t
        assert power <= (disc_samples(radius, 20, 360) @ v_t).min() + 1e-9
        if np.linalg.norm(v_t) > 1e-7:
            sliding += 1
            assert power == pytest.approx(-radius * np.linalg.norm(v_t), rel=1e-7)
        # each contact's impulse solves its own disc problem given the others
        t = slice(nc + 2 * i, nc + 2 * i + 2)
        lam = np.concatenate([res.normal, res.tangent.ravel()])
        b = u[t] + W[t] @ lam - W[t, t] @ lam_t
        np.testing.assert_allclose(lam_t, disc_qp(W[t, t], b, radius)[0], atol=1e-8)
    assert sliding >= 1  # the test exercises the boundary


@pytest.mark.parametrize("omega", [0.7, 1.3])
def test_gauss_seidel_disc_relaxation_reaches_the_same_answer(omega):
    rng = np.random.default_rng(60)
    W, u = random_contacts(rng, 3)
    u[3:] *= 4.0
    ref = gauss_seidel_friction(W, u, 0.6, cone="disk", tol=1e-13, max_iter=50000).check()
    res = gauss_seidel_friction(W, u, 0.6, cone="disk", omega=omega, tol=1e-13, max_iter=50000)
    res.check()
    np.testing.assert_allclose(res.tangent_velocity, ref.tangent_velocity, atol=1e-8)
    np.testing.assert_allclose(res.normal_velocity, ref.normal_velocity, atol=1e-8)


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
    with pytest.raises(ValueError, match="1x1 or 2x2"):
        disc_qp(np.eye(3), np.zeros(3), 1.0)
    with pytest.raises(ValueError, match="c must have length 2"):
        disc_qp(np.eye(2), np.zeros(3), 1.0)
    with pytest.raises(ValueError, match="radius must be a finite number >= 0"):
        disc_qp(np.eye(2), np.zeros(2), -1.0)
    with pytest.raises(ValueError, match="radius must be a finite number >= 0"):
        disc_qp(np.eye(2), np.zeros(2), np.nan)
    with pytest.raises(ValueError, match="A must be a square matrix"):
        disc_qp(np.ones((2, 3)), np.zeros(2), 1.0)
    with pytest.raises(ValueError, match="A contains non-finite"):
        disc_qp([[np.inf, 0.0], [0.0, 1.0]], np.zeros(2), 1.0)
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
