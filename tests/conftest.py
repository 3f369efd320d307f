"""Shared fixtures: a seeded random generator, random rigid transforms, a four-bar and its tree."""

import numpy as np
import pytest

import spatial as sp
from spatial.dynamics import loops
from spatial.joints import Revolute


@pytest.fixture
def rng():
    return np.random.default_rng(20261122)


def _uniform_rod(m: float, length: float):
    """A solid rod of radius length/20 along x from the origin, written out (not the builder's)."""
    r = length / 20.0
    I_axial, I_perp = m * r * r / 2.0, m * (3.0 * r * r + length * length) / 12.0
    return sp.mcI(m, [length / 2.0, 0.0, 0.0], np.diag([I_axial, I_perp, I_perp]))


@pytest.fixture
def four_bar_and_open_tree():
    """``(four_bar, open_tree, q, qd, tau)``: the builder's four-bar (loop joint 'pin C') and its
    spanning tree built by hand, body by body, without the loop joint; a closed state."""
    lengths = (0.3, 1.0, 0.8, 0.9)  # the builder's defaults: crank, coupler, rocker, ground
    l1, l2, l3, l0 = lengths
    tree = sp.Model(gravity=[0.0, -9.81, 0.0])
    tree.add_body(0, Revolute("z"), np.eye(6), _uniform_rod(1.0, l1), name="crank")
    tree.add_body(1, Revolute("z"), sp.xlt([l1, 0.0, 0.0]), _uniform_rod(1.0, l2), name="coupler")
    tree.add_body(0, Revolute("z"), sp.xlt([l0, 0.0, 0.0]), _uniform_rod(1.0, l3), name="rocker")
    q, G, _ = loops.four_bar_closure(*lengths).jacobians(np.array([0.8]), np.array([1.3]))
    qd = G @ np.array([1.3])
    return sp.builders.four_bar(*lengths), tree, q, qd, np.array([0.3, -0.2, 0.5])
