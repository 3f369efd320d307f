"""Rigid contact: the contact LCP (Featherstone §11.1–11.5) and time stepping (Table 11.1).

Closed forms: apex heights ``e^{2n} h₀`` of a bouncing ball; stopping distance ``v²/(2a)``
with ``a = g (μ cos θ - sin θ)`` on an incline, sticking below ``tan θ = μ`` and sliding with
``-a`` above; the tipping angle ``atan(a/b)`` of a box on its edge; ``Σλ = m g`` for a body at
rest; ``M = (1/m) [[1, -1], [-1, 1]]`` of Example 11.1 and Painlevé's ``M``.  Invariants:
impulses in the friction cone, energy never increasing across impacts, a stack at rest not
sinking, trees with Free joints equal to free bodies.

The semi-implicit Euler step is first order: positions carry an ``O(h)`` bias (a ballistic apex
is low by about ``v h / 2``), so the analytic comparisons use tolerances of that size.
"""

import dataclasses

import numpy as np
import pytest

import spatial as sp
import spatial.contact as ct

G = 9.81


# ----------------------------------------------------------------------------- §11.1–11.5


def test_body_at_rest_on_four_contacts_carries_its_weight():
    # a box resting on the floor: frictionless contacts at its four bottom vertices
    setup = ct.sliding_box(mu=0.0, speed=0.0, system="free", half_extents=(0.3, 0.2, 0.1), mass=2.0)
    scene, poses = setup.scene, setup.q0  # free bodies: q is the stack of 4x4 frames
    contacts = scene.detect(poses)
    contacts = contacts.select(np.abs(contacts.gap) < 1e-12)
    J, _ = scene.jacobian(poses, contacts)
    T = J[: len(contacts)].T  # Featherstone's T: one column per contact normal (eq. 11.25)
    H, C = scene.mass_matrix(poses), scene.generalized_force(poses, setup.v0)
    res = ct.contact_acceleration(H, C, T)
    assert res.converged
    assert np.isclose(res.force.sum(), 2.0 * G, rtol=1e-10)
    assert np.allclose(res.qdd, 0.0, atol=1e-9)
    assert np.all(res.separation_acceleration >= -1e-9)


def test_single_contact_lcp_is_eq_11_8():
    I = sp.sphere_inertia(2.0, 0.5)
    n = sp.point_force([0, 0, 1.0], [0, 0, -0.5])  # unit normal force at the contact point
    M, d = ct.contact_lcp(I, np.array([0, 0, 0, 0, 0, -2.0 * G]), n[:, None])
    assert np.isclose(M[0, 0], n @ np.linalg.solve(I, n))
    assert np.isclose(d[0], -G)


def test_example_11_1_has_no_solution():
    problem = ct.example_11_1(mass=2.0, curvature=3.0, speed=0.5)
    M, d = ct.contact_lcp(*problem)
    assert np.allclose(M, 0.5 * np.array([[1, -1], [-1, 1.0]]))
    assert np.isclose(d.sum(), -2 * 3.0 * 0.25)  # d1 + d2 = -2 κ v² < 0
    for method in ("lemke", "principal_pivoting"):
        res = ct.contact_acceleration(*problem, method=method)
        assert not res.converged
        assert "no" in res.message.lower()
        with pytest.raises(ct.LCPError):
            res.check()
    at_rest = ct.contact_acceleration(*ct.example_11_1(speed=0.0))
    assert at_rest.converged and np.allclose(at_rest.force, 0.0)
    assert at_rest.qdd[0] > 0  # pushed right into the narrowing slot


def test_painleve_rod():
    theta, mu = np.arctan(2.0), 2.0  # tan θ = 2 minimizes (1 + 3cos²θ)/(3 sin θ cos θ) = 4/3
    problem = ct.painleve_rod(theta, mu, mass=2.0)
    M, d = ct.contact_lcp(*problem)
    expected = (1 + 3 * np.cos(theta) ** 2 - 3 * mu * np.sin(theta) * np.cos(theta)) / 2.0
    assert np.isclose(M[0, 0], expected) and M[0, 0] < 0
    assert np.isclose(d[0], -G)
    res = ct.contact_acceleration(*problem)
    assert not res.converged and "no" in res.message.lower()
    below = ct.contact_acceleration(*ct.painleve_rod(theta, 1.0))  # μ < 4/3: one solution
    assert below.converged and below.force[0] > 0


