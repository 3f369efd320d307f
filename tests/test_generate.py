"""Generated straight-line code (Featherstone §10.4) against the dense algorithms it is traced from.

``spatial.symbolic.generate`` runs the package's own ``rnea``, ``crba`` and ``aba`` on symbols
for one model and compiles what remains after the §10.4 rules.  The generated function must
give the dense algorithm's numbers (to 1e-12, relative to the largest entry) for one state and
for batches, in the floating type the dense algorithm would use, on every joint type, on
GU(100), a branched humanoid and a real robot from URDF; it must refuse what it cannot do and
cache what it did.  Big models are generated once per module.
"""

import importlib.metadata

import numpy as np
import pytest
from test_joints import ALL_JOINTS

import spatial as sp
from spatial import _batched, builders
from spatial._batched import spd_solve, symmetric
from spatial.joints import Joint, Revolute
from spatial.symbolic import GeneratedFunction, GenerationError, OpCount, generate, tracer
from spatial.systems import TreeSystem

TOL = 1e-12
DENSE = {
    "rnea": lambda model, *a, **k: sp.rnea(model, *a, **k),
    "crba": lambda model, q: sp.crba(model, q),
    "aba": lambda model, *a, **k: sp.aba(model, *a, **k),
}


def rel_err(a, b) -> float:
    return float(np.abs(np.asarray(a) - b).max(initial=0.0) / (1.0 + np.abs(b).max(initial=0.0)))


def states(model, rng, batch=()):
    q = model.random_configuration(rng, batch)
    qd, x = rng.standard_normal((2, *batch, model.nv))
    return q, qd, x


def check(model, algorithm, rng, f=None, batch=(4,)):
    """The generated function equals the dense one, one state and a batch."""
    f = generate(model, algorithm) if f is None else f
    for shape in ((), batch):
        q, qd, x = states(model, rng, shape)
        args = (q,) if algorithm == "crba" else (q, qd, x)
        got, expected = f(*args), DENSE[algorithm](model, *args)
        assert got.shape == expected.shape and got.dtype == expected.dtype
        assert rel_err(got, expected) < TOL, (algorithm, shape, rel_err(got, expected))
    return f


def tree_of(joints, rng) -> sp.Model:
    """A random tree with the given joints, general transforms and inertias."""
    model = sp.Model()
    for joint in joints:
        parent = int(rng.integers(0, model.NB + 1))
        inertia = builders.random_inertia(rng)
        model.add_body(parent, joint, builders.random_transform(rng), inertia)
    return model


# ----------------------------------------------------------------------------- models


@pytest.fixture(scope="module")
def every_joint():
    """Two random trees that hold every joint of the library once (and its reversal)."""
    rng = np.random.default_rng(5)
    names = list(ALL_JOINTS)
    half = len(names) // 2
    return [tree_of([ALL_JOINTS[n] for n in part], rng) for part in (names[:half], names[half:])]


@pytest.fixture(scope="module")
def gu100():
    model = builders.gu_chain(100)
    return model, generate(model, "aba")


@pytest.mark.parametrize("algorithm", ["rnea", "crba", "aba"])
def test_every_joint_type(every_joint, algorithm, rng):
    for model in every_joint:
        f = check(model, algorithm, rng)
        # the spline joints and the exponential-coordinate ones cannot be traced: their jcalc
        # runs numerically, and only they
        numeric = {type(model.joints[i].joint if isinstance(model.joints[i], sp.joints.Reversed)
                        else model.joints[i]).__name__ for i in f.numeric_joints}  # fmt: skip
        assert numeric <= {"SplineCurve", "SplineSurface", "SphericalExp", "Composite"}


def test_gu100_aba(gu100, rng):
    model, f = gu100
    check(model, "aba", rng, f)
    assert f.generation_seconds > 0 and not f.numeric_joints


@pytest.mark.parametrize("floating", [False, True])
@pytest.mark.parametrize("algorithm", ["rnea", "crba", "aba"])
def test_humanoid(floating, algorithm, rng):
    check(builders.humanoid(floating), algorithm, rng)


def test_random_branched_tree_with_quaternion_free_base(rng):
    model = builders.random_tree(rng, 10, joints=("R", "S", "FREE", "C", "SY"), floating=True)
    for algorithm in ("rnea", "crba", "aba"):
        check(model, algorithm, rng)


