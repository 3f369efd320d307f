"""The symbolic executer and simplifier of Featherstone §10.4, with SymPy as the oracle."""

import numpy as np
import pytest

import spatial as sp
from spatial import builders, symbolic
from spatial.planar import Xpln, crm

sympy = pytest.importorskip("sympy")


def _to_sympy(program):
    """Each output of ``program`` as a SymPy expression of its inputs (definitions inlined)."""
    symbols = {}
    for name, size in program.inputs.items():
        if size is None:
            symbols[name] = sympy.Symbol(name)
        for k in range(size or 0):
            symbols[f"{name}({k + 1})"] = sympy.Symbol(f"{name}{k + 1}")
    ops = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}
    ops["/"] = lambda a, b: a / b

    def convert(e):
        if e.op == "var":
            return symbols[e.args[0]]
        if e.op == "const":
            return sympy.Float(e.args[0], 30)
        if e.op == "neg":
            return -convert(e.args[0])
        return ops[e.op](*(convert(a) for a in e.args))

    for target, e in program.statements:
        symbols[target] = convert(e)
    return [symbols[t] for t in program.outputs]


def _same(a, b, tol=1e-12):
    diff = sympy.expand(a - b)
    return all(abs(float(c)) < tol for c in sympy.Poly(diff).coeffs()) if diff != 0 else True


def test_table_10_3_goes_from_29_operations_to_5():
    recorded = symbolic.table_10_3()
    assert len(recorded.statements) == 7
    assert recorded.operations().total == 29
    assert (recorded.operations().mul, recorded.operations().add) == (18, 11)
    simplified = recorded.simplify()
    assert simplified.operations().total == 5
    # the book's source-code file, line for line
    assert simplified.source().splitlines() == [
        "tmp001 = 1.5 * v(1)",
        "tmp002 = 1.6 * v(2)",
        "p(3) = v(1) * tmp002 - v(2) * tmp001",
        "tau_out = p(3)",
    ]


def test_table_10_3_is_equal_to_its_simplification_and_to_the_optimum_by_sympy():
    recorded = symbolic.table_10_3()
    simplified = recorded.simplify()
    (before,), (after,) = _to_sympy(recorded), _to_sympy(simplified)
    v1, v2 = sympy.symbols("v1 v2")
    assert _same(before, after)
    # the optimum the book mentions, 0.1 v1 v2, which these rules do not reach
    assert _same(after, sympy.Float("0.1", 30) * v1 * v2, tol=1e-14)
    # SymPy's own count of the expanded optimum is 2 operations against our 5
    assert sympy.count_ops(sympy.nsimplify(sympy.expand(after), rational=True)) == 2


def test_simplification_reaches_a_fixed_point_and_runs():
    recorded = symbolic.table_10_3(I=np.diag([2.0, 3.0, 5.0]), s=[1.0, 0.0, 0.0])
    once = recorded.simplify()
    assert once.simplify().source() == once.source()
    fn = once.compile()
    v = np.array([0.3, -1.2, 0.7])
    I = np.diag([2.0, 3.0, 5.0])
    assert fn(v=v)["tau_out"] == pytest.approx(np.cross(v, I @ v)[0], rel=1e-15)


def test_rules_one_at_a_time():
    ex = symbolic.Executer()
    x, y = ex.input("x"), ex.input("y")
    a = ex.assign("a", x * 0 + y * 1)  # x·0 → 0, y·1 → y, 0 + y → y: then a copy of y
    b = ex.assign("b", (2.0 + 3.0) * a - 0)  # constant folding, x - 0 → x
    ex.assign("unused", x * y)  # dead code
    ex.output("out", b * (1.0 - 1.0) + b)
    program = ex.program().simplify()
    assert program.source().splitlines() == ["b = 5 * y", "out = b"]
    assert program.compile()(x=7.0, y=2.0) == {"out": 10.0}
    assert symbolic.count_operations(x * y + x * y).total == 3  # two products, one sum
    shared = x * y
    assert symbolic.count_operations(shared + shared).total == 2  # computed once


def test_bad_input_is_named():
    ex = symbolic.Executer()
    ex.input("v", 2)
    with pytest.raises(ValueError, match="input 'v' is already defined"):
        ex.input("v")
    ex.assign("p", 1.0)
    with pytest.raises(ValueError, match="'p' is assigned twice"):
        ex.assign("p", 2.0)
    with pytest.raises(TypeError, match="cannot use 'abc'"):
        symbolic.Expr.wrap("abc")
    rng = np.random.default_rng(1)
    with pytest.raises(ValueError, match="body 1: the planar RNEA needs revolute joints about z"):
        symbolic.planar_chain_data(builders.random_tree(rng, 2, joints=("Rx",)))
    with pytest.raises(ValueError, match="body 1: X_tree leaves the x-y plane"):
        symbolic.planar_chain_data(builders.gu_chain(2))
    model = builders.planar_chain(2)
    model.gravity = np.array([0.0, 0.0, -9.81])
    with pytest.raises(ValueError, match="leaves the x-y plane of a planar model"):
        symbolic.planar_chain_data(model)


