"""Tests of spatial.nb (notebook set-up, widgets, exercise checks) and of the ch01 checkers."""

import sys
import types

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import spatial as sp  # noqa: E402
from spatial.exercises import ch01  # noqa: E402

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
    assert sp.nb.check("99.1", stub) is False
    assert "not attempted" in capsys.readouterr().out
    assert sp.nb.check("99.1", wrong) is False
    out = capsys.readouterr().out
    assert "not right yet" in out and "square(3) should be 9" in out
    assert sp.nb.check("99.1", right) is True
    assert "correct" in capsys.readouterr().out


def test_check_strict_raises(monkeypatch, ch99):
    monkeypatch.setenv("SPATIAL_NB_STRICT", "1")
    with pytest.raises(NotImplementedError):
        sp.nb.check("99.1", stub)
    with pytest.raises(AssertionError, match="square"):
        sp.nb.check("99.1", wrong)
    assert sp.nb.check("99.1", right) is True


def test_check_unknown_exercise(ch99):
    with pytest.raises(KeyError, match="99.9"):
        sp.nb.check("99.9", right)


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


@pytest.mark.parametrize(
    "exercise, right_fn, wrong_fn",
    [
        ("01.1", frame_right, frame_wrong_order),
        ("01.2", crm_right, crm_wrong),
        ("01.3", velocity_right, velocity_wrong),
    ],
)
def test_ch01_checkers(monkeypatch, exercise, right_fn, wrong_fn):
    monkeypatch.setenv("SPATIAL_NB_STRICT", "1")
    assert set(ch01.CHECKS) == {"01.1", "01.2", "01.3"}
    assert sp.nb.check(exercise, right_fn) is True
    with pytest.raises(AssertionError):
        sp.nb.check(exercise, wrong_fn)
    with pytest.raises(NotImplementedError):
        sp.nb.check(exercise, stub)


def test_ch01_checker_reports_wrong_shape(monkeypatch):
    monkeypatch.setenv("SPATIAL_NB_STRICT", "1")
    with pytest.raises(AssertionError, match="expected shape"):
        sp.nb.check("01.2", lambda v: np.zeros((3, 3)))
