"""The checkers of notebooks 04 and 04b's exercises (04.4–04.9): a right answer passes, a
typical mistake fails, an untouched stub is "not attempted"."""

import numpy as np
import pytest

import spatial as sp
from spatial.exercises.ch04 import CHECKS


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
    assert sp.nb.check(exercise, right)
    with pytest.raises(AssertionError):
        sp.nb.check(exercise, wrong)
    assert not sp.nb.check(exercise, stub)


def test_split_force_checker_requires_a_pair(monkeypatch):
    monkeypatch.setenv("SPATIAL_NB_STRICT", "1")
    with pytest.raises(AssertionError, match="must return a pair"):
        sp.nb.check("04.4", lambda I, S, f: list(split_right(I, S, f)))


# The value checkers of notebooks 04 and 04b (04.6–04.9): the right answer, computed here
# independently, passes; a typical mistake fails with a hint to reread and without the answer;
# ``...`` is not attempted.


def assert_hint_only(exercise, wrong, secret):
    with pytest.raises(AssertionError, match="Reread") as err:
        CHECKS[exercise](wrong)
    assert secret not in str(err.value)


def test_counts_of_a_floating_tree():
    # a free joint: a unit quaternion and a position (7) but 6 velocities; a ball joint: a
    # quaternion (4) but 3 angular velocities; a revolute joint: 1 and 1 (Featherstone §4.4–4.5)
    CHECKS["04.6"]((7 + 4 + 1 + 1, 6 + 3 + 1 + 1))
    CHECKS["04.6"](np.array([13, 11]))
    assert_hint_only("04.6", (11, 11), "13")  # q counted like q̇
    assert_hint_only("04.6", (12, 11), "13")  # a 6-number free joint, a 4-number ball joint
    with pytest.raises(NotImplementedError):
        CHECKS["04.6"](...)


def link_matrix(a, alpha, d, theta):
    # Featherstone's DH link transform (§4.3): Trans_x(a) Rot_x(α) Trans_z(d) Rot_z(θ)
    ca, sa, ct, st = np.cos(alpha), np.sin(alpha), np.cos(theta), np.sin(theta)
    return np.array(
        [
            [ct, -st, 0, a],
            [ca * st, ca * ct, -sa, -sa * d],
            [sa * st, sa * ct, ca, ca * d],
            [0, 0, 0, 1],
        ]
    )


def scara_tool(link=link_matrix):
    q = [0.6, -1.1, 0.15, 0.8]
    T = (
        link(0.0, 0.0, 0.4, q[0])
        @ link(0.35, 0.0, 0.0, q[1])
        @ link(0.25, np.pi, q[2], 0.0)
        @ link(0.0, 0.0, 0.0, q[3])
    )
    return (T @ [0.05, 0.0, 0.1, 1.0])[:3]


def test_scara_tool_point():
    right = scara_tool()
    # on paper: the slider moves down (α = π turns z over), 0.4 - 0.15 - 0.1 = 0.15 m high;
    # in the plane the two links reach 0.35 at 0.6 rad plus 0.25 at 0.6 - 1.1 rad
    assert np.isclose(right[2], 0.15)
    reach = 0.35 * np.exp(0.6j) + 0.25 * np.exp(-0.5j)
    tool_angle = 0.6 - 1.1 - 0.8  # z is turned over: the last joint turns the other way
    tool = reach + 0.05 * np.exp(1j * tool_angle)
    assert np.allclose(right[:2], [tool.real, tool.imag])
    CHECKS["04.7"](right)
    CHECKS["04.7"](right + 9e-4)  # within the stated 1 mm

    def standard_dh(a, alpha, d, theta):  # the other convention: a, α after the joint
        return link_matrix(0, 0, d, theta) @ link_matrix(a, alpha, 0, 0)

    assert_hint_only("04.7", scara_tool(standard_dh), "0.52")
    assert_hint_only("04.7", right * [1, 1, 0] + [0, 0, 0.65], "0.52")  # the slider goes up
    with pytest.raises(NotImplementedError):
        CHECKS["04.7"](...)


def test_constraint_rows():
    # a hinge leaves 1 freedom of 6, a ball joint 3, a rolling ball 3 (ω free, v = ω × R e_z)
    CHECKS["04.8"]((5, 3, 3))
    assert_hint_only("04.8", (1, 3, 3), "5")  # the freedoms, not the constraints
    assert_hint_only("04.8", (5, 3, 5), "5")  # the rolling ball's contact point counted as fixed
    with pytest.raises(NotImplementedError):
        CHECKS["04.8"](...)


def test_pushed_ball():
    # Newton on paper: m a = F + f_floor, (2/5 m R²) α = R F - R f_floor, rolling a = α R
    # give a = 10/7 F/m: faster than a free ball (the floor pushes forward)
    m, F = 2.0, 1.0
    right = 10 / 7 * F / m
    CHECKS["04.9"](right)
    CHECKS["04.9"](right * 1.004)  # within the stated 0.5 %
    assert_hint_only("04.9", 5 / 7 * F / m, "0.714")  # pushed at the centre
    assert_hint_only("04.9", F / m, "0.714")  # no floor
    with pytest.raises(NotImplementedError):
        CHECKS["04.9"](...)