def test_planar_operators_match_the_package():
    q = 0.37
    c, s = np.cos(q), np.sin(q)
    assert np.allclose(symbolic.examples._planar_rotation(c, s).astype(float), Xpln(q, [0.0, 0.0]))
    v = np.array([0.3, -1.1, 2.0])
    assert np.allclose(symbolic.examples._planar_crm(v).astype(float), crm(v))


@pytest.mark.parametrize("n", [2, 3])
def test_generated_rnea_equals_rnea(n):
    model = builders.planar_chain(n, length=0.8, mass=1.3)
    recorded, simplified = symbolic.generate_planar_rnea(model)
    rng = np.random.default_rng(n)
    q, qd, qdd = rng.normal(size=(3, n))
    expected = sp.rnea(model, q, qd, qdd)
    args = {"c": np.cos(q), "s": np.sin(q), "qd": qd, "qdd": qdd}
    for program in (recorded, simplified):
        out = program.compile()(**args)
        tau = np.array([out[f"tau({k + 1})"] for k in range(n)])
        np.testing.assert_allclose(tau, expected, rtol=1e-12, atol=1e-12)
    # the numeric run of the same algorithm agrees too
    data = symbolic.planar_chain_data(model)
    tau = symbolic.planar_rnea(data, np.cos(q), np.sin(q), qd, qdd).astype(float)
    np.testing.assert_allclose(tau, expected, rtol=1e-12, atol=1e-12)
    # simplification pays: the model's zeros remove most of the work
    assert simplified.operations().total < recorded.operations().total / 2


def test_generated_rnea_equals_the_recorded_one_symbolically():
    model = builders.planar_chain(2)
    recorded, simplified = symbolic.generate_planar_rnea(model)
    for a, b in zip(_to_sympy(recorded), _to_sympy(simplified), strict=True):
        assert _same(a, b, tol=1e-9)


# --------------------------------------------------------------------------- counting per line


def _three_lines(x, y):
    a = x * y + x  # 1m + 1a
    b = (
        a * a  # one statement over three lines: 2m + 1a
        - a * y
    )
    total = 0.0  # a plain number: nothing to count
    for _ in range(2):
        total = total + b / x  # 1m + 1a per pass, both passes
    return np.cos(x) * total  # cos is free: 1m


def test_count_lines_charges_each_statement_by_hand():
    x, y = symbolic.angle_symbols("x", 1)[0], symbolic.symbol_array("y", (1,))[0]
    result, lines = symbolic.count_lines(_three_lines, x, y)
    got = [(line.source.split()[0], line.hits, line.ops.mul, line.ops.add) for line in lines]
    assert got == [("a", 1, 1, 1), ("b", 1, 2, 1), ("total", 2, 2, 2), ("return", 1, 1, 0)]
    assert "- a * y" in lines[1].source  # the whole statement, not its first line
    assert symbolic.count_operations(result) == symbolic.OpCount(6, 4)


def test_count_lines_restores_the_previous_tracer_and_charges_callees_to_callers():
    import sys

    def outer(x):
        u = _three_lines(x, x)  # the callee's 6m + 4a, charged to this line
        return u + x

    x = symbolic.angle_symbols("x", 1)[0]
    before = sys.gettrace()
    _, lines = symbolic.count_lines(outer, x)
    assert sys.gettrace() is before
    assert [(line.ops.mul, line.ops.add) for line in lines] == [(6, 4), (0, 1)]
    _, lines = symbolic.count_lines(outer, x, charge=[outer, _three_lines])
    assert sum(line.ops.mul for line in lines) == 6 and len(lines) == 5


def test_count_lines_bad_input_is_named():
    with pytest.raises(TypeError, match="needs Python functions"):
        symbolic.count_lines(np.add, 1.0, 2.0)


def test_count_lines_survives_a_cycle_of_containers():
    def loop(x):
        box = [x * x]
        box.append(box)  # a list that holds itself
        return box[0] + x

    _, lines = symbolic.count_lines(loop, symbolic.symbol_array("x", (1,))[0])
    assert [(line.ops.mul, line.ops.add) for line in lines] == [(1, 0), (0, 1)]


