"""Checkers for the exercises of notebook 02, "Rotations: quaternions, Euler angles, exp, SE(3)".

02.1  the quaternion product, scalar first ``(w, x, y, z)`` (ArtiSynth §0.2);
02.2  Rodrigues' formula for ``exp([w])``, including ``w = 0`` (Sueda eq. 1.10);
02.3  the adjoint ``Ad(T)`` of a rigid frame (Sueda eq. 1.14).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import rotations, se3
from . import assert_close

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


CHECKS = {"02.1": check_quat_product, "02.2": check_rodrigues, "02.3": check_adjoint}