try:
    _ERD = importlib.metadata.distribution("example-robot-data")
except importlib.metadata.PackageNotFoundError:  # pragma: no cover - the extra is missing
    _ERD = None


@pytest.mark.skipif(_ERD is None, reason="example-robot-data is not installed")
@pytest.mark.parametrize("algorithm", ["rnea", "crba", "aba"])
def test_panda_from_urdf(algorithm, rng):
    from spatial.urdf import load_urdf

    found = [f for f in _ERD.files if f.name == "panda.urdf"]
    model = load_urdf(_ERD.locate_file(found[0]))
    check(model, algorithm, rng)


def test_external_forces_one_state_and_batched(rng):
    model = builders.random_tree(rng, 6, joints=("R", "P", "S"))
    for algorithm in ("rnea", "aba"):
        f = generate(model, algorithm)
        for batch in ((), (3,)):
            q, qd, x = states(model, rng, batch)
            f_ext = rng.standard_normal((*batch, model.NB + 1, 6))
            f_ext[..., 0, :] = 0.0
            expected = DENSE[algorithm](model, q, qd, x, f_ext)
            assert rel_err(f(q, qd, x, f_ext=f_ext), expected) < TOL
            assert rel_err(f(q, qd, x, f_ext), expected) < TOL  # by position, as the dense
        assert generate(model, algorithm, f_ext=True).f_ext


def test_batch_shapes_broadcast(rng):
    model = builders.gu_chain(3)
    f = generate(model, "aba")
    q = model.random_configuration(rng, (2, 1))
    qd, tau = rng.standard_normal((2, 3, model.nv))
    got = f(q, qd, tau)
    assert got.shape == (2, 3, 3)
    assert rel_err(got, sp.aba(model, q, qd, tau)) < TOL


# ----------------------------------------------------------------------------- floating types


def test_float32_model_gives_float32_to_float32_precision(rng):
    model = builders.humanoid(True).astype(np.float32)
    f = generate(model, "aba")
    for batch in ((), (5,)):
        q, qd, tau = (x.astype(np.float32) for x in states(model, rng, batch))
        got, dense = f(q, qd, tau), sp.aba(model, q, qd, tau)
        assert got.dtype == dense.dtype == np.float32
        assert rel_err(got, dense) < 1e-4  # both round to float32 (eps 1.2e-7), differently


def test_float32_state_on_a_float64_model_computes_in_float64(rng):
    model = builders.gu_chain(4)
    q, qd, tau = (x.astype(np.float32) for x in states(model, rng))
    got = generate(model, "aba")(q, qd, tau)
    assert got.dtype == np.float64 and rel_err(got, sp.aba(model, q, qd, tau)) < TOL


def test_longdouble_is_kept(rng):
    model = builders.random_tree(rng, 5, joints=("R", "S", "P"))
    f = generate(model, "aba")
    for batch in ((), (3,)):
        q, qd, tau = (x.astype(np.longdouble) for x in states(model, rng, batch))
        got, dense = f(q, qd, tau), sp.aba(model, q, qd, tau)
        assert got.dtype == dense.dtype == np.longdouble
        # constants folded in long double, not float64: agreement beyond float64's rounding
        tol = 1e-12 if np.finfo(np.longdouble).eps == np.finfo(float).eps else 1e-15
        assert rel_err(got, dense) < tol


# ----------------------------------------------------------------------------- what it is


def test_table_10_3_by_the_tracer():
    """The book's example goes from 29 operations to 5 (Table 10.3) under the tracer's rules."""
    I, s = np.diag([1.5, 1.6, 1.7]), np.array([0.0, 0.0, 1.0])
    with tracer.tape() as t:
        v = np.array([tracer.input_symbol(f"v{k + 1}") for k in range(3)], object)
        p = np.cross(v, I @ v)
        tau = p @ s
        from spatial.symbolic.codegen import emit

        code = emit(t.nodes, [tau], [("v", list(v))], "table_10_3")
    assert code.count == OpCount(4, 1, 0)
    assert code.statements == 1  # tau_out = v1 * (1.6 v2) - v2 * (1.5 v1), one expression
    scope = {}
    exec(code.source, scope)
    v = np.array([0.3, -0.7, 1.1])
    assert scope["table_10_3"](list(v))[0] == pytest.approx(np.cross(v, I @ v) @ s)