def test_contact_problem_errors():
    H, f, T = np.eye(3), np.zeros(3), np.ones((3, 1))
    with pytest.raises(ValueError, match="T must"):
        ct.contact_lcp(H, f, np.ones((2, 1)))
    with pytest.raises(ValueError, match="non-finite"):
        ct.contact_lcp(H, f, np.full((3, 1), np.nan))
    with pytest.raises(ValueError, match="T_force"):
        ct.contact_lcp(H, f, T, None, np.ones((3, 2)))
    with pytest.raises(ValueError, match="nonsingular"):
        ct.contact_lcp(np.zeros((3, 3)), f, T)
    with pytest.raises(ValueError, match="method"):
        ct.contact_acceleration(H, f, T, method="simplex")
    with pytest.raises(ValueError, match="friction must"):
        ct.solve_impulses(np.eye(3), np.zeros(3), 0.5, friction="sandpaper")
    with pytest.raises(ValueError, match="tangent_dim"):
        ct.solve_impulses(np.eye(4), np.zeros(4), 0.5)
    with pytest.raises(ValueError, match="mu"):
        ct.solve_impulses(np.eye(3), np.zeros(3), -0.5)


def test_frictionless_impulses_match_lemke_and_pgs():
    rng = np.random.default_rng(4)
    A = rng.normal(size=(6, 6))
    J = rng.normal(size=(9, 6))
    W = ct.delassus(A @ A.T + np.eye(6), J)
    u = rng.normal(size=9)
    bias = np.array([0.1, 0.0, -0.2])
    lemke = ct.solve_impulses(W, u, 0.0, bias=bias)
    pgs = ct.solve_impulses(W, u, 0.0, bias=bias, friction="gauss-seidel", tol=1e-12)
    direct = ct.lemke(W[:3, :3], u[:3] - bias).z
    assert np.allclose(lemke.normal, direct, atol=1e-10) and np.allclose(
        pgs.normal, direct, atol=1e-8
    )
    assert np.allclose(lemke.tangent, 0.0) and np.allclose(
        lemke.normal_velocity, u[:3] + W[:3, :3] @ direct
    )


# ----------------------------------------------------------------------------- time stepping


def _apexes(height):
    i = np.flatnonzero((height[1:-1] >= height[:-2]) & (height[1:-1] > height[2:])) + 1
    return height[i]


def test_bounce_heights_follow_e_squared():
    # Newton restitution (one contact: Poisson gives the same impulse, see test_impact)
    e, h0, h = 0.5, 0.4, 1e-3
    setup = ct.bouncing_ball(e, height=h0, law="newton", h=h)
    fall = np.sqrt(2 * h0 / G)  # the second apex comes at fall (1 + 2e + e²)
    tr = setup.simulate(duration=fall * (1 + 2 * e + 1.5 * e**2))
    gap = tr.q[:, 0, 2, 3] - 0.1
    apexes = _apexes(gap)
    assert len(apexes) >= 2 and len(tr.occurrences("impact")) >= 2
    expected = h0 * e ** (2 * np.arange(1, len(apexes) + 1))
    v = np.sqrt(2 * G * h0)
    # the O(h) bias of semi-implicit Euler, about v h per bounce, bounds the deviation
    n = np.arange(1, len(apexes) + 1)
    assert np.all(np.abs(apexes - expected) <= 2 * n * v * h)
    assert np.allclose(apexes[1:], e**2 * apexes[:-1], atol=2 * v * h)
    assert tr.penetration.max() <= setup.params.event_tol
    assert all(r.energy_change <= 0 for _, r in tr.occurrences("impact"))


