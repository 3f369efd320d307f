"""Checkers for the exercises of notebook 18, "Attachments".

- 18.1  the attachment block ``G = R Γ(c)`` of a particle on a rigid body, angular-first (ArtiSynth
  eq. 0.36 converted to the package's ``[ω; v]`` order);
- 18.2  the masters' mass matrix after eliminating a particle on a segment (ArtiSynth §0.18, the
  example after eq. 0.35);
- 18.3  the fictitious force that an attached particle puts on its body (ArtiSynth §0.19).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import attachments, se3
from . import assert_close

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


CHECKS = {
    "18.1": check_point_block,
    "18.2": check_segment_mass,
    "18.3": check_fictitious_force,
}
