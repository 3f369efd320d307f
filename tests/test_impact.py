"""Impulsive dynamics (spatial.contact.impact, Featherstone §11.7).

Known values: a sphere hitting the ground (eq. 11.65 and the tangential-restitution closed form
``Δv = -(2/7)(1 + e_t) u`` of a solid sphere), momentum conservation between two bodies, energy
conservation for ``e = 1``; the energy theorem of Poisson restitution on random multi-contact
impacts with friction; a hand-solved two-contact impact where Newton's law gains energy.
"""

import numpy as np
import pytest

import spatial as sp
import spatial.contact as ct
from spatial import builders

TOL = 1e-10


def _energy(I, v):
    return 0.5 * np.einsum("...i,...ij,...j->...", v, I, v)


def test_contact_wrenches_are_unit_forces_through_the_point():
    p, n = np.array([1.0, -2.0, 0.5]), np.array([0.0, 0.0, 2.0])
    N = ct.contact_wrenches(p, n, torsion=True)
    assert N.shape == (6, 4)
    t = ct.tangent_basis(n)
    for col, d in zip(N.T[:3], [t[0], t[1], [0, 0, 1.0]], strict=True):
        assert np.allclose(col, sp.point_force(d, p), atol=TOL)
    assert np.allclose(N[:, 3], [0, 0, 1.0, 0, 0, 0], atol=TOL)


def test_sphere_on_the_ground_frictionless_eq_11_65():
    m, r, e = 2.0, 0.3, 0.6
    I = sp.sphere_inertia(m, r)
    p = np.array([0.0, 0.0, -r])  # contact point, body frame at the centre = world here
    v = np.array([0.0, 0.0, 0.0, 0.0, 0.0, -3.0])
    res = ct.collision(None, I, np.zeros(6), v, ct.contact_wrenches(p, [0, 0, 1.0])[:, 2:3], e)
    assert np.allclose(res.impulse, (1 + e) * m * 3.0, atol=TOL)
    assert np.allclose(res.dv2, [0, 0, 0, 0, 0, (1 + e) * 3.0], atol=TOL)
    assert np.allclose(res.dv1, 0.0)
    assert np.isclose(res.energy_change, -0.5 * m * 9.0 * (1 - e**2), atol=TOL)


def test_tangential_restitution_of_a_solid_sphere():
    # contact slip u = v_x - ω_y r (velocity of the contact point along x); with I = 2/5 m r²
    # the tangential impulse is -(1 + e_t) u / (1/m + r²/I) = -(2/7)(1 + e_t) m u
    m, r = 1.5, 0.2
    I = sp.sphere_inertia(m, r)
    p = np.array([0.0, 0.0, -r])
    v = np.array([0.0, 4.0, 0.0, 1.0, 0.0, -2.0])  # ω_y = 4, v_x = 1, falling at 2
    u = v[3] + np.cross(v[:3], p)[0]
    N = ct.contact_wrenches(p, [0, 0, 1.0])
    t1 = ct.tangent_basis([0, 0, 1.0])[0]
    for e_t in (0.0, 0.5, 1.0):
        res = ct.collision(None, I, np.zeros(6), v, N, [e_t, e_t, 0.8])
        w = v + res.dv2
        slip = w[3:] + np.cross(w[:3], p)
        assert np.isclose(slip[0], -e_t * u, atol=TOL)  # the slip reverses by e_t
        assert np.isclose(w[5], 0.8 * 2.0, atol=TOL)
        assert np.isclose(res.dv2[3], -(2 / 7) * (1 + e_t) * u, atol=TOL)
        assert np.isclose(res.impulse @ np.array([t1[0], 0, 0]), -(2 / 7) * (1 + e_t) * m * u)


def test_torsional_restitution_reverses_the_spin_about_the_normal():
    I = sp.sphere_inertia(1.0, 0.2)
    p = np.array([0.0, 0.0, -0.2])
    v = np.array([0.0, 0.0, 5.0, 0.0, 0.0, -1.0])
    res = ct.collision(
        None, I, np.zeros(6), v, ct.contact_wrenches(p, [0, 0, 1.0], torsion=True), [0, 0, 0.5, 0.3]
    )
    assert np.isclose((v + res.dv2)[2], -0.3 * 5.0, atol=TOL)


