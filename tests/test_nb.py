"""Tests of spatial.nb (notebook set-up, widgets, exercise checks) and of the ch01–ch03 checkers."""

import sys
import types

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import spatial as sp  # noqa: E402
from spatial.exercises import ch01, ch02, ch03  # noqa: E402

# ------------------------------------------------------------------------------------ setup


@pytest.mark.parametrize(
    "fast, strict, want_fast, want_strict",
    [(None, None, False, False), ("1", "0", True, False), ("0", "yes", False, True)],
)
def test_setup_reads_environment(monkeypatch, fast, strict, want_fast, want_strict):
    for name, value in (("SPATIAL_NB_FAST", fast), ("SPATIAL_NB_STRICT", strict)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    cfg = sp.nb.setup(seed=7)
    assert (cfg.fast, cfg.strict, cfg.seed) == (want_fast, want_strict, 7)
    assert cfg.rng.random() == np.random.default_rng(7).random()


# --------------------------------------------------------------------------------- interact


def test_interact_runs_with_defaults_and_updates_result():
    calls = []

    def f(a=1.0, b=2.0):
        calls.append((a, b))
        fig, ax = plt.subplots()
        ax.plot([0, 1], [a, b])
        return a + b

    w = sp.nb.interact(f, show=False, a=(0.0, 10.0), b=(0.0, 10.0))
    assert calls == [(1.0, 2.0)]  # ran once, with the function's defaults
    assert w.result == 3.0
    assert plt.get_fignums() == []  # figures are closed after drawing
    w.children[0].value = 5.0
    assert w.result == 7.0
    w.children[1].value = 0.5
    assert w.result == 5.5
    assert plt.get_fignums() == []
    assert not any(c.continuous_update for c in w.kwargs_widgets)  # reruns on release only


def test_static_mode_shows_the_default_figure_instead_of_the_widget(monkeypatch):
    shown, displayed, calls = [], [], []
    monkeypatch.setenv("SPATIAL_STATIC", "1")
    monkeypatch.setattr(plt, "show", lambda: shown.append(len(plt.get_fignums())))
    monkeypatch.setattr("IPython.display.display", lambda *a: displayed.append(a))

    def draw(a=1.0):
        calls.append(a)
        plt.subplots()[1].plot([0, 1], [0, a])
        return a

    w = sp.nb.interact(draw, a=(0.0, 2.0))
    # the widget's own run draws nothing; a second run with the defaults shows its figure
    assert calls == [1.0, 1.0] and shown == [1] and displayed == [] and plt.get_fignums() == []
    w.children[0].value = 1.5
    assert w.result == 1.5 and shown == [1] and plt.get_fignums() == []
    monkeypatch.delenv("SPATIAL_STATIC")
    sp.nb.interact(draw, a=(0.0, 2.0))
    assert len(displayed) == 1 and shown == [1, 1]


def test_driving_a_widget_restores_what_the_reader_saw():
    runs = []

    def product(a=1.0, b=2.0):
        runs.append((a, b))
        return a * b

    w = sp.nb.interact(product, show=False, a=(0.0, 10.0), b=(0.0, 10.0))
    with sp.nb.driving(w) as controls:
        assert set(controls) == {"a", "b"}
        controls["a"].value, controls["b"].value = 4.0, 0.5
        assert w.result == 2.0
    assert [c.value for c in w.kwargs_widgets] == [1.0, 2.0] and w.result == 2.0
    assert runs == [(1.0, 2.0), (4.0, 2.0), (4.0, 0.5), (1.0, 2.0)]  # one rerun to put back
    w.children[0].value = 3.0  # the controls still drive the widget afterwards
    assert w.result == 6.0
    w.children[0].value = 1.0
    with pytest.raises(AssertionError), sp.nb.driving(w) as controls:
        controls["b"].value = 3.0
        assert w.result == 0.0  # a failing check still restores the controls
    assert w.children[1].value == 2.0 and w.result == 2.0


# ------------------------------------------------------------------------------------ check


@pytest.fixture
def ch99(monkeypatch):
    """A tiny checker module registered as spatial.exercises.ch99."""

    def square_checker(fn):
        got = fn(3.0)
        assert got == 9.0, f"square(3) should be 9, got {got}"

    module = types.ModuleType("spatial.exercises.ch99")
    module.CHECKS = {"99.1": square_checker}
    monkeypatch.setitem(sys.modules, "spatial.exercises.ch99", module)
    return module


def stub(*args):
    raise NotImplementedError


def wrong(x):
    return 2 * x


def right(x):
    return x * x


def test_check_non_strict(monkeypatch, capsys, ch99):
    monkeypatch.delenv("SPATIAL_NB_STRICT", raising=False)
    assert not sp.nb.check("99.1", stub)
    assert "not attempted" in capsys.readouterr().out
    assert not sp.nb.check("99.1", wrong)
    out = capsys.readouterr().out
    assert "not right yet" in out and "square(3) should be 9" in out
    assert sp.nb.check("99.1", right)
    assert "correct" in capsys.readouterr().out


def test_check_result_is_a_truth_value_that_a_notebook_does_not_echo(monkeypatch, capsys, ch99):
    """A check cell ends in ``sp.nb.check(...)``: only the printed verdict shows, no ``True``."""
    from IPython.core.formatters import DisplayFormatter

    monkeypatch.delenv("SPATIAL_NB_STRICT", raising=False)
    passed, failed = sp.nb.check("99.1", right), sp.nb.check("99.1", wrong)
    capsys.readouterr()
    assert bool(passed) and not failed
    assert passed.passed is True and failed.passed is False
    assert repr(passed) == "Checked(passed=True)"
    for result in (passed, failed):
        assert DisplayFormatter().format(result) == ({}, {})  # IPython's Out[] shows nothing
    assert DisplayFormatter().format(True)[0] != {}  # (a plain bool would be shown)


def test_check_strict_raises_for_a_wrong_answer_but_not_for_an_untouched_stub(
    monkeypatch, capsys, ch99
):
    """Strict mode (the notebook tests) fails a wrong answer; a stub is only "not attempted"."""
    monkeypatch.setenv("SPATIAL_NB_STRICT", "1")
    assert not sp.nb.check("99.1", stub)
    assert "Exercise 99.1: not attempted yet." in capsys.readouterr().out
    with pytest.raises(AssertionError, match="square"):
        sp.nb.check("99.1", wrong)
    assert sp.nb.check("99.1", right)


def test_check_strict_raises_for_a_reference_solution_left_as_a_stub(monkeypatch, ch99):
    """A ``solution_*`` function is the notebook's own answer: a stub there is a bug."""

    def solution_square(x):
        raise NotImplementedError

    monkeypatch.setenv("SPATIAL_NB_STRICT", "1")
    with pytest.raises(NotImplementedError):
        sp.nb.check("99.1", solution_square)
    monkeypatch.delenv("SPATIAL_NB_STRICT")
    assert not sp.nb.check("99.1", solution_square)  # outside the tests: only reported


def test_check_unknown_exercise(ch99):
    with pytest.raises(KeyError, match="99.9"):
        sp.nb.check("99.9", right)
    with pytest.raises(KeyError, match=r"'98\.1' \(no module spatial\.exercises\.ch98\)"):
        sp.nb.check("98.1", right)


@pytest.mark.parametrize("exercise", ["3.1", "03", "03.x", "ch03.1", 3.1])
def test_check_malformed_exercise_id(exercise):
    with pytest.raises(ValueError, match="exercise must be an id like '03.1'"):
        sp.nb.check(exercise, right)


# ----------------------------------------------------------------------- chapter 01 checkers


def frame_right(theta, d):
    return sp.xlt([0.0, d, 0.0]) @ sp.rotx(theta)


def frame_wrong_order(theta, d):  # moves along A's y axis instead of the rotated one
    return sp.rotx(theta) @ sp.xlt([0.0, d, 0.0])


def crm_right(v):
    w, u = sp.skew(v[:3]), sp.skew(v[3:])
    return np.block([[w, np.zeros((3, 3))], [u, w]])


def crm_wrong(v):  # the force operator instead
    return sp.crf(v)


def velocity_right(X_BA, v_A, p_B):
    v_B = X_BA @ v_A
    return v_B[3:] + np.cross(v_B[:3], p_B)


def velocity_wrong(X_BA, v_A, p_B):  # forgets to transform the velocity to B
    return v_A[3:] + np.cross(v_A[:3], p_B)


# ------------------------------------------------------------ chapter 02 and 03 checkers


def quat_product_right(p, q):
    w1, v1, w2, v2 = p[0], p[1:], q[0], q[1:]
    return np.r_[w1 * w2 - v1 @ v2, w1 * v2 + w2 * v1 + np.cross(v1, v2)]


def quat_product_wrong_order(p, q):  # q p instead of p q: differs whenever the vectors cross
    return quat_product_right(q, p)


def rodrigues_right(w):
    t = np.linalg.norm(w)
    if t < 1e-8:
        return np.eye(3) + sp.skew(w)
    W = sp.skew(w / t)
    return np.eye(3) + np.sin(t) * W + (1 - np.cos(t)) * W @ W


def rodrigues_nan_at_zero(w):  # divides by |w| without a small-angle branch
    t = np.linalg.norm(w)
    x, y, z = w / t
    W = np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
    return np.eye(3) + np.sin(t) * W + (1 - np.cos(t)) * W @ W


def rodrigues_transposed(w):  # Featherstone's coordinate rotation instead of the active one
    return rodrigues_right(w).T


def adjoint_right(E):
    R, p = E[:3, :3], E[:3, 3]
    return np.block([[R, np.zeros((3, 3))], [sp.skew(p) @ R, R]])


def adjoint_wrong_side(E):  # R p× instead of p× R in the bottom-left block
    R, p = E[:3, :3], E[:3, 3]
    return np.block([[R, np.zeros((3, 3))], [R @ sp.skew(p), R]])


def cuboid_right(m, lx, ly, lz):
    Ixx, Iyy, Izz = m / 12 * (ly**2 + lz**2), m / 12 * (lz**2 + lx**2), m / 12 * (lx**2 + ly**2)
    return np.diag([Ixx, Iyy, Izz, m, m, m])


def cuboid_own_side(m, lx, ly, lz):  # each moment from the side along its own axis
    return np.diag([m / 6 * lx**2, m / 6 * ly**2, m / 6 * lz**2, m, m, m])


def coriolis_right(M, phi):
    return sp.ad(phi).T @ M @ phi


def coriolis_no_transpose(M, phi):
    return sp.ad(phi) @ M @ phi


def euler_step_right(M, E, phi, h, g):
    f = sp.ad(phi).T @ M @ phi + M @ np.r_[0.0, 0.0, 0.0, E[:3, :3].T @ g]
    phi_new = phi + h * np.linalg.solve(M, f)
    return E @ sp.exp_se3(h * phi_new), phi_new


def euler_step_old_twist(M, E, phi, h, g):  # moves the frame with the old twist (explicit)
    _, phi_new = euler_step_right(M, E, phi, h, g)
    return E @ sp.exp_se3(h * phi), phi_new


CASES = [
    ("01.1", frame_right, frame_wrong_order),
    ("01.2", crm_right, crm_wrong),
    ("01.3", velocity_right, velocity_wrong),
    ("02.1", quat_product_right, quat_product_wrong_order),
    ("02.2", rodrigues_right, rodrigues_nan_at_zero),
    ("02.2", rodrigues_right, rodrigues_transposed),
    ("02.3", adjoint_right, adjoint_wrong_side),
    ("03.1", cuboid_right, cuboid_own_side),
    ("03.2", coriolis_right, coriolis_no_transpose),
    ("03.3", euler_step_right, euler_step_old_twist),
]


def test_every_exercise_of_notebooks_01_to_03_has_a_checker():
    # the three "implement" exercises of each have a case here; the predict and model exercises
    # (.4 and .5) are tested in tests/test_exercises_ch01.py ... ch03.py
    registered = set(ch01.CHECKS) | set(ch02.CHECKS) | set(ch03.CHECKS)
    implement = {f"0{n}.{k}" for n in (1, 2, 3) for k in (1, 2, 3)}
    assert registered == implement | {f"0{n}.{k}" for n in (1, 2, 3) for k in (4, 5)}
    assert implement == {case[0] for case in CASES}


@pytest.mark.parametrize("exercise, right_fn, wrong_fn", CASES)
def test_checkers_accept_a_right_answer_and_reject_a_typical_mistake(
    monkeypatch, exercise, right_fn, wrong_fn
):
    monkeypatch.setenv("SPATIAL_NB_STRICT", "1")
    with np.errstate(all="ignore"):  # the nan-producing mistakes must fail, not warn
        assert sp.nb.check(exercise, right_fn)
        with pytest.raises(AssertionError):
            sp.nb.check(exercise, wrong_fn)
    assert not sp.nb.check(exercise, stub)  # an untouched stub: "not attempted yet"


def test_euler_step_checker_requires_a_pair(monkeypatch):
    monkeypatch.setenv("SPATIAL_NB_STRICT", "1")
    with pytest.raises(AssertionError, match="must return a pair"):
        sp.nb.check("03.3", lambda *args: list(euler_step_right(*args)))


def test_ch01_checker_reports_wrong_shape(monkeypatch):
    monkeypatch.setenv("SPATIAL_NB_STRICT", "1")
    with pytest.raises(AssertionError, match="expected shape"):
        sp.nb.check("01.2", lambda v: np.zeros((3, 3)))
