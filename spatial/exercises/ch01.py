"""Checkers for the exercises of notebook 01, "Spatial vectors and Plücker transforms".

01.1  build ``X_BA`` from a verbal description of frame B (Featherstone §2.8, Table 2.2);
01.2  implement the motion cross operator ``crm`` from eq. 2.31;
01.3  the velocity of a body point from a spatial velocity given in another frame (eq. 2.1);
01.4  (predict) which of six 6D quantities are force vectors, moved with ``X*`` (§2.2, §2.13);
01.5  (model) a tool's weight as a force vector about the flange, in flange coordinates (eq. 2.25).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import vectors
from . import assert_close, check_choice, check_number

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


#: 01.4's options, as the exercise lists them.
FORCE_LIKE_OPTIONS = ("a", "b", "c", "d", "e", "f")
#: The force vectors among them (Featherstone §2.2 and §2.13: momentum and impulse are force
#: vectors; eq. 2.32: ``v ×* f`` is the derivative of a force; an acceleration, a relative
#: velocity and ``v × m`` are motion vectors, eqs. 2.29, 2.47).
FORCE_LIKE = {"a", "c", "e"}


def check_force_like(answer) -> None:
    """01.4: the letters of the quantities that transform as force vectors."""
    check_choice(
        answer,
        FORCE_LIKE,
        options=FORCE_LIKE_OPTIONS,
        what="the set of force vectors",
        reread="§2 and §5 of this notebook, Featherstone §2.2–2.3 and §2.13",
    )


#: 01.5's tool and flange, as the exercise states them (kg, m, m/s²).
TOOL_MASS = 1.5
TOOL_COM_B = np.array([0.03, 0.05, 0.12])  # centre of mass, flange (B) coordinates
FLANGE_ORIGIN_A = np.array([0.4, -0.2, 0.6])  # B's origin, A coordinates
FLANGE_TURN_X = np.pi / 2  # B is A turned by this about A's x axis (rad)
GRAVITY_A = np.array([0.0, 0.0, -9.81])


def tool_gravity_wrench() -> np.ndarray:
    """01.5's reference: gravity on the tool as ``[n_B; f]`` about B's origin, B coordinates."""
    X_BA = vectors.plux(vectors.rx(FLANGE_TURN_X), FLANGE_ORIGIN_A)
    E, r = vectors.unplux(X_BA)
    f_A = vectors.point_force(TOOL_MASS * GRAVITY_A, E.T @ TOOL_COM_B + r)
    return vectors.apply_force(X_BA, f_A)


def check_tool_wrench(answer) -> None:
    """01.5: the 6-vector ``[n; f]``, within 1e-3 (N m, N) in every entry."""
    check_number(
        answer,
        tool_gravity_wrench(),
        what="the gravity wrench on the tool in B coordinates, [n; f] (N m, N)",
        reread="§2 and §3 of this notebook, Featherstone §2.3 (eq. 2.6) and §2.8 (eq. 2.25)",
        rtol=0.0,
        atol=1e-3,
    )


CHECKS = {
    "01.1": check_frame_description,
    "01.2": check_crm,
    "01.3": check_point_velocity,
    "01.4": check_force_like,
    "01.5": check_tool_wrench,
}