def test_two_body_collision_conserves_momentum_and_energy_for_e_one():
    rng = np.random.default_rng(0)
    I1, I2 = builders.random_inertia(rng, (10,)), builders.random_inertia(rng, (10,))
    v1, v2 = rng.normal(size=(10, 6)), rng.normal(size=(10, 6))
    p, n = rng.normal(size=(10, 3)), rng.normal(size=(10, 3))
    N = ct.contact_wrenches(p, n, torsion=True)
    for e in (0.0, 0.4, 1.0):
        res = ct.collision(I1, I2, v1, v2, N, e)
        h = (I1 @ res.dv1[..., None] + I2 @ res.dv2[..., None])[..., 0]
        assert np.allclose(h, 0.0, atol=1e-10)  # equal and opposite impulses
        T0 = _energy(I1, v1) + _energy(I2, v2)
        assert np.allclose(
            res.energy_change, _energy(I1, v1 + res.dv1) + _energy(I2, v2 + res.dv2) - T0
        )
        if e == 1.0:
            assert np.allclose(res.energy_change, 0.0, atol=1e-10)
        else:
            assert np.all(res.energy_change <= 1e-12)
        for i in range(10):
            one = ct.collision(I1[i], I2[i], v1[i], v2[i], N[i], e)
            assert np.allclose(one.impulse, res.impulse[i], atol=1e-12)


def test_newton_single_contact_reverses_the_normal_velocity():
    rng = np.random.default_rng(1)
    for e in (0.0, 0.3, 1.0):
        A = rng.normal(size=(3, 3))
        W = A @ A.T + np.eye(3)  # one contact, normal + two tangents
        zeta = np.array([-2.0, 0.3, -0.1])
        res = ct.impact(W, zeta, 0.0, restitution=e, law="newton")
        assert np.isclose(res.normal_velocity[0], -e * zeta[0], atol=TOL)
        lam = res.normal[0]
        assert np.isclose(res.energy_change, 0.5 * (1 - e) * lam * zeta[0], atol=TOL)
        poisson = ct.impact(W, zeta, 0.0, restitution=e, law="poisson")
        assert np.allclose(poisson.impulse, res.impulse, atol=TOL)


def _random_contact_problem(rng, nc, d=2):
    n = 6 + 3 * nc
    A = rng.normal(size=(n, n))
    M = A @ A.T + 0.5 * np.eye(n)
    J = rng.normal(size=(nc * (1 + d), n))
    return ct.delassus(M, J), J @ rng.normal(size=n)


@pytest.mark.parametrize("friction", ["polyhedral", "pyramid", "box", "gauss-seidel"])
def test_poisson_restitution_never_creates_energy(friction):
    rng = np.random.default_rng(2)
    for trial in range(15):
        nc = 1 + trial % 3
        W, zeta = _random_contact_problem(rng, nc)
        zeta[:nc] = -np.abs(zeta[:nc])  # approaching
        e = rng.uniform(0, 1)
        res = ct.impact(W, zeta, 0.5, restitution=e, law="poisson", friction=friction)
        assert res.converged, res.message
        scale = zeta @ np.linalg.solve(W + 1e-12 * np.eye(len(W)), zeta)
        assert res.energy_change <= 1e-8 * max(1.0, scale)
        lam = res.impulse
        assert np.isclose(res.energy_change, lam @ zeta + 0.5 * lam @ W @ lam)
        cone, k = ct.friction_cone_of(friction, None, 2)
        if friction != "box":  # box bounds use an estimate of the normal impulse
            assert ct.friction_cone_violation(res.normal, res.tangent, 0.5, cone=cone, k=k) <= 1e-8


def test_newton_can_gain_energy_where_poisson_cannot():
    # two coupled contacts, the first approaching, the second separating (solved by hand):
    # Newton with e = 1 needs λ = (8.16, 6.84) and gains kinetic energy; Poisson returns the
    # compression impulse and conserves it exactly
    W = np.array([[1.0, -0.9], [-0.9, 1.0]])
    zeta = np.array([-1.0, 0.5])
    Wt = np.zeros((4, 4))  # embed in the planar layout (one tangent row each, decoupled)
    Wt[:2, :2], Wt[2:, 2:] = W, np.eye(2)
    z = np.concatenate([zeta, [0.0, 0.0]])
    newton = ct.impact(Wt, z, 0.0, restitution=1.0, law="newton", tangent_dim=1)
    lam = np.linalg.solve(W, np.array([2.0, -0.5]))  # both contacts active
    assert np.allclose(newton.normal, lam, atol=1e-9)
    assert newton.energy_change > 1.5
    poisson = ct.impact(Wt, z, 0.0, restitution=1.0, law="poisson", tangent_dim=1)
    assert abs(poisson.energy_change) < 1e-9
    assert np.allclose(poisson.compression[:2], np.linalg.solve(W, -zeta), atol=1e-9)


