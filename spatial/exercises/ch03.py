"""Checkers for the exercises of notebook 03, "One rigid body: inertia, momentum, Newton–Euler".

03.1  the spatial inertia of a box about its centre, by hand (Sueda eq. 1.24);
03.2  the Coriolis wrench ``ad(φ)ᵀ M φ`` of Newton–Euler in body coordinates (Sueda eq. 1.21);
03.3  one Euler step on SE(3): velocity first, then ``T exp(h [φ])`` (Sueda eqs. 1.28–1.29);
03.4  (predict) which axis of a racket-shaped box is the unstable one (intermediate axis);
03.5  (model) the tennis racket: the time of its first flip, spun about that axis.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.integrate import solve_ivp

from .. import inertia, se3
from ..maximal import rigid_body
from . import assert_close, check_choice, check_number

__all__ = ["CHECKS"]


def _test_bodies(rng: np.random.Generator) -> list[np.ndarray]:
    """A box at its centre, and two rigid bodies whose frame is off the centre of mass."""
    bodies = [inertia.cuboid_inertia(2.0, 1.0, 0.5, 0.2)]
    for _ in range(2):
        T = se3.exp_se3(rng.normal(size=6))
        bodies.append(inertia.cuboid_inertia(rng.uniform(0.5, 2.0), 0.3, 0.8, 1.1, T=T))
    return bodies


def check_cuboid_inertia(cuboid_inertia: Callable) -> None:
    """03.1: ``cuboid_inertia(m, lx, ly, lz)``, the 6x6 inertia about the centre."""
    for args in [(1.0, 1.0, 1.0, 1.0), (3.0, 1.0, 2.0, 3.0), (0.5, 0.1, 2.0, 0.4)]:
        expected = inertia.cuboid_inertia(*args)
        assert_close(
            cuboid_inertia(*args),
            expected,
            "cuboid_inertia(m={}, lx={}, ly={}, lz={})".format(*args),
        )


def check_coriolis(coriolis: Callable) -> None:
    """03.2: ``coriolis(M, phi)`` returns ``ad(φ)ᵀ M φ`` for one body."""
    rng = np.random.default_rng(301)
    for M in _test_bodies(rng):
        for phi in [np.array([0.0, 0.0, 2.0, 1.0, 0.0, 0.0]), rng.normal(size=6)]:
            expected = rigid_body.coriolis_wrench(M, phi)
            assert_close(coriolis(M, phi), expected, f"coriolis(M, phi={np.round(phi, 3)})")


def check_euler_step(euler_step: Callable) -> None:
    """03.3: ``euler_step(M, T, phi, h, g)`` returns the new ``(T, phi)``."""
    rng = np.random.default_rng(302)
    g = np.array([0.0, 0.0, -9.81])
    for M in _test_bodies(rng):
        T, phi, h = se3.exp_se3(rng.normal(size=6)), rng.normal(size=6), 0.01
        T_exp, phi_exp = rigid_body.euler_step(M, T, phi, h, g=g)
        out = euler_step(M, T, phi, h, g)
        if not (isinstance(out, tuple) and len(out) == 2):
            raise AssertionError("euler_step must return a pair (T, phi)")
        assert_close(out[1], phi_exp, "new twist phi (Sueda eq. 1.28)")
        assert_close(out[0], T_exp, "new frame T (Sueda eq. 1.29: use the *new* twist)")


#: 03.4 and 03.5's racket: a uniform box of mass (kg) and edges along x, y, z (m).
RACKET = dict(m=0.3, lx=0.25, ly=0.6, lz=0.02)
AXES = ("x", "y", "z")


def racket_inertia() -> np.ndarray:
    """The racket's spatial inertia about its centre, in edge-aligned (principal) axes."""
    return inertia.cuboid_inertia(*RACKET.values())


def unstable_axis() -> str:
    """03.4's reference: the axis of the intermediate principal moment."""
    moments = np.diag(racket_inertia())[:3]
    return AXES[int(np.argsort(moments)[1])]


def check_unstable_axis(answer) -> None:
    """03.4: ``"x"``, ``"y"`` or ``"z"``, the body axis about which a spin is unstable."""
    check_choice(
        answer,
        unstable_axis(),
        options=AXES,
        what="the unstable axis",
        reread="§2 (principal axes) and §8 of this notebook, Featherstone §2.13 (eq. 2.62)",
    )


SPIN, WOBBLE = 10.0, 0.01  # 03.5: spin about the unstable axis, wobble about the others (rad/s)


def first_flip_time() -> float:
    """03.5's reference: the first time the spin about the unstable axis changes sign (s).

    The package's torque-free Newton–Euler acceleration (Sueda eq. 1.21) integrated by SciPy's
    8th-order Runge–Kutta to 1e-10, with the sign change located by its event finder.
    """
    M, k = racket_inertia(), AXES.index(unstable_axis())
    phi0 = np.zeros(6)
    phi0[:3] = WOBBLE
    phi0[k] = SPIN

    def reverses(t, phi):
        return phi[k]

    reverses.terminal, reverses.direction = True, -1
    sol = solve_ivp(
        lambda t, phi: rigid_body.newton_euler_acceleration(M, phi),
        (0.0, 10.0),
        phi0,
        method="DOP853",
        rtol=1e-10,
        atol=1e-12,
        events=reverses,
    )
    return float(sol.t_events[0][0])


def check_first_flip(answer) -> None:
    """03.5: the time of the first flip in s, within 2 %."""
    check_number(
        answer,
        first_flip_time(),
        what="the time of the first flip in s",
        reread=(
            "§6–§8 of this notebook (a step of 1 ms or less; which component reverses?), Sueda §1.8"
        ),
        rtol=0.02,
    )


CHECKS = {
    "03.1": check_cuboid_inertia,
    "03.2": check_coriolis,
    "03.3": check_euler_step,
    "03.4": check_unstable_axis,
    "03.5": check_first_flip,
}