def test_scenario_with_located_impacts_keeps_the_apex_over_ten_bounces():
    """e = 1 at h = 4e-3: RK4 flight and located impacts keep every apex within 1e-4 of the
    drop height (the time stepper loses about h√(2gH) = 18 mm per bounce).  RK4 is exact on
    the parabola, so the apexes do not depend on h (1.1e-6 off at h = 1e-3, 2e-3 and 4e-3)."""
    H = 1.0
    setup = ct.bouncing_ball(1.0, height=H, h=4e-3)
    fall = np.sqrt(2 * H / G)
    run = setup.simulate_impacts(duration=fall * 21.5)
    impacts = np.flatnonzero(np.asarray(run.impact, dtype=bool))
    assert len(impacts) == 11
    gap = run.q[:, 0, 2, 3] - 0.1
    apexes = np.array([gap[a:b].max() for a, b in zip(impacts[:-1], impacts[1:], strict=True)])
    assert len(apexes) == 10 and np.abs(apexes - H).max() < 1e-4
    assert np.allclose(np.diff(run.t[impacts]), 2 * fall, rtol=0, atol=1e-9)  # closed form


@pytest.mark.parametrize("law", ["newton", "poisson"])
def test_located_impacts_give_apexes_e_to_the_2n_and_refuse_bad_input(law):
    e, h0 = 0.5, 0.4
    setup = ct.bouncing_ball(e, height=h0, law=law, system="tree", h=1e-3)
    fall = np.sqrt(2 * h0 / G)
    run = setup.simulate_impacts(duration=fall * (1 + 2 * e + 1.5 * e**2))
    apexes = _apexes(run.q[:, 6] - 0.1)  # the tree's z coordinate
    assert len(apexes) == 2
    # sampled apexes: within g (h/2)² / 2 ≈ 1.2e-6 of the closed form
    assert np.allclose(apexes, h0 * e ** np.array([2.0, 4.0]), rtol=0, atol=2e-6)
    flight = ct.FreeFlight(setup.scene)  # no contact forces: gravity alone
    assert np.allclose(flight.accelerations(0.0, setup.q0, setup.v0)[3:], [0.0, 0.0, -G])
    with pytest.raises(ValueError, match="scene must be a Scene"):
        ct.located_impacts(setup)
    with pytest.raises(ValueError, match="integrator"):
        ct.located_impacts(setup.scene, setup.params, integrator="no-such-scheme")
    with pytest.raises(RuntimeError, match="the contact persists"):
        ct.bouncing_ball(0.0, height=0.05).simulate_impacts(duration=0.3)  # comes to rest


def test_tree_and_free_bodies_give_the_same_motion():
    a = ct.tipping_box(0.4, system="tree", h=4e-3).simulate(duration=0.12)
    b = ct.tipping_box(0.4, system="free", h=4e-3).simulate(duration=0.12)
    assert np.allclose(a.t, b.t, atol=1e-14)
    assert np.allclose(a.v, b.v, atol=1e-10)
    assert np.allclose(a.energy, b.energy, atol=1e-10)
    assert np.allclose(a.q[:, 4:], b.q[:, 0, :3, 3], atol=1e-12)