def test_rules_zero_one_sign_constants_and_shared_products():
    with tracer.tape() as t:
        x, y = tracer.input_symbol("x"), tracer.input_symbol("y")
        assert type(x * 0.0) is float and x * 0.0 == 0.0  # a number, no node
        assert x * 1.0 is x and x + 0.0 is x and 0.0 + x is x and x - 0.0 is x and x / 1.0 is x
        assert (x - x) == 0.0 and (0.0 / x) == 0.0
        assert (2.0 * (3.0 * x)).a == 6.0  # c₁ (c₂ x) → (c₁ c₂) x
        assert x * y is y * x and (x * y) + (y * x) is (y * x) + (x * y)  # shared, commuted
        assert (-x) * y is -(x * y) and x + (-y) is x - y and -(-x) is x  # noqa: B002
        assert (-2.0 * x) is -(2.0 * x)  # a negative constant: the sign moves out
        assert (x * y).op == "*" and -(x * y) is not x * y
    assert all(n.op in ("in", "*", "+", "-", "neg") for n in t.nodes)


def test_rules_cancel_a_quotient_against_its_divisor():
    """``x (y/x) → y``, ``(y/x) x → y``, ``x/x → 1``, ``(x y)/x → y``: no node is made."""
    with tracer.tape() as t:
        x, y = tracer.input_symbol("x"), tracer.input_symbol("y")
        q = y / x
        before = len(t.nodes)
        assert x * q is y and q * x is y and x / x == 1.0 and (x * y) / x is y
        assert (y * x) / x is y and (-x) * q is -y  # noqa: B002
        assert len(t.nodes) == before + 3  # x y, -x and -y only
        u = tracer.input_symbol("u")
        assert (u * q).op == "*"  # another factor: a product


def test_rules_cancel_a_difference_against_its_subtrahend():
    """``x + (y - x) → y``, ``(y - x) + x → y``, ``(x + y) - y → x``, ``(x - y) - x → -y``,
    ``x - (x - y) → y``, ``x - (x + y) → -y``: no node is made."""
    with tracer.tape() as t:
        x, y = tracer.input_symbol("x"), tracer.input_symbol("y")
        d, s = y - x, x + y
        before = len(t.nodes)
        assert x + d is y and d + x is y and s - y is x and s - x is y
        assert (x - y) - x is -y and x - (x - y) is y and x - s is -y and y - s is -x
        assert len(t.nodes) == before + 3  # x - y, -y and -x only
        assert (x + 2.0) - x == 2.0 and x - (x - 2.0) == 2.0  # a constant is left
        u = tracer.input_symbol("u")
        assert (u + d).op == "+" and (s - u).op == "-"  # another operand: a sum


def test_the_abas_pa_row_of_a_unit_axis_is_the_joint_force():
    """``p^a = p^A + I^a c + U D⁻¹ u`` with ``S = e_k``: row ``k`` is ``p^A_k + u = τ``
    (``I^a`` has row ``k`` zero and ``U_k D⁻¹ = 1``), so it costs no operation."""
    source = generate(builders.gu_chain(3), "aba").source
    assert "pA3_1 + u2_1" not in source and "* tau2" in source  # τ₂ enters p^a directly


def test_the_articulated_inertia_of_a_revolute_joint_has_an_exact_zero_row():
    """``I^a = I^A - U D⁻¹Uᵀ`` with ``U = I^A e_3``, ``D = U_3`` has row and column 3 zero:
    the rules see it, and the generated ABA of GU(7) is within 1.5x of Table 10.1's best row."""
    f = generate(builders.gu_chain(7), "aba")
    book = sp.cost.table_10_1_cost("ABA", 7)
    assert f.count.total <= 1.5 * book.total


def test_values_of_symbols_cannot_be_traced():
    with tracer.tape():
        x = tracer.input_symbol("x")
        for use in (lambda: x < 1.0, lambda: bool(x), lambda: float(x), lambda: abs(x)):
            with pytest.raises(tracer.Untraceable):
                use()
        with pytest.raises(TypeError):
            np.sqrt(np.array([x], object))


