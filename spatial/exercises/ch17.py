"""Checkers for the exercises of notebook 17, "Complementarity: LCP, QP, pivoting, Gauss–Seidel,
friction".

* 17.1 the complementarity error ``max_i |min(z_i, w_i)|`` of a candidate LCP solution;
* 17.2 one sweep of projected Gauss–Seidel (ArtiSynth eq. 0.17 with a projection);
* 17.3 the LCP of an inequality-constrained QP (ArtiSynth §0.3);
* 17.4 (predict) which of two contacts push, for a 2x2 LCP whose q says both approach;
* 17.5 (predict) the normal velocity with which Sueda's single friction QP lifts a sliding point
  mass off the ground (Sueda eq. 1.88);
* 17.6 (model) how far a box sliding on the floor with Coulomb friction travels in a time-stepping
  simulation (ArtiSynth §0.10, Anitescu–Stewart).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..contact import (
    ContactParams,
    complementarity_error,
    pgs_sweep,
    qp_to_lcp,
    simulate,
    sliding_box,
)
from ..solvers import lemke, pyramid_friction
from . import check_choice, check_number

__all__ = ["CHECKS"]


def _compare(got, expected, what: str, tol: float = 1e-9) -> None:
    got = np.asarray(got, dtype=float)
    expected = np.asarray(expected, dtype=float)
    if got.shape != expected.shape:
        raise AssertionError(f"{what}: expected shape {expected.shape}, got {got.shape}")
    err = np.abs(got - expected).max(initial=0.0)
    if not err <= tol * max(1.0, np.abs(expected).max(initial=0.0)):
        raise AssertionError(
            f"{what}: largest difference {err:.3g}.\nexpected\n{expected}\ngot\n{got}"
        )


def check_complementarity_error(error: Callable) -> None:
    """17.1: ``error(z, w)`` is 0 exactly at an LCP solution and measures every violation."""
    cases = [
        ([0.0, 2.0], [3.0, 0.0], "a solution"),
        ([1.0, 2.0], [3.0, 0.0], "z1 and w1 both positive"),
        ([-0.5, 0.0], [3.0, 1.0], "a negative z"),
        ([0.0, 0.0], [3.0, -0.25], "a negative w"),
        ([0.2, 0.0, 4.0], [0.1, -1.0, 0.0], "several violations"),
    ]
    for z, w, label in cases:
        _compare(error(np.array(z), np.array(w)), complementarity_error(z, w), label)


def check_pgs_sweep(sweep: Callable) -> None:
    """17.2: ``sweep(M, q, z)`` returns the iterate after one projected Gauss–Seidel sweep."""
    rng = np.random.default_rng(1702)
    for n in (1, 2, 5):
        A = rng.normal(size=(n, n))
        M = A @ A.T + n * np.eye(n)
        q, z = rng.normal(size=n), np.abs(rng.normal(size=n))
        expected = pgs_sweep(M, q, z)
        z_in = z.copy()
        got = sweep(M.copy(), q.copy(), z_in)
        if not np.array_equal(z_in, z):
            raise AssertionError("the sweep changed its input z: work on a copy")
        jacobi = np.maximum(0.0, z - (M @ z + q) / np.diag(M))
        if n > 1 and np.allclose(got, jacobi) and not np.allclose(expected, jacobi):
            raise AssertionError(
                "this is a Jacobi sweep: use the z_j already updated in this sweep for j < i"
            )
        _compare(got, expected, f"one sweep for n = {n}")


def check_qp_to_lcp(convert: Callable) -> None:
    """17.3: ``convert(H, c, A, b)`` returns ``(M, q)`` of the LCP equivalent to the QP."""
    rng = np.random.default_rng(1703)
    for nx, m in ((2, 1), (3, 4), (5, 2)):
        R = rng.normal(size=(nx, nx))
        H = R @ R.T + np.eye(nx)
        c, A, b = rng.normal(size=nx), rng.normal(size=(m, nx)), rng.normal(size=m)
        M_ref, q_ref = qp_to_lcp(H, c, A, b)
        got = convert(H, c, A, b)
        if not (isinstance(got, tuple) and len(got) == 2):
            raise AssertionError("return a tuple (M, q)")
        _compare(got[0], M_ref, f"M for nx={nx}, m={m}")
        _compare(got[1], q_ref, f"q for nx={nx}, m={m}")


#: The LCP of exercise 17.4: both entries of q negative (both contacts would approach alone).
LCP_17_4 = (np.array([[2.0, 1.0], [1.0, 2.0]]), np.array([-2.0, -0.5]))


def check_pushing_contacts(contacts) -> None:
    """17.4: the set of contacts (numbered 1, 2) with a positive impulse in ``LCP_17_4``."""
    z = lemke(*LCP_17_4).check().z
    check_choice(
        contacts,
        {i + 1 for i in range(2) if z[i] > 1e-9},
        options={1, 2},
        what="the set of pushing contacts",
        reread="§1–2 of this notebook (complementary cones), Featherstone §11.4–11.5",
    )


def check_qp_lift_off(normal_velocity) -> None:
    """17.5: normal velocity (m/s) after the pyramid QP step: m = 2 kg, a = 1 m/s, s = 2 m/s."""
    mass, approach, slip, mu = 2.0, 1.0, 2.0, 0.5
    W, u = np.eye(3) / mass, np.array([-approach, slip, 0.0])
    check_number(
        normal_velocity,
        pyramid_friction(W, u, mu, k=4).normal_velocity[0],
        what="the normal velocity after the step in m/s",
        reread="§8 of this notebook (Sueda's single QP), Sueda eq. 1.88",
        rtol=0.01,
    )


def check_sliding_distance(distance) -> None:
    """17.6: how far (m) the 2 kg box of §8 slides from 1.5 m/s with μ = 0.5, h = 5 ms."""
    box = sliding_box(mu=0.5, speed=1.5, half_extents=(0.2, 0.1, 0.1), mass=2.0, system="free")
    params = ContactParams(mu=0.5, friction="polyhedral", k=4)
    run = simulate(box.scene, box.q0, box.v0, 0.4, 5e-3, params)
    check_number(
        distance,
        run.q[-1, 0, 0, 3] - run.q[0, 0, 0, 3],
        what="the sliding distance in m",
        reread="§8 of this notebook (friction models) and notebook 11, ArtiSynth §0.10",
        rtol=0.02,
    )


CHECKS = {
    "17.1": check_complementarity_error,
    "17.2": check_pgs_sweep,
    "17.3": check_qp_to_lcp,
    "17.4": check_pushing_contacts,
    "17.5": check_qp_lift_off,
    "17.6": check_sliding_distance,
}