@pytest.mark.parametrize("system", ["tree", "free"])
def test_trajectory_energies_are_the_scenes_state_by_state(system):
    # a tree's trajectory is evaluated in one batched pass, free bodies row by row: both give
    # the scene's own energy of every state
    setup = ct.tipping_box(0.4, system=system, h=4e-3)
    tr = setup.simulate(duration=0.05)
    rows = np.array([setup.scene.energy(q, v) for q, v in zip(tr.q, tr.v, strict=True)])
    assert len(rows) == len(tr.t) > 10
    np.testing.assert_allclose(tr.kinetic, rows[:, 0], rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(tr.potential, rows[:, 1], rtol=1e-14, atol=1e-14)


def _box_position(setup, tr):
    return tr.q[:, 4:7] if setup.q0.ndim == 1 else tr.q[:, 0, :3, 3]


@pytest.mark.parametrize("soft", [False, True])
def test_contact_systems_take_tau_as_a_constant_or_as_a_function_of_the_state(soft):
    setup = ct.sliding_box(mu=0.5, speed=1.0, h=4e-3, system="tree")
    params = ct.SoftContactParams(stiffness=1e4, damping=50.0, mu=0.5) if soft else setup.params
    system = (ct.SoftContact if soft else ct.RigidContact)(setup.scene, params)
    push = np.linspace(-0.4, 0.6, setup.scene.nv)
    calls = []

    def tau(t, q, v):
        calls.append(t)
        return push

    run = [sp.simulate(system, setup.q0, setup.v0, 4e-3, duration=0.04, tau=f) for f in (push, tau)]
    free = sp.simulate(system, setup.q0, setup.v0, 4e-3, duration=0.04)
    np.testing.assert_array_equal(run[0].v, run[1].v)
    assert np.abs(run[0].v - free.v).max() > 1e-3  # the push acts
    np.testing.assert_allclose(calls, run[1].t[:-1], rtol=0, atol=1e-15)  # once per step


@pytest.mark.parametrize("friction", ["polyhedral", "box", "pyramid", "gauss-seidel"])
def test_sliding_distance_on_the_floor(friction):
    mu, v, h = 0.5, 2.0, 4e-3
    setup = ct.sliding_box(mu=mu, speed=v, friction=friction, h=h, system="free")
    tr = setup.simulate()
    pos = _box_position(setup, tr)
    distance = np.linalg.norm(pos[-1] - pos[0])
    assert abs(distance - v**2 / (2 * mu * G)) <= v * h  # O(h): discrete sum of h v_k
    assert np.abs(tr.v[-1]).max() < 1e-8
    assert abs(pos[-1, 2] - pos[0, 2]) < 1e-10  # no sinking


@pytest.mark.parametrize("system", ["free", "tree"])
@pytest.mark.parametrize("friction", ["polyhedral", "gauss-seidel"])
def test_sliding_box_loses_mu_g_h_per_step_without_spin(friction, system):
    # Coulomb friction on a box sliding along x on the floor: each step removes exactly μ g h of
    # speed and nothing else.  The four vertex contacts have anisotropic tangential Delassus
    # blocks, so a disc step that is not the exact per-contact minimizer (maximal dissipation)
    # removes less and spins the box about the vertical.
    mu, v, h = 0.5, 1.0, 4e-3
    setup = ct.sliding_box(mu=mu, speed=v, friction=friction, h=h, system=system)
    q, vel = setup.q0, setup.v0
    for n in range(1, 11):
        q, vel, info = ct.step(setup.scene, q, vel, h, setup.params)
        assert info.fallbacks == 0 and len(info.contacts) == 4
        expected = np.array([0.0, 0.0, 0.0, v - n * mu * G * h, 0.0, 0.0])
        np.testing.assert_allclose(vel[-6:], expected, rtol=0, atol=1e-9)


@pytest.mark.parametrize("mu", [0.25, 1.0])
def test_sliding_distance_scales_as_one_over_mu(mu):
    v, h = 2.0, 4e-3
    setup = ct.sliding_box(mu=mu, speed=v, h=h, system="free")
    pos = _box_position(setup, setup.simulate())
    assert abs(np.linalg.norm(pos[-1] - pos[0]) - v**2 / (2 * mu * G)) <= v * h


def test_stopping_distance_on_an_incline():
    mu, slope, v, h = 0.6, np.radians(15), 1.5, 4e-3
    setup = ct.sliding_box(mu=mu, speed=v, slope=slope, h=h, system="free")
    tr = setup.simulate()
    pos = _box_position(setup, tr)
    a = G * (mu * np.cos(slope) - np.sin(slope))
    assert abs(np.linalg.norm(pos[-1] - pos[0]) - v**2 / (2 * a)) <= v * h
    assert np.abs(tr.v[-1]).max() < 1e-8


@pytest.mark.parametrize("tan_theta, sticks", [(0.4, True), (0.6, False)])
def test_sticking_below_and_sliding_above_the_friction_angle(tan_theta, sticks):
    mu, T, h = 0.5, 0.3, 2e-3
    slope = np.arctan(tan_theta)
    setup = ct.sliding_box(mu=mu, speed=0.0, slope=slope, h=h)  # a tree with a Free joint
    tr = setup.simulate(duration=T)
    travel = np.linalg.norm(_box_position(setup, tr)[-1] - setup.q0[4:7])
    if sticks:
        assert travel < 1e-10
    else:
        a = G * (np.sin(slope) - mu * np.cos(slope))
        assert abs(travel - 0.5 * a * T**2) <= a * T * h  # O(h) as above


def test_impulses_respect_the_friction_cone():
    for friction, k in (("polyhedral", 6), ("pyramid", 4), ("gauss-seidel", None)):
        setup = ct.tipping_box(0.3, mu=0.3, h=4e-3)
        params = ct.ContactParams(mu=0.3, friction=friction, k=k)
        q, v = setup.q0, setup.v0
        cone, kk = ct.friction_cone_of(friction, k, 2)
        worst = 0.0
        for _ in range(40):
            q, v, info = ct.step(setup.scene, q, v, setup.h, params)
            imp = info.impulses
            scale = max(1.0, np.abs(imp.normal).max(initial=0.0))
            worst = max(
                worst,
                ct.friction_cone_violation(imp.normal, imp.tangent, 0.3, cone=cone, k=kk) / scale,
            )
        assert worst <= 1e-8


def test_energy_never_increases_across_impacts():
    setup = ct.double_pendulum_floor(restitution=0.3, mu=0.4, law="poisson", h=2e-3)
    tr = setup.simulate(duration=1.05)
    assert len(tr.occurrences("impact")) >= 4
    for _, res in tr.occurrences("impact"):
        assert res.energy_change <= 1e-12
    # and over the whole motion the energy only drifts at the O(h) level of the integrator
    assert tr.energy.max() - tr.energy[0] <= 1e-3 * np.abs(tr.energy).max()


@pytest.mark.parametrize("law", ["newton", "poisson"])
@pytest.mark.parametrize("e", [0.5, 1.0])
def test_bouncing_ball_energy_never_increases(e, law):
    # semi-implicit Euler loses ½ m g² h² per free-flight step, impacts lose ½ m (1 - e²) v²:
    # the total energy must never rise from one step to the next, and e = 1 impacts are elastic
    tr = ct.bouncing_ball(e, height=0.4, law=law, h=2e-3).simulate(duration=1.0)
    scale = abs(tr.energy[0])
    assert len(tr.occurrences("impact")) >= 2
    assert np.diff(tr.energy).max() <= 1e-12 * scale
    for _, res in tr.occurrences("impact"):
        assert res.energy_change <= 1e-12 * scale
        if e == 1.0:
            assert abs(res.energy_change) <= 1e-12 * scale


def test_tipping_box_falls_back_below_and_over_above_the_critical_angle():
    critical = np.arctan2(0.1, 0.2)
    for tilt, upright in ((critical - 0.15, True), (critical + 0.15, False)):
        setup = ct.tipping_box(tilt, h=5e-3, system="free")
        tr = setup.simulate(duration=0.6)
        z_axis = tr.q[-1, 0, :3, 2]
        if upright:
            assert z_axis[2] > 0.99
        else:
            assert abs(z_axis[2]) < 0.05  # lying on its side


@pytest.mark.parametrize("n, system", [(2, "free"), (3, "free"), (3, "tree")])
def test_stack_comes_to_rest_without_sinking(n, system):
    setup = ct.box_stack(n, drop=2e-3, h=5e-3, system=system)
    tr = setup.simulate(duration=0.3)  # at rest (|v| < 1e-8) from t = 0.04 s on, 52 steps
    assert tr.penetration.max() <= 1e-6  # post-stabilization, stated tolerance 1 µm
    assert np.abs(tr.v[-1]).max() < 1e-8
    # box i (half height 0.1) rests on box i - 1: centres at 0.1, 0.3, 0.5 to within 1 µm
    heights = tr.q[-1, :, 2, 3] if system == "free" else tr.q[-1, 6::7]
    assert np.allclose(heights, 0.1 + 0.2 * np.arange(n), atol=1e-6)


def test_baumgarte_and_compliance_hold_a_body_up():
    setup = ct.bouncing_ball(0.0, height=1e-3, h=1e-3)
    baum = setup.simulate(duration=0.2, stabilization="baumgarte", locate_events=False)
    assert baum.penetration[-1] < 1e-6
    alpha = 1e-5  # ArtiSynth §0.11: static penetration = α m g
    soft = setup.simulate(duration=0.3, compliance=alpha, damping=0.01)
    assert np.isclose(soft.penetration[-1], alpha * G, rtol=1e-6)


def _failing(model, monkeypatch):
    """Make the stepper's contact solver fail for ``model`` (and for Gauss–Seidel if "all")."""
    import spatial.integrators.constrained as constrained  # the contact stepper's one step

    solve = constrained._solve_impulses

    def fake(W, u, mu, *, friction, **options):
        res = solve(W, u, mu, friction=friction, **options)
        if model == "all" or friction == model:
            return dataclasses.replace(res, converged=False, message="forced failure")
        return res

    monkeypatch.setattr(constrained, "_solve_impulses", fake)


def test_failed_contact_solve_falls_back_to_gauss_seidel_and_says_so(monkeypatch):
    setup = ct.sliding_box(mu=0.5, speed=1.0, h=4e-3, system="free")
    _, v_ref, info = ct.step(setup.scene, setup.q0, setup.v0, setup.h, setup.params)
    assert info.fallbacks == 0 and info.impulses.residuals is None  # Lemke's answer
    _failing("polyhedral", monkeypatch)
    _, v, info = ct.step(setup.scene, setup.q0, setup.v0, setup.h, setup.params)
    assert info.fallbacks == 1 and info.impulses.converged
    assert info.impulses.residuals is not None  # Gauss–Seidel's answer
    # a different friction cone (the disc, not the octagon), but for slip along x both remove
    # exactly μ g h of speed; the fallback's looser tolerance allows a small difference
    np.testing.assert_allclose(v, v_ref, rtol=0, atol=1e-6)
    imp = info.impulses
    assert ct.friction_cone_violation(imp.normal, imp.tangent, 0.5, cone="disk") <= 1e-9
    tr = setup.simulate(duration=0.05)
    assert tr.fallbacks.sum() == len(tr.t) - 1  # one contact problem per step, each one a fallback


def test_post_stabilization_falls_back_to_lemke_when_gauss_seidel_stalls(monkeypatch):
    setup = ct.box_stack(2, drop=2e-3, system="free")
    reference = setup.simulate(duration=0.05, stabilization="post", locate_events=False)
    pgs = ct.stepping._pgs
    calls = []

    def stalled(W, q, **options):  # one sweep only: far from converged
        calls.append(len(q))
        return pgs(W, q, **{**options, "max_iter": 1})

    monkeypatch.setattr(ct.stepping, "_pgs", stalled)
    tr = setup.simulate(duration=0.05, stabilization="post", locate_events=False)
    assert calls  # post-stabilization ran, with Gauss–Seidel stalled every time
    assert tr.penetration.max() <= 1e-6  # Lemke took over (one stalled sweep leaves ~1 mm)
    np.testing.assert_allclose(tr.q, reference.q, rtol=0, atol=1e-6)


def test_contact_solve_that_fails_raises(monkeypatch):
    setup = ct.sliding_box(mu=0.5, speed=1.0, h=4e-3, system="free")
    _failing("all", monkeypatch)
    with pytest.raises(ct.LCPError, match="contact step: forced failure"):
        ct.step(setup.scene, setup.q0, setup.v0, setup.h, setup.params)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(mu=-0.1), "mu"),
        (dict(restitution=1.2), r"\[0, 1\]"),
        (dict(restitution=-0.2), r"\[0, 1\]"),
        (dict(friction="velcro"), "friction"),
        (dict(law="hooke"), "law"),
        (dict(stabilization="glue"), "stabilization"),
        (dict(baumgarte=1.5), "baumgarte"),
        (dict(k=1), "k must"),
        (dict(k=True), "k must be an integer >= 2, got the bool True"),
        (dict(k=4.5), "k must be an integer >= 2, got 4.5"),
        (dict(margin=-1.0), "margin"),
        (dict(event_tol=0.0), "event_tol"),
        (dict(threshold=np.nan), "threshold"),
    ],
)
def test_contact_params_errors(kwargs, match):
    with pytest.raises(ValueError, match=match):
        ct.ContactParams(**kwargs)


