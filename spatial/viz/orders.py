"""Convergence plots: global error against step size on log–log axes, with slope guides.

The order of a method is the slope of log(error) against log(h); the plot draws each measured
curve, a dotted guide of slope p for each expected order p, and returns the fitted slopes so that a
notebook can assert them against the declared orders (``spatial.integrators.ORDERS``).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .._validate import positive_array

__all__ = ["convergence_plot"]


def convergence_plot(ax, errors: Mapping, orders: Mapping, *, labels=None, styles=None) -> dict:
    """Draw errors against step sizes on log–log axes with slope guides; return the slopes.

    Parameters
    ----------
    ax : matplotlib Axes
    errors : mapping of str to (array_like, array_like)
        For each method, its step sizes ``h`` and the global errors measured with them (at least
        two, all positive).
    orders : mapping of str to int
        The expected order of every method in ``errors``; one dotted guide ``C h^p`` is drawn per
        distinct order, a quarter below the first curve of that order at its smallest step.
    labels : mapping of str to str, optional
        Legend names (default: the keys); the fitted slope is appended.
    styles : mapping of str to dict, optional
        Keyword arguments of ``ax.loglog`` per method (colour, line style, marker).

    Returns
    -------
    dict of str to float
        The least-squares slope of ``log(error)`` against ``log(h)`` of each method.

    Raises
    ------
    ValueError
        If ``errors`` is empty, a method has fewer than two points, step sizes and errors differ in
        length or are not positive and finite, or a method has no entry in ``orders``.
    """
    if not errors:
        raise ValueError("errors must name at least one method, got an empty mapping")
    labels, styles = labels or {}, styles or {}
    data, slopes = {}, {}
    for name, pair in errors.items():
        if name not in orders:
            raise ValueError(f"orders has no entry for the method {name!r}")
        if len(pair) != 2:
            raise ValueError(
                f"errors[{name!r}] must be a pair (steps, errors), got {len(pair)} items"
            )
        hs, errs = (positive_array(x, f"errors[{name!r}]") for x in pair)
        if hs.ndim != 1 or hs.shape != errs.shape or len(hs) < 2:
            raise ValueError(
                f"errors[{name!r}] must be two 1-D arrays of the same length ≥ 2 (steps, errors), "
                f"got shapes {hs.shape} and {errs.shape}"
            )
        data[name] = hs, errs
        slopes[name] = float(np.polyfit(np.log(hs), np.log(errs), 1)[0])
        label = f"{labels.get(name, name)} (slope {slopes[name]:.2f})"
        ax.loglog(hs, errs, label=label, **{"marker": "o", "ms": 5, **styles.get(name, {})})
    for p in sorted({orders[name] for name in data}):
        hs, errs = next(data[name] for name in data if orders[name] == p)
        small = np.argmin(hs)
        line = np.sort(hs)
        guide = 0.25 * errs[small] * (line / hs[small]) ** p
        ax.loglog(line, guide, "k:", lw=1)
        ax.annotate(
            f"$h^{{{p}}}$", (line[-1], guide[-1]), textcoords="offset points", xytext=(4, 0)
        )
    ax.plot([], [], "k:", lw=1, label="slope guides $h^p$")
    ax.set(xlabel="step h (s)", ylabel="global error")
    return slopes