def test_count_is_far_below_the_dense_code_and_source_reads_like_the_book():
    model = builders.gu_chain(7)
    f = generate(model, "aba")
    dense = sp.cost.dense_cost("ABA", 7)
    assert f.m < dense.mul / 2.5 and f.a < dense.add / 2.5
    assert f.count.mul == f.m and isinstance(f, GeneratedFunction)
    assert f.source.startswith("def aba(q, qd, tau):\n    q1, q2, q3, q4, q5, q6, q7 = q\n")
    assert "    cos_q1 = cos(q1)\n" in f.source
    for quantity in ("IA7", "u7", "Ia2", "pa2", "a_prime1", "qdd_i1", "v2"):  # Table 7.1's
        assert f"\n    {quantity}_1 = " in f.source
    assert f.source.count("\n    ") == f.statements + 4  # 3 unpackings and the return
    assert "del " not in f.source and "_mul(" in f.batch_source  # one ufunc call per operation


def test_a_pendulum_reduces_to_its_equation_of_motion():
    """A 1 kg point mass on a 1 m massless rod: ``q̈ = τ - g sin q``: ``sin q``, then 1m + 1a."""
    model = builders.simple_pendulum()
    f = generate(model, "aba")
    assert f.count == OpCount(1, 1, 0) and f.statements == 2
    assert "tau1 - 9.81 * sin_q1" in f.source
    q, qd, tau = np.array([0.4]), np.array([1.3]), np.array([0.2])
    assert rel_err(f(q, qd, tau), sp.aba(model, q, qd, tau)) < TOL


# ----------------------------------------------------------------------------- refusals


def test_loop_joints_are_refused():
    with pytest.raises(GenerationError, match="loop joint"):
        generate(builders.four_bar(), "aba")


def test_strict_refuses_a_joint_that_cannot_be_traced(rng):
    spline = ALL_JOINTS["SplC"]
    model = tree_of([Revolute("z"), spline], rng)
    with pytest.raises(GenerationError, match="cannot be traced"):
        generate(model, "aba", strict=True)
    f = generate(model, "aba")
    assert list(f.numeric_joints) == [2]
    check(model, "aba", rng, f)
    q, qd, tau = states(model, rng, (3,))  # one configuration, three velocities
    assert rel_err(f(q[0], qd, tau), sp.aba(model, q[0], qd, tau)) < TOL


class _LyingJoint(Joint):
    """A joint whose code takes another branch on symbols: the self-check must catch it."""

    nq = nv = 1

    def transform(self, q):
        X = Revolute("z").transform(q)
        return X @ sp.rotx(0.1) if q.dtype == object else X

    def motion_subspace(self, q):
        return Revolute("z").motion_subspace(q)


def test_a_trace_that_differs_from_the_dense_code_is_refused(rng):
    model = tree_of([_LyingJoint(), Revolute("y")], rng)
    with pytest.raises(GenerationError, match="differs from the dense algorithm"):
        generate(model, "aba")


def test_bad_arguments():
    model = builders.gu_chain(2)
    with pytest.raises(TypeError, match="spatial.Model"):
        generate("not a model")
    with pytest.raises(ValueError, match="algorithm must be one of"):
        generate(model, "hybrid")
    with pytest.raises(ValueError, match="crba takes no external forces"):
        generate(model, "crba", f_ext=True)
    f = generate(model, "aba")
    with pytest.raises(ValueError, match="q"):
        f(np.zeros(3), np.zeros(2), np.zeros(2))
    with pytest.raises(TypeError, match="missing"):
        f(np.zeros(2), np.zeros(2))
    got = f(q=np.zeros(2), qd=np.ones(2), tau=np.zeros(2))
    assert rel_err(got, sp.aba(model, [0, 0], [1, 1], [0, 0])) < TOL


def test_a_massless_subtree_raises_like_the_dense_aba():
    model = sp.Model()
    model.add_body(0, Revolute("z"), np.eye(6), np.zeros((6, 6)))
    f = generate(model, "aba")
    for q in (np.zeros(1), np.zeros((2, 1))):
        with pytest.raises(ValueError, match="singular"):
            sp.aba(model, q, np.zeros(1), np.zeros(1))
        with pytest.raises(ValueError, match="singular"):
            f(q, np.zeros(1), np.zeros(1))


def test_a_model_without_bodies():
    f = generate(sp.Model(), "aba")
    assert f(np.zeros(0), np.zeros(0), np.zeros(0)).shape == (0,)


# ----------------------------------------------------------------------------- cache


