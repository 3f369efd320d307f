"""Tests of spatial.viz.orders.convergence_plot: fitted slopes, guides, legend and input checks."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from spatial.viz import convergence_plot


@pytest.fixture
def ax():
    fig, ax = plt.subplots()
    yield ax
    plt.close(fig)


def test_slopes_of_power_laws_are_their_exponents(ax):
    hs = np.array([0.1, 0.05, 0.025, 0.0125])
    errors = {"one": (hs, 3.0 * hs), "four": (hs, 0.5 * hs**4), "two": (hs, 2.0 * hs**2)}
    slopes = convergence_plot(ax, errors, {"one": 1, "two": 2, "four": 4}, labels={"one": "Euler"})
    assert slopes == pytest.approx({"one": 1.0, "two": 2.0, "four": 4.0}, abs=1e-12)
    assert ax.get_xscale() == ax.get_yscale() == "log"
    # three curves, three dotted guides (one per order), one legend entry for the guides
    guides = [
        line for line in ax.get_lines() if line.get_linestyle() == ":" and len(line.get_xdata())
    ]
    assert len(guides) == 3
    for line in guides:  # each guide is a straight line of an integer slope
        x, y = np.log(line.get_xdata()), np.log(line.get_ydata())
        assert np.polyfit(x, y, 1)[0] in (pytest.approx(1), pytest.approx(2), pytest.approx(4))
    labels = [line.get_label() for line in ax.get_lines()]
    assert "Euler (slope 1.00)" in labels and "slope guides $h^p$" in labels
    assert {t.get_text() for t in ax.texts} == {"$h^{1}$", "$h^{2}$", "$h^{4}$"}


def test_the_guide_lies_below_its_curve(ax):
    hs = np.array([0.2, 0.1, 0.05])
    convergence_plot(ax, {"m": (hs, hs**2)}, {"m": 2}, styles={"m": {"color": "C3", "ls": "--"}})
    curve, guide = ax.get_lines()[0], ax.get_lines()[1]
    assert curve.get_linestyle() == "--"
    assert np.all(np.sort(guide.get_ydata()) < np.sort(curve.get_ydata()))


@pytest.mark.parametrize(
    ("errors", "orders", "message"),
    [
        ({}, {}, "at least one method"),
        ({"m": ([0.1, 0.05], [1.0, 0.5])}, {}, "no entry for the method 'm'"),
        ({"m": ([0.1], [1.0])}, {"m": 1}, "same length ≥ 2"),
        ({"m": ([0.1, 0.05], [1.0, 0.5, 0.2])}, {"m": 1}, "same length"),
        ({"m": ([0.1, 0.05], [1.0, 0.0])}, {"m": 1}, "must be positive"),
        ({"m": ([0.1, 0.05], [1.0, 0.5], [3.0])}, {"m": 1}, "must be a pair"),
    ],
)
def test_bad_input_is_refused(ax, errors, orders, message):
    with pytest.raises(ValueError, match=message):
        convergence_plot(ax, errors, orders)
