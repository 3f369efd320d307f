"""The checkers of notebook 04b's exercises (04.4, 04.5): a right answer passes, a typical
mistake fails, an untouched stub is "not attempted"."""

import numpy as np
import pytest

import spatial as sp


def split_right(I, S, f):
    f_a = I @ S @ np.linalg.solve(S.T @ I @ S, S.T @ f)  # eq. 3.28
    return f_a, f - f_a


def split_euclidean(I, S, f):
    f_a = S @ np.linalg.solve(S.T @ S, S.T @ f)  # projects onto S as if forces were motions
    return f_a, f - f_a


def incidence_right(parent):
    n = len(parent) - 1
    P = np.zeros((6 * n, 6 * n))
    for j in range(1, n + 1):
        P[6 * j - 6 : 6 * j, 6 * j - 6 : 6 * j] = np.eye(6)
        if parent[j] > 0:
            P[6 * parent[j] - 6 : 6 * parent[j], 6 * j - 6 : 6 * j] = -np.eye(6)
    return P


def incidence_transposed(parent):
    return incidence_right(parent).T  # body and joint indices swapped


def stub(*args):
    raise NotImplementedError


@pytest.mark.parametrize(
    "exercise, right, wrong",
    [("04.4", split_right, split_euclidean), ("04.5", incidence_right, incidence_transposed)],
)
def test_checkers_of_notebook_04b(monkeypatch, exercise, right, wrong):
    monkeypatch.setenv("SPATIAL_NB_STRICT", "1")
    assert sp.nb.check(exercise, right) is True
    with pytest.raises(AssertionError):
        sp.nb.check(exercise, wrong)
    assert sp.nb.check(exercise, stub) is False


def test_split_force_checker_requires_a_pair(monkeypatch):
    monkeypatch.setenv("SPATIAL_NB_STRICT", "1")
    with pytest.raises(AssertionError, match="must return a pair"):
        sp.nb.check("04.4", lambda I, S, f: list(split_right(I, S, f)))
