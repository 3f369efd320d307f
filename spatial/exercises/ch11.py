"""Checkers for the exercises of notebook 11, "Contact and impact" (Featherstone ch. 11).

* 11.1 the impulse of a frictionless two-body collision (Featherstone eq. 11.65);
* 11.2 the contact LCP ``ζ̇ = M λ + d`` of a rigid-body system (eqs. 11.35–11.36);
* 11.3 the impulses of a frictionless multi-contact impact with Poisson restitution;
* 11.4 (predict) the bounce after which a ball's apex first falls below a tenth of its drop
  height, for e = 0.8 (Newton's law, eq. 11.65);
* 11.5 (model) how far a box launched down an incline with friction slides before it stops
  (§7.2 of the notebook, Featherstone §11.4).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from .. import builders
from ..contact import collision, contact_lcp, delassus, impact, sliding_box
from ..inertia import sphere_inertia
from . import assert_close, check_number

__all__ = ["CHECKS"]


def check_collision_impulse(impulse: Callable) -> None:
    """11.1: ``impulse(I1, I2, v1, v2, n, e)`` is λ of eq. 11.65 (``I1 = None``: fixed body)."""
    rng = np.random.default_rng(1101)
    for fixed in (False, True):
        for e in (0.0, 0.5, 1.0):
            I1 = None if fixed else builders.random_inertia(rng)
            I2 = builders.random_inertia(rng)
            v1, v2 = rng.normal(size=6), rng.normal(size=6)
            n = rng.normal(size=6)
            expected = collision(I1, I2, v1, v2, n[:, None], e).impulse[0]
            got = impulse(I1, I2, v1.copy(), v2.copy(), n.copy(), e)
            what = f"λ for e = {e}" + (" against a fixed body" if fixed else "")
            assert_close(got, expected, what)


def check_contact_lcp(lcp: Callable) -> None:
    """11.2: ``lcp(H, force, T, tdot_qd)`` returns ``(M, d)`` of eqs. 11.35–11.36."""
    rng = np.random.default_rng(1102)
    for n, nc in ((2, 1), (4, 3), (6, 2)):
        A = rng.normal(size=(n, n))
        H = A @ A.T + n * np.eye(n)
        force, T, tdot = rng.normal(size=n), rng.normal(size=(n, nc)), rng.normal(size=nc)
        M_ref, d_ref = contact_lcp(H, force, T, tdot)
        got = lcp(H.copy(), force.copy(), T.copy(), tdot.copy())
        if not (isinstance(got, tuple) and len(got) == 2):
            raise AssertionError("return a tuple (M, d)")
        assert_close(got[0], M_ref, f"M for n={n}, nc={nc}")
        assert_close(got[1], d_ref, f"d for n={n}, nc={nc}")


def check_poisson_impulse(poisson: Callable) -> None:
    """11.3: ``poisson(W, zeta, e)`` gives the normal impulses ``(1 + e) λ_c`` (frictionless)."""
    rng = np.random.default_rng(1103)
    for nc in (1, 2, 4):
        n = nc + 3
        A = rng.normal(size=(n, n))
        J = rng.normal(size=(nc, n))
        W = delassus(A @ A.T + np.eye(n), J)
        zeta = rng.normal(size=nc) - 0.5
        for e in (0.0, 0.7):
            full = np.zeros((2 * nc, 2 * nc))  # planar layout, decoupled tangent rows
            full[:nc, :nc], full[nc:, nc:] = W, np.eye(nc)
            z = np.concatenate([zeta, np.zeros(nc)])
            expected = impact(full, z, 0.0, restitution=e, law="poisson", tangent_dim=1).normal
            assert_close(poisson(W.copy(), zeta.copy(), e), expected, f"λ for {nc} contacts, e={e}")


#: exercise 11.4: a ball of restitution BOUNCE_E dropped from BOUNCE_DROP (m)
BOUNCE_E, BOUNCE_DROP = 0.8, 0.5


def first_low_bounce(e: float = BOUNCE_E, drop: float = BOUNCE_DROP, g: float = 9.81) -> int:
    """The bounce after which the apex is first below ``drop / 10``, bounce by bounce with
    :func:`~spatial.contact.collision` (a 1 kg ball of radius 0.1 m on a fixed floor)."""
    ball = sphere_inertia(1.0, 0.1)
    normal = np.array([[0.0, 0.0, 0.0, 0.0, 0.0, 1.0]]).T  # the floor pushes along +z
    apex, n = drop, 0
    while apex >= drop / 10:
        v_in = np.array([0.0, 0.0, 0.0, 0.0, 0.0, -np.sqrt(2 * g * apex)])
        v_out = v_in + collision(None, ball, np.zeros(6), v_in, normal, e).dv2
        apex, n = v_out[5] ** 2 / (2 * g), n + 1
    return n


def check_low_bounce(answer) -> None:
    """11.4: the number of the first bounce whose apex is below a tenth of the drop height."""
    check_number(
        answer,
        first_low_bounce(),
        what="the number of that bounce",
        reread="§7.1 of this notebook (apex heights) and Featherstone §11.7 (eq. 11.65)",
        rtol=0.0,
        atol=0.1,
    )


#: exercise 11.5: the box (kg, m), its launch speed (m/s), the incline (rad) and μ
SLIDE = dict(mass=1.0, half_extents=(0.1, 0.1, 0.05), speed=1.5, slope=np.radians(10.0), mu=0.5)


@lru_cache(maxsize=4)  # one simulation per step size and session
def slide_distance(h: float = 2e-3) -> float:
    """How far the box of exercise 11.5 slides (m), by the rigid-contact stepper."""
    box = sliding_box(**SLIDE, h=h, system="free")
    run = box.simulate(duration=0.55)  # it stops after v / (g (μ cos θ - sin θ)) = 0.48 s
    return float(np.linalg.norm(run.q[-1, 0, :3, 3] - run.q[0, 0, :3, 3]))


def check_slide_distance(answer) -> None:
    """11.5: the sliding distance down the incline in m, within 3 %."""
    check_number(
        answer,
        slide_distance(),
        what="the sliding distance in m",
        reread="§7.2 of this notebook (the sliding box, its deceleration on an incline) and "
        "Featherstone §11.4 (friction)",
        rtol=3e-2,
    )


CHECKS = {
    "11.1": check_collision_impulse,
    "11.2": check_contact_lcp,
    "11.3": check_poisson_impulse,
    "11.4": check_low_bounce,
    "11.5": check_slide_distance,
}