def test_count_lines_without_source_charges_line_numbers():
    namespace = {}
    exec(compile("def f(x):\n    y = x * x\n    return y + x\n", "<made>", "exec"), namespace)
    _, lines = symbolic.count_lines(namespace["f"], symbolic.symbol_array("x", (1,))[0])
    assert [(line.lineno, line.source, line.ops.mul, line.ops.add) for line in lines] == [
        (2, "", 1, 0),
        (3, "", 0, 1),
    ]


# ----------------------------------------------------------------------------- bad input


def test_unknown_operators_and_malformed_nodes_are_refused():
    with pytest.raises(ValueError, match=r"unknown operator 'pow': an Expr's op is one of 'var'"):
        symbolic.Expr("pow", 1, 2)  # it was accepted and counted as no operation
    x = symbolic.Expr("var", "x")
    with pytest.raises(ValueError, match="operator '\\+' takes 2 argument"):
        symbolic.Expr("+", x)
    with pytest.raises(TypeError, match="operands of '\\*' must be Expr nodes"):
        symbolic.Expr("*", x, 2.0)
    with pytest.raises(TypeError, match="a variable's name must be a str"):
        symbolic.Expr("var", 5)
    with pytest.raises(TypeError, match="a constant must be a real number"):
        symbolic.Expr("const", "1")
    assert repr(symbolic.Expr("const", float("nan"))) == "nan"


def test_counting_something_that_is_not_an_expression_is_an_error():
    with pytest.raises(TypeError, match="count_operations takes expressions .* got str 'a\\+b'"):
        symbolic.count_operations("a+b")  # was "0m + 0a"
    with pytest.raises(TypeError, match="count_operations takes expressions"):
        symbolic.count_operations(np.array([symbolic.Expr("var", "x"), "y"], dtype=object))
    x = symbolic.symbol_array("x", (2,))
    assert str(symbolic.count_operations(x[0] * x[1], 0.0)) == "1m + 0a"  # numbers count nothing
    with pytest.raises(TypeError, match="tree_count takes an Expr, got str"):
        symbolic.tree_count("a")
    with pytest.raises(TypeError, match="format_expr takes an Expr"):
        symbolic.format_expr("a", {})
    with pytest.raises(TypeError, match="names must be a mapping"):
        symbolic.format_expr(x[0], 5)
    with pytest.raises(TypeError, match="charge must be a sequence of functions"):
        symbolic.count_lines(lambda a: a + 1, x[0], charge=5)


def test_symbol_factories_and_table_10_3_check_their_arguments():
    with pytest.raises(ValueError, match=r"shape\[0\] must be a non-negative integer, got -1"):
        symbolic.symbol_array("x", (-1,))
    with pytest.raises(ValueError, match="n must be a non-negative integer, got -2"):
        symbolic.angle_symbols("q", -2)
    with pytest.raises(ValueError, match="n must be a non-negative integer, got 2.0"):
        symbolic.angle_symbols("q", 2.0)
    with pytest.raises(ValueError, match="name must be a non-empty string"):
        symbolic.symbol_array("", (2,))
    assert symbolic.symbol_array("x", 3).shape == (3,)
    with pytest.raises(ValueError, match=r"I must be a 3x3 matrix .* got shape \(6, 6\)"):
        symbolic.table_10_3(I=np.eye(6))
    with pytest.raises(ValueError, match="s must have length 3"):
        symbolic.table_10_3(s=np.ones(2))
    with pytest.raises(ValueError, match="^I must be real"):
        symbolic.table_10_3(I=np.eye(3) + 0j)


def test_executer_and_compiled_programs_check_sizes_and_names():
    ex = symbolic.Executer()
    with pytest.raises(ValueError, match="size must be a positive integer, got -1"):
        ex.input("v", -1)  # was an empty vector
    with pytest.raises(ValueError, match="size must be a positive integer, got 1.5"):
        ex.input("w", 1.5)
    with pytest.raises(ValueError, match="input name must be a Python identifier"):
        ex.input("a b", 2)
    with pytest.raises(ValueError, match="values must be a scalar or a vector"):
        ex.assign("m", symbolic.symbol_array("x", (2, 2)))
    run = symbolic.table_10_3().compile()
    assert run(np.array([1.0, 2.0, 3.0]))["tau_out"] == pytest.approx(0.1 * 1.0 * 2.0)
    with pytest.raises(ValueError, match=r"input v must have 3 entries .* got shape \(2,\)"):
        run(np.ones(2))  # was an IndexError inside the generated code


def test_planar_rnea_and_chain_data_check_their_arguments():
    data = symbolic.planar_chain_data(builders.planar_chain(3))
    with pytest.raises(ValueError, match="c must be a sequence of length NB = 3"):
        symbolic.planar_rnea(data, [1.0], [0.0], [0.0], [0.0])
    with pytest.raises(ValueError, match="model must be a spatial.Model, got str"):
        symbolic.planar_chain_data("model")
