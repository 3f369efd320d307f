"""Checkers for the exercises of notebook 18, "Attachments".

- 18.1  the attachment block ``G = R Γ(c)`` of a particle on a rigid body, angular-first (ArtiSynth
  eq. 0.36 converted to the package's ``[ω; v]`` order);
- 18.2  the masters' mass matrix after eliminating a particle on a segment (ArtiSynth §0.18, the
  example after eq. 0.35);
- 18.3  the fictitious force that an attached particle puts on its body (ArtiSynth §0.19);
- 18.4  (predict) the coupling that a particle at a segment's midpoint adds between its two
  masters (ArtiSynth §0.18);
- 18.5  (model) the small-oscillation period of a rod pendulum carrying a payload at its tip.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import attachments, se3
from ..dynamics import crba, rnea
from ..inertia import cylinder_inertia, point_mass_inertia
from ..joints import Revolute
from ..model import Model
from . import assert_close, check_number

__all__ = ["CHECKS"]


def check_point_block(block: Callable) -> None:
    """18.1: ``block(R, c)`` returns the 3x6 ``G`` with ``v_p = G [ω; v]``."""
    rng = np.random.default_rng(1801)
    for _ in range(3):
        R, c = se3.exp_so3(rng.normal(size=3)), rng.normal(size=3)
        expected = attachments.point_on_body(1, 0, c, R=R).blocks[0]
        got = np.asarray(block(R, c), dtype=float)
        if got.shape == (3, 6) and np.allclose(got[:, [3, 4, 5, 0, 1, 2]], expected):
            raise AssertionError(
                "that is the notes' linear-first order (v, ω); the package's twist is [ω; v]"
            )
        if got.shape == (3, 6) and np.allclose(got, -expected):
            raise AssertionError(
                "that is the notes' sign (v_p + G v = 0); the package uses v_p = G v"
            )
        assert_close(got, expected, "G = R [[c]ᵀ, 1] = R [-[c], 1] (v_p = R (v + ω × c))")


def check_segment_mass(mass: Callable) -> None:
    """18.2: ``mass(m1, m2, mk, w1)`` returns the 6x6 reduced mass of particles 1 and 2."""
    for m1, m2, mk, w1 in [(1.0, 2.0, 0.5, 0.3), (0.2, 0.7, 3.0, 0.9), (1.0, 1.0, 1.0, 0.5)]:
        att = attachments.Attachments(
            [3, 3, 3], [attachments.weighted_point(2, [0, 1], [w1, 1.0 - w1])]
        )
        M = np.diag([m1] * 3 + [m2] * 3 + [mk] * 3)
        expected = attachments.reduce(att, M).M
        got = np.asarray(mass(m1, m2, mk, w1), dtype=float)
        if got.shape == (6, 6) and np.allclose(got[:3, 3:], 0.0):
            raise AssertionError(
                "the masters are coupled: the off-diagonal blocks are w1 w2 mk 1, not zero"
            )
        assert_close(got, expected, "M' = M + mk [w1; w2][w1, w2] ⊗ 1₃ (ArtiSynth §0.18)")


def check_fictitious_force(force: Callable) -> None:
    """18.3: ``force(m, c, phi)`` returns the 6-vector added to the body's force."""
    rng = np.random.default_rng(1803)
    for _ in range(3):
        m, c, phi = rng.uniform(0.1, 2.0), rng.normal(size=3), rng.normal(size=6)
        expected = attachments.fictitious_force(m, c, phi)
        got = np.asarray(force(m, c, phi), dtype=float)
        if got.shape == (6,) and np.allclose(got, -expected):
            raise AssertionError("wrong sign: the force is -m Γᵀ Ġφ, it appears on the right side")
        assert_close(got, expected, "-m Γ(c)ᵀ (ω × (v + ω × c)) (ArtiSynth eq. 0.23, §0.19)")


def check_midpoint_coupling(coupling) -> None:
    """18.4: the x-x entry coupling particles 1 (1 kg) and 2 (2 kg) after eliminating 0.6 kg at
    their midpoint."""
    mid = attachments.Attachments([3, 3, 3], [attachments.weighted_point(2, [0, 1], [0.5, 0.5])])
    expected = attachments.reduce(mid, np.diag([1.0] * 3 + [2.0] * 3 + [0.6] * 3)).M[0, 3]
    check_number(
        coupling,
        expected,
        what="the coupling entry of the masters' mass matrix, in kg",
        reread="§3 of this notebook (several masters), ArtiSynth §0.18",
        rtol=1e-2,
    )


def payload_pendulum(payload: float = 0.5) -> Model:
    """The rod pendulum of 18.5: a 1 kg, 1 m rod (radius 0.02 m) hinged at its top about y, with
    a particle of ``payload`` kg at its lower tip eliminated into the rod's inertia."""
    model = Model(gravity=[0.0, 0.0, -9.81])
    rod_down = se3.frame(np.eye(3), [0.0, 0.0, -0.5])
    model.add_body(0, Revolute("y"), np.eye(6), cylinder_inertia(1.0, 0.02, 1.0, T=rod_down))
    model.inertia[1] = model.inertia[1] + point_mass_inertia(payload, [0.0, 0.0, -1.0])
    return model


def small_oscillation_period(model: Model, eps: float = 1e-6) -> float:
    """``2π sqrt(M/K)`` of a one-joint model about ``q = 0`` (``K`` by a central difference)."""
    stiffness = (rnea(model, [eps], [0.0], [0.0]) - rnea(model, [-eps], [0.0], [0.0]))[0]
    return float(2 * np.pi * np.sqrt(crba(model, [0.0])[0, 0] / (stiffness / (2 * eps))))


def check_payload_period(period) -> None:
    """18.5: the small-oscillation period (s) of the rod pendulum with its payload, within 1 %."""
    check_number(
        period,
        small_oscillation_period(payload_pendulum()),
        what="the small-oscillation period, in s",
        reread="§4 of this notebook (added inertia), ArtiSynth §0.19, Featherstone §6.1 (CRBA)",
        rtol=1e-2,
    )


CHECKS = {
    "18.1": check_point_block,
    "18.2": check_segment_mass,
    "18.3": check_fictitious_force,
    "18.4": check_midpoint_coupling,
    "18.5": check_payload_period,
}