def test_cache_returns_the_same_object_for_an_equal_model_and_regenerates_a_changed_one():
    model = builders.gu_chain(5)
    f = generate(model, "rnea")
    assert generate(model, "rnea") is f
    assert generate(builders.gu_chain(5), "rnea") is f  # an equal model, built again
    assert generate(model, "crba") is not f
    model.inertia[3] = 2.0 * model.inertia[3]
    g = generate(model, "rnea")
    assert g is not f
    q, qd, qdd = np.zeros(5), np.ones(5), np.ones(5)
    assert rel_err(g(q, qd, qdd), sp.rnea(model, q, qd, qdd)) < TOL
    assert rel_err(f(q, qd, qdd), sp.rnea(builders.gu_chain(5), q, qd, qdd)) < TOL  # a copy


# ----------------------------------------------------------------------------- kernels


def test_spd_solve_on_numbers_and_on_symbols(rng):
    A = rng.standard_normal((3, 3))
    D, B = A @ A.T + 3 * np.eye(3), rng.standard_normal((3, 2))
    assert np.allclose(spd_solve(D, B), np.linalg.solve(D, B), rtol=1e-13)
    with tracer.tape() as t:
        names = [[tracer.input_symbol(f"d{i}{j}") for j in range(3)] for i in range(3)]
        x = spd_solve(np.array(names, object), B.astype(object))
        from spatial.symbolic.codegen import emit

        code = emit(t.nodes, list(x.ravel()), [("d", [n for row in names for n in row])], "f")
    scope = {}
    exec(code.source, scope)
    assert np.allclose(np.reshape(scope["f"](D.ravel().tolist()), (3, 2)), np.linalg.solve(D, B))
    assert "d01" not in code.source  # only the lower triangle of D is read


def test_symmetric_mirrors_symbols_only_while_generating(monkeypatch):
    M = np.arange(9.0).reshape(3, 3)
    assert symmetric(M) is M and symmetric(M.astype(object))[2, 0] == 6.0
    monkeypatch.setattr(_batched, "MIRROR_SYMMETRIC", True)
    assert symmetric(M) is M
    S = symmetric(M.astype(object))
    assert S[2, 0] == S[0, 2] == 2.0


# ----------------------------------------------------------------------------- simulation


def test_tree_system_with_generated_aba_simulates_like_the_dense_one(rng):
    model = builders.random_tree(rng, 5, joints=("R", "S", "P"), floating=True)
    q0 = model.random_configuration(rng)
    v0 = rng.standard_normal(model.nv)
    dense = sp.simulate(TreeSystem(model), q0, v0, 1e-3, duration=0.05)
    system = TreeSystem(model, generated=True)
    assert system.generated and "generated=True" in repr(system)
    fast = sp.simulate(system, q0, v0, 1e-3, duration=0.05)
    assert rel_err(fast.q, dense.q) < 1e-12 and rel_err(fast.v, dense.v) < 1e-12


def test_tree_system_generated_refuses_loops():
    with pytest.raises(ValueError, match="loop joint"):
        TreeSystem(builders.four_bar(), generated=True)


def test_joint_subclass_defaults_still_work():
    """A user joint with the base class's ``bias`` is traced like the library's."""

    class Twist(Joint):
        nq = nv = 1

        def transform(self, q):
            return Revolute("x").transform(q)

        def motion_subspace(self, q):
            return Revolute("x").motion_subspace(q)

    model = sp.Model()
    model.add_body(0, Twist(), np.eye(6), builders.random_inertia(np.random.default_rng(0)))
    check(model, "aba", np.random.default_rng(1))


# ----------------------------------------------------------------------------- per-call overhead


def test_one_float64_state_is_validated_without_the_general_route(rng, monkeypatch):
    """A 1-D float64 state skips ``check_state`` but its errors are still the package's."""
    model = builders.gu_chain(4)
    f = generate(model, "aba")
    q, qd, tau = states(model, rng)
    expected = sp.aba(model, q, qd, tau)
    calls = []
    original = type(f.model).check_state
    monkeypatch.setattr(
        type(f.model),
        "check_state",
        lambda self, *a, **k: calls.append(1) or original(self, *a, **k),
    )
    got = f(q, qd, tau)
    assert calls == [] and got.dtype == np.float64 and rel_err(got, expected) < TOL
    for k, name in enumerate(("q", "qd", "tau")):
        for bad in (np.nan, np.inf):
            args = [q.copy(), qd.copy(), tau.copy()]
            args[k][1] = bad
            with pytest.raises(ValueError, match=name):
                f(*args)
    huge = np.array([1e308, 1e308, 0.5, 0.5])  # finite angles whose sum overflows: computed
    assert rel_err(f(huge, qd, tau), sp.aba(model, huge, qd, tau)) < TOL
    assert rel_err(f(list(q), qd, tau), expected) < TOL  # not an array: the general route


