"""Checkers for the exercises of notebook 12, "Maximal coordinates: forces, joints and contact".

* 12.1 the constraint rows of a ball joint from material Jacobians (Sueda eqs. 1.12, 1.69);
* 12.2 the KKT step: new velocities and constraint impulses (Sueda eqs. 1.73–1.74, ArtiSynth §0.6);
* 12.3 the contact row of a body-fixed point on the ground (Sueda eqs. 1.75–1.76);
* 12.4 (predict) the size of the KKT matrix of a chain of four bodies joined by ball joints;
* 12.5 (predict) the factor by which one step with Baumgarte gain γh = 1.5 multiplies a joint error
  (Sueda eq. 1.82);
* 12.6 (model) the force in the top hinge of a two-link chain at the instant of release (Sueda
  eqs. 1.73–1.74, Featherstone §5.3).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import se3
from ..builders import planar_chain, random_inertia
from ..contact import solve_kkt
from ..inertia import cuboid_inertia
from ..joints import Spherical
from ..maximal import (
    GroundPlane,
    System,
    constraint_jacobian,
    contact_jacobian,
    from_model,
    kkt_step,
    maximal_state,
    simulate_system,
)
from . import assert_close, check_number

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


def check_ball_chain_kkt_size(size) -> None:
    """12.4: rows of the square KKT matrix of four bodies in a chain of ball joints."""
    system = System()
    for _ in range(4):
        system.add_body(cuboid_inertia(1.0, 0.1, 0.1, 1.0))
    up, down = se3.frame(np.eye(3), [0.0, 0.0, 0.5]), se3.frame(np.eye(3), [0.0, 0.0, -0.5])
    for child in range(1, 5):  # joint 1 ties body 1 to the world (0)
        system.add_joint(Spherical(), child - 1, child, down if child > 1 else None, up)
    G = constraint_jacobian(system, np.stack([np.eye(4)] * 4))
    expected = G.shape[1] + G.shape[0]  # [[M, -Gᵀ], [G, 0]]: 6 per body + the joints' rows
    check_number(
        size,
        expected,
        what="the number of rows of the KKT matrix",
        reread="§2–3 of this notebook (which rows a joint keeps; the KKT step), Sueda §1.9–1.10",
        rtol=0.0,
    )


def check_baumgarte_factor(factor) -> None:
    """12.5: the signed ratio g⁺/g of one step with γh = 1.5 (the displaced link of §5)."""
    h = 0.01
    model = planar_chain(3)
    T, _ = maximal_state(model, np.zeros(3), np.zeros(3))
    T[1, 0, 3] += 1e-3  # link 2 pulled 1 mm off its hinge, at rest
    run = simulate_system(from_model(model), T, np.zeros((3, 6)), h, 1, baumgarte=1.5 / h)
    k = np.argmax(np.abs(run.error[0]))
    check_number(
        factor,
        run.error[1, k] / run.error[0, k],
        what="the factor g⁺/g (signed)",
        reread="§5 of this notebook (Baumgarte's fix), Sueda §1.12 eq. 1.82",
        rtol=0.0,
        atol=0.01,
    )


def check_release_hinge_force(force) -> None:
    """12.6: |f| (N) in the top hinge of ``planar_chain(2)`` released at rest from (0.6, -0.6)."""
    model = planar_chain(2)
    T, phi = maximal_state(model, np.array([0.6, -0.6]), np.zeros(2))
    wrench = kkt_step(from_model(model), T, phi, 1e-3).joint_wrench[0]  # from rest: exact
    check_number(
        force,
        np.linalg.norm(wrench[3:]),
        what="the force in the top hinge in N",
        reread="§3 of this notebook (the reaction forces), Sueda eqs. 1.73–1.74, Featherstone §5.3",
        rtol=0.01,
    )


CHECKS = {
    "12.1": check_ball_joint_rows,
    "12.2": check_kkt_solve,
    "12.3": check_contact_row,
    "12.4": check_ball_chain_kkt_size,
    "12.5": check_baumgarte_factor,
    "12.6": check_release_hinge_force,
}
