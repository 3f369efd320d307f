"""Checkers for the exercises of notebook 01, "Spatial vectors and Plücker transforms".

01.1  build ``X_BA`` from a verbal description of frame B (Featherstone §2.8, Table 2.2);
01.2  implement the motion cross operator ``crm`` from eq. 2.31;
01.3  the velocity of a body point from a spatial velocity given in another frame (eq. 2.1).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import vectors
from . import assert_close

__all__ = ["CHECKS"]


def check_frame_description(X_BA: Callable) -> None:
    """01.1: B = A turned by ``theta`` about A's x axis, then moved ``d`` along the new y axis."""
    for theta, d in [(0.0, 1.0), (np.pi / 2, 0.0), (0.4, -1.5), (-2.0, 0.7)]:
        expected = vectors.xlt([0.0, d, 0.0]) @ vectors.rotx(theta)
        assert_close(X_BA(theta, d), expected, f"X_BA(theta={theta:.3g}, d={d:.3g})")


def check_crm(crm: Callable) -> None:
    """01.2: ``crm(v)`` returns the 6x6 matrix of eq. 2.31 for one motion vector ``v``."""
    rng = np.random.default_rng(101)
    for v in [
        np.array([1.0, 0, 0, 0, 0, 0]),
        np.array([0, 0, 0, 0, 1.0, 0]),
        *rng.normal(size=(3, 6)),
    ]:
        assert_close(crm(v), vectors.crm(v), f"crm({np.round(v, 3)})")


def check_point_velocity(point_velocity_in_B: Callable) -> None:
    """01.3: linear velocity, in B coordinates, of the body point at ``p_B`` (B coordinates)."""
    rng = np.random.default_rng(102)
    for _ in range(4):
        X_BA = vectors.plux(
            vectors.rz(rng.uniform(-3, 3)) @ vectors.rx(rng.uniform(-3, 3)), rng.normal(size=3)
        )
        v_A, p_B = rng.normal(size=6), rng.normal(size=3)
        expected = vectors.point_velocity(X_BA @ v_A, p_B)
        assert_close(point_velocity_in_B(X_BA, v_A, p_B), expected, "point velocity")


CHECKS = {"01.1": check_frame_description, "01.2": check_crm, "01.3": check_point_velocity}