def test_step_and_scenario_errors():
    setup = ct.bouncing_ball()
    with pytest.raises(ValueError, match="h must"):
        ct.step(setup.scene, setup.q0, setup.v0, 0.0)
    with pytest.raises(ValueError, match="tau"):
        ct.step(setup.scene, setup.q0, setup.v0, 1e-3, tau=np.zeros(5))
    with pytest.raises(ValueError, match="ContactParams"):
        ct.simulate(setup.scene, setup.q0, setup.v0, 0.1, 1e-3, params={"mu": 0.1})
    with pytest.raises(ValueError, match="duration"):
        ct.simulate(setup.scene, setup.q0, setup.v0, -1.0, 1e-3)
    with pytest.raises(ValueError, match="restitution"):
        ct.bouncing_ball(restitution=2.0)
    with pytest.raises(ValueError, match="mu"):
        ct.sliding_box(mu=-0.5)
    with pytest.raises(ValueError, match="slope"):
        ct.sliding_box(slope=2.0)
    with pytest.raises(ValueError, match="tilt"):
        ct.tipping_box(0.0)
    with pytest.raises(ValueError, match="system"):
        ct.box_stack(system="maximal")
    with pytest.raises(ValueError, match="n must"):
        ct.box_stack(0)
    with pytest.raises(ValueError, match="shrink"):
        ct.box_stack(shrink=1.5)
    with pytest.raises(ValueError, match="mu"):
        ct.painleve_rod(0.5, -1.0)
    with pytest.raises(ValueError, match="theta"):
        ct.painleve_rod(2.0, 1.0)
    with pytest.raises(ValueError, match="curvature"):
        ct.example_11_1(curvature=-1.0)
    with pytest.raises(ValueError, match="height"):
        ct.bouncing_ball(height=0.0)
    with pytest.raises(ValueError, match="floor"):
        ct.double_pendulum_floor(floor=-1.0)
    with pytest.raises(ValueError, match="drop"):
        ct.box_stack(drop=-1.0)
    with pytest.raises(ValueError, match="single state"):
        tree = ct.sliding_box()
        ct.step(tree.scene, np.stack([tree.q0, tree.q0]), np.stack([tree.v0, tree.v0]), 1e-3)


def test_scene_integrate_and_acceleration_check_the_state_their_step_cores_skip():
    # the steps call Scene._integrate / Scene._acceleration on a validated state; the public
    # methods check it first (a free-body scene did not check the frames before)
    setup = ct.tipping_box(0.4, system="free", h=4e-3)
    scene, q, v = setup.scene, setup.q0, setup.v0
    bad = q.copy()
    bad[0, 3, :] = [0.0, 0.0, 1.0, 1.0]  # last row not [0, 0, 0, 1]
    with pytest.raises(ValueError, match="not a rigid frame"):
        scene.integrate(bad, v, 0.01)
    with pytest.raises(ValueError, match="not a rigid frame"):
        scene.acceleration(bad, v, np.zeros(scene.nv), np.zeros((scene.NB + 1, 6)))
    with pytest.raises(ValueError, match="h must be a single finite number"):
        scene.integrate(q, v, np.inf)
    assert np.array_equal(scene.integrate(q, v, 0.01), scene._integrate(q, v, 0.01))