def test_apply_impact_on_a_tree_is_eq_11_57():
    setup = ct.double_pendulum_floor(floor=1.9, restitution=0.5, mu=0.0)
    scene, q = setup.scene, np.array([0.1, 0.0])
    v = np.array([-1.0, -0.5])  # bob 2 approaches the floor
    contacts = scene.detect(q)
    contacts = contacts.select((contacts.predecessor == 0) & (contacts.successor == 2))
    v_plus, res = ct.apply_impact(scene, q, v, contacts, restitution=0.5, law="newton")
    J, _ = scene.jacobian(q, contacts)
    H = scene.mass_matrix(q)
    assert np.allclose(H @ (v_plus - v), J.T @ res.impulse, atol=TOL)  # u = H Δq̇ = Jᵀλ
    assert np.isclose(J[0] @ v_plus, -0.5 * (J[0] @ v), atol=TOL)
    T0, _ = scene.energy(q, v)
    T1, _ = scene.energy(q, v_plus)
    assert np.isclose(T1 - T0, res.energy_change, atol=TOL) and res.energy_change <= 0


@pytest.mark.parametrize(
    "call, match",
    [
        (
            lambda: ct.collision(None, None, np.zeros(6), np.zeros(6), np.eye(6)[:, :1], 0.5),
            "at least one",
        ),
        (
            lambda: ct.collision(None, np.eye(6), np.zeros(6), np.zeros(6), np.eye(6)[:, :1], 1.5),
            r"\[0, 1\]",
        ),
        (lambda: ct.collision(None, np.eye(6), np.zeros(6), np.zeros(6), np.eye(5), 0.5), "shape"),
        (
            lambda: ct.collision(None, np.eye(6), np.zeros(6), np.zeros(6), np.ones((6, 2)), 0.5),
            "dependent",
        ),
        (lambda: ct.impact(np.eye(3), -np.ones(3), 0.1, restitution=-0.1), r"\[0, 1\]"),
        (lambda: ct.impact(np.eye(3), -np.ones(3), 0.1, law="kepler"), "law"),
        (lambda: ct.impact(np.eye(3), -np.ones(3), -0.1), "mu"),
        (lambda: ct.impact(np.eye(3), -np.ones(2), 0.1), "zeta"),
        (lambda: ct.impact(np.eye(3), -np.ones(3), 0.1, friction="rubber"), "friction"),
    ],
)
def test_impact_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_chapter_11_checkers_accept_right_and_reject_typical_mistakes():
    from spatial.exercises import ch11

    def impulse(I1, I2, v1, v2, n, e):
        mobility = np.linalg.solve(I2, n) + (0.0 if I1 is None else np.linalg.solve(I1, n))
        return -(1 + e) * (n @ (v2 - v1)) / (n @ mobility)

    def lcp(H, force, T, tdot_qd):
        HiT = np.linalg.solve(H, T)
        return T.T @ HiT, HiT.T @ force + tdot_qd

    ch11.CHECKS["11.1"](impulse)
    ch11.CHECKS["11.2"](lcp)
    ch11.CHECKS["11.3"](lambda W, zeta, e: (1 + e) * ct.lemke(W, zeta).check().z)
    with pytest.raises(AssertionError):  # e instead of 1 + e
        ch11.CHECKS["11.1"](lambda *a: impulse(*a) * a[-1] / (1 + a[-1]))
    with pytest.raises(AssertionError):  # the velocity term forgotten
        ch11.CHECKS["11.2"](lambda H, f, T, td: (lcp(H, f, T, td)[0], lcp(H, f, T, td)[1] - td))
    with pytest.raises(AssertionError):  # Newton's law would be the same here: ask for (1 + e)
        ch11.CHECKS["11.3"](lambda W, zeta, e: ct.lemke(W, zeta).check().z)