def test_simulate_validates_the_state_once_not_at_every_stage(rng, monkeypatch):
    """``sp.simulate``'s loop runs the generated ABA through the unvalidated core."""
    model = builders.random_tree(rng, 4, joints=("R", "S", "P"), floating=True)
    q0 = np.stack([model.random_configuration(rng) for _ in range(3)])
    v0 = rng.standard_normal((3, model.nv))
    system = TreeSystem(model, generated=True)
    dense = sp.simulate(TreeSystem(model), q0, v0, 1e-3, steps=4)
    calls = []
    original = sp.Model.check_state
    monkeypatch.setattr(
        sp.Model, "check_state", lambda self, *a, **k: calls.append(1) or original(self, *a, **k)
    )
    counts = []
    for steps in (2, 4):
        calls.clear()
        fast = sp.simulate(system, q0, v0, 1e-3, steps=steps)
        counts.append(len(calls))
    assert counts[0] == counts[1]  # no check per stage or step
    assert rel_err(fast.q, dense.q) < 1e-12 and rel_err(fast.v, dense.v) < 1e-12
    tau = rng.standard_normal(model.nv)
    with_tau = sp.simulate(system, q0, v0, 1e-3, steps=2, tau=tau)
    assert (
        rel_err(with_tau.v, sp.simulate(TreeSystem(model), q0, v0, 1e-3, steps=2, tau=tau).v)
        < 1e-12
    )
    with pytest.raises(ValueError, match="tau"):
        sp.simulate(system, q0, v0, 1e-3, steps=2, tau=np.zeros(model.nv + 1))


def test_simulate_never_bypasses_a_subclass_that_overrides_accelerations(rng):
    model = builders.gu_chain(3)

    class Damped(TreeSystem):
        def accelerations(self, t, q, v, **options):
            return super().accelerations(t, q, v, tau=-5.0 * v, **options)

    q0, v0 = model.random_configuration(rng), rng.standard_normal(3)
    damped = sp.simulate(Damped(model, generated=True), q0, v0, 1e-3, steps=3)
    plain = sp.simulate(TreeSystem(model, generated=True), q0, v0, 1e-3, steps=3)
    expected = sp.simulate(TreeSystem(model), q0, v0, 1e-3, steps=3, tau=lambda t, q, v: -5.0 * v)
    assert rel_err(damped.v, expected.v) < 1e-12 and rel_err(plain.v, expected.v) > 1e-9


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_batched_code_holds_its_numbers_as_0d_arrays_of_the_computation_type(dtype, rng):
    model = builders.gu_chain(3).astype(dtype)
    f = generate(model, "aba")
    q, qd, tau = (x.astype(dtype) for x in states(model, rng, (5,)))
    got = f(q, qd, tau)
    assert got.dtype == dtype
    constants = {k: v for k, v in f._many.__globals__.items() if k.startswith("_C")}
    assert constants and all(v.shape == () and v.dtype == dtype for v in constants.values())


def test_batched_code_writes_every_operation_into_a_few_reused_buffers(rng):
    """One ufunc call per operation, ``out=`` one of a pool of arrays reused after last use."""
    model = builders.gu_chain(7)
    f = generate(model, "aba")
    calls = [s for s in f.batch_source.splitlines() if s.startswith("    _") and "(" in s]
    operations = f.m + f.a + f.trig
    assert len(calls) + f.trig == operations and " * " not in f.batch_source
    assert 0 < f._emitted.buffers < operations / 5
    for batch in ((), (2, 3)):  # a long-double state runs the batched code on 0-d buffers
        q, qd, tau = (x.astype(np.longdouble) for x in states(model, rng, batch))
        assert rel_err(f(q, qd, tau), sp.aba(model, q, qd, tau)) < TOL
