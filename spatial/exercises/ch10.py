"""Checkers for the exercises of notebook 10, "Accuracy and efficiency".

* 10.1 the branch counts ``D₀`` and ``D₁`` of the CRBA from a parent array (Featherstone eqs.
  10.4–10.5);
* 10.2 the rotation of a symmetric matrix about z in 8m + 7a (App. A.5), checked for its value and,
  by running it on symbols, for its operation count;
* 10.3 the joint-space inertia matrix of a two-link planar arm from Lagrange's equations, against
  the CRBA (Table 6.2);
* 10.4 (predict) which of the generated ABA, RNEA and CRBA grow faster than linearly in n on GU(n)
  (Table 10.1, eqs. 10.2–10.5);
* 10.5 (predict) how many multiplications per revolute joint about z the zeros and the one of
  ``S = e_z`` remove from ``U_i = I^A_i S_i`` and ``D_i = S_iᵀ U_i`` (§10.4);
* 10.6 (model) the operation count of the generated ABA of a seven-link planar arm as a fraction
  of that of GU(7) (§10.4).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..builders import gu_chain, planar_chain, random_tree
from ..cost import TABLE_10_1, crba_counts
from ..dynamics import crba
from ..planar import inertia_params, restrict
from ..symbolic import Expr, count_operations, generate
from ..symbolic.tracer import input_symbol, tape
from ..vectors import rz
from . import assert_close, check_choice, check_number

__all__ = ["CHECKS"]


def check_branch_counts(counts: Callable) -> None:
    """10.1: ``counts(lam)`` returns ``(D0, D1)`` for a 0-based parent array (``-1``: base)."""
    rng = np.random.default_rng(1001)
    cases = [[-1, 0, 1, 2], [-1, -1, -1], [-1, 0, 0, 1, 1, 2, 2]]
    cases += [list(np.asarray(random_tree(rng, 9, ("R",), branching=0.6).parent[1:]) - 1)]
    for lam in cases:
        expected = crba_counts(lam)
        got = tuple(int(x) for x in counts(list(lam)))
        if got != (expected.D0, expected.D1):
            raise AssertionError(
                f"for λ = {list(lam)} expected (D0, D1) = ({expected.D0}, {expected.D1}), got "
                f"{got}: D0 = n - |μ(0)| counts bodies not on the base (eq. 10.4), D1 = "
                "Σ (|κ(i)| - 1) counts (body, proper ancestor) pairs (eq. 10.5)"
            )


def check_rotate_symmetric_z(rotate: Callable) -> None:
    """10.2: ``rotate(c, s, cs, s2, two_cs, one_minus_2s2, A)`` returns ``lt(rz A rzᵀ)``.

    ``A`` is the lower triangle ``(A11, A21, A22, A31, A32, A33)``; so is the result.
    """
    rng = np.random.default_rng(1002)
    for _ in range(3):
        theta = rng.uniform(-3, 3)
        c, s = np.cos(theta), np.sin(theta)
        B = rng.normal(size=(3, 3))
        A = B + B.T
        lt = [(0, 0), (1, 0), (1, 1), (2, 0), (2, 1), (2, 2)]
        expected = [(rz(theta) @ A @ rz(theta).T)[i, j] for i, j in lt]
        got = rotate(c, s, c * s, s * s, 2 * c * s, 1 - 2 * s * s, [A[i, j] for i, j in lt])
        assert_close(got, expected, "lt(rz(θ) A rz(θ)ᵀ) (Featherstone App. A.5)")
    symbols = [Expr("var", name) for name in ("c", "s", "cs", "s2", "twocs", "om2s2")]
    A_sym = [Expr("var", f"A{i}{j}") for i, j in ((1, 1), (2, 1), (2, 2), (3, 1), (3, 2), (3, 3))]
    counted = count_operations(list(rotate(*symbols, A_sym)))
    if counted.mul > 8 or counted.add > 7:
        raise AssertionError(
            f"the value is right but it costs {counted}; App. A.5 does it in 8m + 7a "
            "(hint: the 2x2 block needs only α and β)"
        )


def check_two_link_H(H_of: Callable) -> None:
    """10.3: ``H_of(q2, m, l, I_c)`` returns the 2x2 ``H`` of two identical uniform links."""
    rng = np.random.default_rng(1003)
    for length, mass in [(1.0, 1.0), (0.8, 1.3), (0.5, 2.5)]:
        model = planar_chain(2, length=length, mass=mass)
        _, _, I_c = inertia_params(restrict(model.inertia[1]))
        for q in rng.uniform(-3, 3, size=(2, 2)):
            assert_close(
                H_of(q[1], mass, length, float(I_c)),
                crba(model, q),
                "H(q) of the two-link arm from Lagrange's equations (compare with the CRBA)",
            )


ALGORITHMS = ("aba", "rnea", "crba")


def check_superlinear(answer) -> None:
    """10.4: the set of generated algorithms whose count grows faster than linearly in n."""
    # the generated code grows like the book's best rows (Table 10.1): those with an n² term
    best = {alg: next(r for r in TABLE_10_1 if r.algorithm == alg.upper()) for alg in ALGORITHMS}
    expected = {alg for alg, row in best.items() if len(row.mul) > 2 and row.mul[0] != 0}
    check_choice(
        set(answer) if isinstance(answer, list | tuple | set | frozenset) else answer,
        expected,
        options=ALGORITHMS,
        what="the algorithms whose generated count grows faster than n",
        reread="§6 of this notebook (counts on GU(n)) and Featherstone §10.3, eqs. 10.2–10.5",
    )


def _revolute_z_multiplications() -> tuple[int, int]:
    """Multiplications of ``U = I^A S`` and ``D = Sᵀ U``: dense, and with ``S = e_z``."""
    I_sym = np.array([[Expr("var", f"I{i}{j}") for j in range(6)] for i in range(6)], object)
    S_sym = np.array([Expr("var", f"s{i}") for i in range(6)], object)
    U = I_sym @ S_sym
    dense = count_operations([*U, S_sym @ U]).mul
    with tape() as t:  # the generator's simplifier: products with 0 and 1 are not made
        I_in = np.array([[input_symbol(f"I{i}{j}") for j in range(6)] for i in range(6)], object)
        e_z = np.array([0.0, 0.0, 1.0, 0.0, 0.0, 0.0])
        U = I_in @ e_z
        _ = e_z @ U
    generated = sum(node.op in ("*", "/") for node in t.nodes)
    return dense, generated


def check_revolute_saving(answer) -> None:
    """10.5: multiplications per revolute z joint removed from ``U_i`` and ``D_i``."""
    dense, generated = _revolute_z_multiplications()
    check_number(
        answer,
        dense - generated,
        what="the multiplications removed per joint",
        reread="§6 of this notebook (why one model removes operations) and Featherstone §10.4",
        rtol=0.0,
        atol=0.5,
    )


def planar_over_gu_ratio() -> float:
    """10.6: (m + a) of the generated ABA of ``planar_chain(7, 0.4, 1.5)`` over GU(7)'s."""
    planar = generate(planar_chain(7, length=0.4, mass=1.5), "aba").count
    gu = generate(gu_chain(7), "aba").count
    return (planar.mul + planar.add) / (gu.mul + gu.add)


def check_planar_ratio(answer) -> None:
    """10.6: the planar arm's generated ABA count as a fraction of GU(7)'s, within 1 %."""
    check_number(
        answer,
        planar_over_gu_ratio(),
        what="the ratio of the two operation counts",
        reread="§6 of this notebook (generated code for one model) and Featherstone §10.4",
        rtol=0.01,
    )


CHECKS = {
    "10.1": check_branch_counts,
    "10.2": check_rotate_symmetric_z,
    "10.3": check_two_link_H,
    "10.4": check_superlinear,
    "10.5": check_revolute_saving,
    "10.6": check_planar_ratio,
}
