"""Checkers for the exercises of notebook 12, "Maximal coordinates: forces, joints and contact".

12.1  the constraint rows of a ball joint from material Jacobians (Sueda eqs. 1.12, 1.69);
12.2  the KKT step: new velocities and constraint impulses (Sueda eqs. 1.73–1.74, ArtiSynth §0.6);
12.3  the contact row of a body-fixed point on the ground (Sueda eqs. 1.75–1.76).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import se3
from ..builders import random_inertia
from ..contact import solve_kkt
from ..joints import Spherical
from ..maximal import GroundPlane, System, constraint_jacobian, contact_jacobian
from . import assert_close

__all__ = ["CHECKS"]


def check_ball_joint_rows(ball_joint_rows: Callable) -> None:
    """12.1: ``ball_joint_rows(T_parent, T_child, r_p, r_c)``, the 3 x 12 ball-joint rows."""
    rng = np.random.default_rng(1201)
    for _ in range(3):
        r_p, r_c = rng.normal(size=3), rng.normal(size=3)
        system = System()
        system.add_body(random_inertia(rng))
        system.add_body(random_inertia(rng))
        joint = Spherical()
        system.add_joint(
            joint,
            1,
            2,
            parent_frame=se3.frame(np.eye(3), r_p),
            child_frame=se3.frame(np.eye(3), r_c),
        )
        T_parent = se3.exp_se3(rng.normal(size=6))
        turn = se3.frame(se3.exp_so3(rng.normal(size=3)), np.zeros(3))
        T_child = T_parent @ se3.frame(np.eye(3), r_p) @ turn @ se3.frame(np.eye(3), -r_c)
        G = constraint_jacobian(system, np.stack([T_parent, T_child]))
        T_c = joint.constraint_subspace(joint.neutral())  # spans the forces [0; f]
        assert np.allclose(T_c[:3], 0.0)
        expected = T_c[3:] @ G  # the same rows in the child's axes, 3 x 12
        got = ball_joint_rows(T_parent, T_child, r_p, r_c)
        assert_close(got, expected, "ball-joint rows [-R_cᵀR_p Γ(r_p), Γ(r_c)]")


def check_kkt_solve(kkt_solve: Callable) -> None:
    """12.2: ``kkt_solve(M, G, f, rhs) -> (phi, lam)``: ``M phi = f + Gᵀlam``, ``G phi = rhs``."""
    rng = np.random.default_rng(1202)
    for n, m in [(6, 3), (12, 10), (18, 5)]:
        A = rng.normal(size=(n, n))
        M = A @ A.T + n * np.eye(n)
        G, f, rhs = rng.normal(size=(m, n)), rng.normal(size=n), rng.normal(size=m)
        out = kkt_solve(M, G, f, rhs)
        if not (isinstance(out, tuple) and len(out) == 2):
            raise AssertionError("kkt_solve must return a pair (phi, lam)")
        phi, lam = solve_kkt(M, G, f, rhs)
        assert_close(out[0], phi, "new velocities phi")
        assert_close(out[1], lam, "constraint impulses lam (sign: M phi = f + Gᵀ lam)")


def check_contact_row(contact_row: Callable) -> None:
    """12.3: ``contact_row(T, r, n)``, the normal contact row ``nᵀ R Γ(r)`` (6,)."""
    rng = np.random.default_rng(1203)
    for _ in range(3):
        r = rng.normal(size=3)
        n = rng.normal(size=3)
        n /= np.linalg.norm(n)
        system = System()
        system.add_body(random_inertia(rng))
        system.add_contact_points(1, [r])
        T = se3.exp_se3(rng.normal(size=6))
        J, _ = contact_jacobian(system, T[None], GroundPlane(normal=n, margin=np.inf))
        assert_close(contact_row(T, r, n), J[0], "contact row nᵀ R Γ(r)")


CHECKS = {"12.1": check_ball_joint_rows, "12.2": check_kkt_solve, "12.3": check_contact_row}
