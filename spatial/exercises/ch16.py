"""Checkers for the exercises of notebook 16, "Time integration and soft constraints".

16.1  the one-step matrix of the trapezoidal rule on an undamped oscillator (ArtiSynth §0.9.3);
16.2  the regularization of a soft constraint: γ and the KKT diagonal γα/h² (ArtiSynth §0.11);
16.3  the modified energy that symplectic Euler conserves under a constant force (§0.9.1);
16.4  (predict) the largest stable symplectic-Euler step for an oscillator of ω = 10 rad/s;
16.5  (model) the largest energy ratio E/E₀ of symplectic Euler on a given oscillator over 10 s.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..integrators import LinearOscillator, regularization, step
from . import assert_close, check_number

__all__ = ["CHECKS"]


def check_trapezoidal_matrix(trapezoidal_matrix: Callable) -> None:
    """16.1: ``trapezoidal_matrix(h, omega)`` maps ``(x, v)`` over one step of ẍ = -ω²x."""
    for h, w in ((0.1, 2.0), (0.5, 7.0), (0.01, 30.0)):
        expected = LinearOscillator(1.0, w * w).step_matrix("trapezoidal", h)
        got = np.asarray(trapezoidal_matrix(h, w), dtype=float)
        euler = LinearOscillator(1.0, w * w).step_matrix("implicit-euler", h)
        if got.shape == (2, 2) and np.allclose(got, euler):
            raise AssertionError("this is backward Euler's matrix; average the start and end")
        assert_close(
            got,
            expected,
            f"trapezoidal step matrix at h = {h}, ω = {w} ((1 - hA/2)⁻¹(1 + hA/2), "
            "A = [[0, 1], [-ω², 0]])",
        )


def check_soft_parameters(soft_parameters: Callable) -> None:
    """16.2: ``soft_parameters(h, alpha, beta)`` returns ``(γ, γα/h²)``."""
    for h, alpha, beta in ((0.01, 1e-3, 0.0), (0.002, 1e-5, 0.01), (0.1, 0.5, 0.2)):
        gamma, diagonal = regularization(h, alpha, beta)
        got = np.asarray(soft_parameters(h, alpha, beta), dtype=float)
        assert_close(
            got,
            np.array([gamma, diagonal]),
            f"(γ, γα/h²) at h = {h}, α = {alpha}, β = {beta} (γ = 1/(1/2 + β/h), eq. 0.9)",
        )


def check_modified_energy(modified_energy: Callable) -> None:
    """16.3: ``modified_energy(x, v, h, g)`` is constant along symplectic Euler for ẍ = -g."""
    rng = np.random.default_rng(1603)
    for _ in range(3):
        x, v = rng.uniform(0.5, 2.0), rng.uniform(-1.0, 1.0)
        h, g = rng.uniform(1e-3, 5e-2), rng.uniform(1.0, 10.0)
        base = float(modified_energy(x, 0.0, h, g))
        if not np.isclose(base, g * x, rtol=1e-12, atol=1e-12):
            raise AssertionError(
                f"at rest it should be the potential energy g x = {g * x:.6g} (unit mass), "
                f"got {base:.6g}"
            )
        values = []
        for _ in range(40):
            v = v - h * g
            x = x + h * v
            values.append(float(modified_energy(x, v, h, g)))
        spread = np.ptp(values)
        if not spread <= 1e-10 * max(1.0, abs(values[0])):
            raise AssertionError(
                f"not conserved by v⁺ = v - hg, x⁺ = x + hv⁺: it varies by {spread:.3g} over 40 "
                "steps (the plain energy ½v² + gx drifts by (hg/2)·Δv)"
            )


def _stable(omega: float, h: float) -> bool:
    M = LinearOscillator(1.0, omega * omega).step_matrix("symplectic-euler", h)
    return bool(np.max(np.abs(np.linalg.eigvals(M))) <= 1.0 + 1e-9)


def check_largest_step(value) -> None:
    """16.4: the largest h for which symplectic Euler stays bounded on ẍ = -100 x, in s."""
    lo, hi = 1e-3, 1.0  # bisect the package's one-step matrix for its spectral radius
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if _stable(10.0, mid) else (lo, mid)
    check_number(
        value,
        lo,
        what="the largest stable step in s",
        reread="§1.2 of this notebook (ArtiSynth §0.9.1)",
        rtol=0.02,
    )


def check_energy_ratio(value) -> None:
    """16.5: max E/E₀ of symplectic Euler, m = 2 kg, k = 200 N/m, x₀ = 0.1 m, h = 0.05 s, 10 s."""
    osc = LinearOscillator(2.0, 200.0)
    q, v = np.array([0.1]), np.array([0.0])
    e0, top = float(sum(osc.energy(q, v))), 1.0
    for _ in range(200):
        out = step(osc, 0.0, q, v, 0.05, integrator="symplectic-euler")
        q, v = out.q, out.v
        top = max(top, float(sum(osc.energy(q, v))) / e0)
    check_number(
        value,
        top,
        what="the largest E/E₀ over the 10 s",
        reread="§2 of this notebook (ArtiSynth §0.9.1)",
        rtol=0.01,
    )


CHECKS = {
    "16.1": check_trapezoidal_matrix,
    "16.2": check_soft_parameters,
    "16.3": check_modified_energy,
    "16.4": check_largest_step,
    "16.5": check_energy_ratio,
}
