"""Checkers for the exercises of notebook 02, "Rotations: quaternions, Euler angles, exp, SE(3)".

02.1  the quaternion product, scalar first ``(w, x, y, z)`` (ArtiSynth §0.2);
02.2  Rodrigues' formula for ``exp([w])``, including ``w = 0`` (Sueda eq. 1.10);
02.3  the adjoint ``Ad(T)`` of a rigid frame (Sueda eq. 1.14);
02.4  (predict) the rotation angle of the quaternion ``(-1/2, 1/2, 1/2, 1/2)`` (the double cover);
02.5  (model) integrate an orientation with a time-varying body angular velocity (eq. 4.13).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.integrate import solve_ivp

from .. import rotations, se3
from . import assert_close, check_number

__all__ = ["CHECKS"]


def check_quat_product(quat_product: Callable) -> None:
    """02.1: ``quat_product(p, q)`` returns ``p q`` for two scalar-first quaternions."""
    rng = np.random.default_rng(201)
    one, i, j, k = np.eye(4)
    cases = [(i, j), (j, i), (k, k), (one, rng.normal(size=4)), *rng.normal(size=(3, 2, 4))]
    for p, q in cases:
        expected = rotations.quat_multiply(p, q)
        assert_close(
            quat_product(p, q), expected, f"quat_product({np.round(p, 3)}, {np.round(q, 3)})"
        )


def check_rodrigues(rodrigues: Callable) -> None:
    """02.2: ``rodrigues(w)`` returns the rotation matrix ``exp([w])`` for one rotation vector."""
    rng = np.random.default_rng(202)
    n = rng.normal(size=3)
    n /= np.linalg.norm(n)
    cases = [np.zeros(3), 1e-12 * n, [0.0, 0.0, np.pi / 2], np.pi * n, 5.0 * n, rng.normal(size=3)]
    for w in cases:
        w = np.asarray(w, dtype=float)
        assert_close(rodrigues(w), se3.exp_so3(w), f"rodrigues({np.round(w, 3)})", tol=1e-12)


def check_adjoint(adjoint: Callable) -> None:
    """02.3: ``adjoint(T)`` returns the 6x6 ``Ad(T)`` of one 4x4 rigid frame."""
    rng = np.random.default_rng(203)
    frames = [
        np.eye(4),
        se3.exp_se3([0.0, 0.0, 0.0, 1.0, 2.0, 3.0]),
        se3.exp_se3([0.0, 0.0, np.pi / 2, 0.0, 0.0, 0.0]),
        *se3.exp_se3(rng.normal(size=(3, 6))),
    ]
    for T in frames:
        assert_close(adjoint(T), se3.Ad(T), f"adjoint(T) for T =\n{np.round(T, 3)}\n")


#: 02.4's quaternion, scalar first, as the exercise gives it.
QUATERNION = np.array([-0.5, 0.5, 0.5, 0.5])


def check_quaternion_angle(answer) -> None:
    """02.4: the angle of the rotation ``QUATERNION`` stands for, in degrees within [0, 180]."""
    expected = np.degrees(np.linalg.norm(rotations.quat_to_rotvec(QUATERNION)))
    check_number(
        answer,
        expected,
        what="the rotation angle in degrees",
        reread="§2 of this notebook (the double cover), ArtiSynth §0.2, Featherstone eq. 4.10",
        rtol=0.0,
        atol=0.5,
    )


def body_omega(t: float) -> np.ndarray:
    """02.5's ``ω(t) = (1, 0, t)`` rad/s, in body coordinates."""
    return np.array([1.0, 0.0, t])


SPIN_UP_TIME = 2.0  # 02.5's horizon (s)


def spun_up_z_axis() -> np.ndarray:
    """02.5's reference: the body's z axis in world coordinates at ``SPIN_UP_TIME``.

    The quaternion rate of the package (``q̇ = ½ q (0, ω)``, ω in body coordinates) integrated
    to 1e-11 by SciPy's adaptive Runge–Kutta.
    """
    sol = solve_ivp(
        lambda t, q: rotations.quat_rate(q, body_omega(t), frame="body"),
        (0.0, SPIN_UP_TIME),
        [1.0, 0.0, 0.0, 0.0],
        rtol=1e-11,
        atol=1e-12,
    )
    R = rotations.quat_to_matrix(rotations.quat_normalize(sol.y[:, -1]))
    return R[:, 2]


def check_spun_up_axis(answer) -> None:
    """02.5: the body's z axis in world coordinates at t = 2 s, within 0.01 per entry."""
    check_number(
        answer,
        spun_up_z_axis(),
        what="the body's z axis in world coordinates at t = 2 s",
        reread=(
            "§2 of this notebook (quaternion rates and integration), Featherstone eq. 4.13, "
            "Sueda §1.8 (body or world angular velocity?)"
        ),
        rtol=0.0,
        atol=0.01,
    )


CHECKS = {
    "02.1": check_quat_product,
    "02.2": check_rodrigues,
    "02.3": check_adjoint,
    "02.4": check_quaternion_angle,
    "02.5": check_spun_up_axis,
}
