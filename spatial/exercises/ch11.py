"""Checkers for the exercises of notebook 11, "Contact and impact" (Featherstone ch. 11).

11.1  the impulse of a frictionless two-body collision (Featherstone eq. 11.65);
11.2  the contact LCP ``ζ̇ = M λ + d`` of a rigid-body system (eqs. 11.35–11.36);
11.3  the impulses of a frictionless multi-contact impact with Poisson restitution.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import builders
from ..contact import collision, contact_lcp, delassus, impact
from . import assert_close

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


CHECKS = {
    "11.1": check_collision_impulse,
    "11.2": check_contact_lcp,
    "11.3": check_poisson_impulse,
}
