"""Plücker transforms as rot(E) xlt(r) (spatial.vectors.factored) and what they buy rnea/crba.

Expected values are the 6x6 products of the definitions (eq. 2.24, Table 2.2) and the counts
of Featherstone Table A.4 / Table 10.1, not the code under test.
"""

import numpy as np
import pytest

import spatial as sp
from spatial.builders import gu_chain
from spatial.builders.trees import random_inertia, random_transform
from spatial.symbolic import generate
from spatial.symbolic.tracer import Sym, input_symbol, tape
from spatial.vectors import plux, unplux
from spatial.vectors.factored import (
    factor_transform,
    factored_congruence,
    factored_force_T,
    factored_force_T_columns,
    factored_inertia_T,
    factored_motion,
    translation,
)


@pytest.fixture
def rng():
    return np.random.default_rng(11)


def test_factors_multiply_back_and_apply_like_the_matrix(rng):
    X = np.stack([random_transform(rng) for _ in range(4)])  # (4, 6, 6)
    F = factor_transform(X)
    np.testing.assert_allclose(F.rot @ F.xlt, X, atol=1e-14)
    E, r = unplux(X)
    np.testing.assert_allclose(F.r, r, atol=1e-14)
    assert np.all(F.xlt[:, [0, 1, 2], [3, 4, 5]] == 0.0) and np.all(F.rot[:, 3:, :3] == 0.0)
    v, f = rng.standard_normal((2, 4, 6))
    np.testing.assert_allclose(factored_motion(F, v), (X @ v[..., None])[..., 0], atol=1e-13)
    np.testing.assert_allclose(factored_force_T(F, f), (f[:, None, :] @ X)[:, 0], atol=1e-13)
    cols = rng.standard_normal((4, 6, 3))
    expected = X.swapaxes(-1, -2) @ cols
    np.testing.assert_allclose(factored_force_T_columns(F, cols), expected, atol=1e-13)
    I = random_inertia(rng)
    np.testing.assert_allclose(factored_inertia_T(F, I), X.swapaxes(-1, -2) @ I @ X, atol=1e-13)


def test_a_constant_translation_broadcasts_against_a_batch_of_rotations(rng):
    r = rng.standard_normal(3)
    E = np.stack([random_transform(rng)[:3, :3] for _ in range(5)])
    X = plux(E, r)
    F = factor_transform(X, r=r)  # xlt (6, 6), rot (5, 6, 6): the rnea/crba case
    assert F.xlt.shape == (6, 6)
    np.testing.assert_array_equal(F.xlt, translation(r))
    cols = rng.standard_normal((5, 6, 1))
    np.testing.assert_allclose(factored_force_T_columns(F, cols), X.swapaxes(-1, -2) @ cols)
    v = rng.standard_normal((5, 6))
    np.testing.assert_allclose(factored_motion(F, v), (X @ v[..., None])[..., 0], atol=1e-13)
    I = np.stack([random_inertia(rng) for _ in range(5)])
    np.testing.assert_allclose(factored_inertia_T(F, I), X.swapaxes(-1, -2) @ I @ X, atol=1e-13)


def test_the_congruence_of_a_symmetric_matrix_is_the_6x6_product(rng):
    """One transform and state; a batch with its own translations; a batch of rotations with
    one constant translation (aba's pass 2): all equal Xᵀ A X of the definitions."""
    A = rng.standard_normal((5, 6, 6))
    A = A @ A.swapaxes(-1, -2)  # symmetric, like an articulated-body inertia
    X = np.stack([random_transform(rng) for _ in range(5)])
    expected = X.swapaxes(-1, -2) @ A @ X
    np.testing.assert_allclose(factored_congruence(factor_transform(X[0]), A[0]), expected[0])
    np.testing.assert_allclose(factored_congruence(factor_transform(X), A), expected, atol=1e-12)
    r = rng.standard_normal(3)
    X = plux(np.stack([random_transform(rng)[:3, :3] for _ in range(5)]), r)
    F = factor_transform(X, r=r)
    assert F.xlt.shape == (6, 6)
    np.testing.assert_allclose(factored_congruence(F, A), X.swapaxes(-1, -2) @ A @ X, atol=1e-12)


def test_generated_aba_is_within_one_and_a_half_of_table_10_1():
    """Was 1.47x / 1.59x / 1.61x (GU(7/30/100)) with the 6x6 congruence ^λX_i* I^a ^iX_λ."""
    for n in (7, 30, 100):
        f = generate(gu_chain(n), "aba")
        assert f.count.total <= 1.5 * sp.cost.table_10_1_cost("ABA", n).total, n


def _count(outputs) -> tuple[int, int]:
    """Multiplications and additions reachable from ``outputs`` on the tracer's tape."""
    seen, stack, m, a = set(), [o for o in outputs if type(o) is Sym], 0, 0
    while stack:
        x = stack.pop()
        if x.n in seen:
            continue
        seen.add(x.n)
        m += x.op in ("*", "/")
        a += x.op in ("+", "-")
        stack += [c for c in (x.a, x.b) if type(c) is Sym]
    return m, a


def _symbols(name, shape):
    return np.array([input_symbol(f"{name}{k}") for k in range(int(np.prod(shape)))], object)


def test_symbolic_costs_are_those_of_table_a4(rng):
    """A general E (symbols) and a constant r: X v and Xᵀ f cost 24m + 18a (Table A.4)."""
    r = rng.standard_normal(3)
    with tape():
        E = _symbols("E", (3, 3)).reshape(3, 3)
        rot = np.zeros((6, 6), object)
        rot[:3, :3] = rot[3:, 3:] = E
        F = factor_transform(rot, r=r)
        v = _symbols("v", (6,))
        assert _count(factored_motion(F, v)) == (24, 18)
        assert _count(factored_force_T(F, v)) == (24, 18)
        # the same transform as one 6x6 matrix: B = -E r× costs 9 (2m + 1a) to form (a zero
        # in each column of r×), and B ω 9m + 6a more per use: 27m + 21a per product
        X = rot @ translation(r)
        assert _count(X @ v) == (27 + 9 * 2, 21 + 9 * 1)


def test_generated_crba_is_within_one_and_a_half_of_table_10_1():
    """Was 2.41x (GU(7)) and 1.92x (GU(30)) with 6x6 products for Xᵀ I^c X and ^λX_j* F."""
    for n in (7, 30):
        f = generate(gu_chain(n), "crba")
        assert f.count.total <= 1.5 * sp.cost.table_10_1_cost("CRBA", n).total, n


def test_generated_rnea_gains_the_transform_and_inertia_primitives():
    """Per body of GU(n): 145m + 117a in the model's frames (was 175m + 141a), 133m + 105a in
    DH-like frames (Table 10.1's best row: 93m + 81a).

    X_up as rot(E) xlt(r): E = E_J E_T 12m + 6a, X v twice and ^λX_i* f once at 24m + 18a
    each; a_i's S q̈ and v × v_J 4m + 5a, v's v_J 1a; f_i = I (a + w × v) + w ×* I w
    57m + 45a; the inward sum 6a.  In DH-like frames E_T has a zero in the row that X_J
    leaves alone (E w: 8m + 5a instead of 9m + 6a) and r = (a, 0, d) (r × ω: 4m + 1a instead
    of 6m + 3a): each of the three transforms costs 20m + 14a.
    """
    for frames, transform, per_body in (
        ("model", (24, 18), (145, 117)),
        ("dh", (20, 14), (133, 105)),
    ):
        f7 = generate(gu_chain(7), "rnea", frames=frames)
        f8 = generate(gu_chain(8), "rnea", frames=frames)
        m, a = transform
        per_body_m = 12 + 3 * m + 4 + 57
        per_body_a = 6 + 3 * a + 1 + 5 + 45 + 6
        assert (f8.m - f7.m, f8.a - f7.a) == (per_body_m, per_body_a) == per_body, frames
        assert f7.count.total <= 1.5 * sp.cost.table_10_1_cost("RNEA", 7).total
    # 238 operations per body against the book's 174: 1.37x for large n, where the model's
    # frames gave 1.503x at n = 30 and 1.505x at n = 100
    f30 = generate(gu_chain(30), "rnea")
    assert f30.count.total <= 1.4 * sp.cost.table_10_1_cost("RNEA", 30).total


def test_dense_results_unchanged_against_the_6x6_definitions(rng):
    """rnea and crba against Table 5.1 / 6.2 written with plain 6x6 products (float64)."""
    model = gu_chain(5, rng)
    q = np.stack([model.random_configuration(rng) for _ in range(3)])
    qd, qdd = rng.standard_normal((2, 3, 5))
    Xup = [None] + [
        model.joints[i].transform(q[:, i - 1 : i]) @ model.X_tree[i] for i in range(1, 6)
    ]
    S = np.array([0, 0, 1.0, 0, 0, 0])
    v, a, f = [np.zeros((3, 6))], [np.broadcast_to(-model.a_grav, (3, 6))], [None]
    for i in range(1, 6):
        v.append((Xup[i] @ v[i - 1][..., None])[..., 0] + S * qd[:, i - 1 : i])
        vx = sp.vectors.crm(v[i])
        a.append(
            (Xup[i] @ a[i - 1][..., None])[..., 0]
            + S * qdd[:, i - 1 : i]
            + (vx @ (S * qd[:, i - 1 : i])[..., None])[..., 0]
        )
        I = model.inertia[i]
        f.append(a[i] @ I + (sp.vectors.crf(v[i]) @ (v[i] @ I)[..., None])[..., 0])
    tau = np.zeros((3, 5))
    for i in range(5, 0, -1):
        tau[:, i - 1] = f[i] @ S
        if i > 1:
            f[i - 1] = f[i - 1] + (f[i][:, None, :] @ Xup[i])[:, 0]
    np.testing.assert_allclose(sp.rnea(model, q, qd, qdd), tau, rtol=1e-12, atol=1e-12)
    Ic = [None] + [np.broadcast_to(model.inertia[i], (3, 6, 6)).copy() for i in range(1, 6)]
    for i in range(5, 1, -1):
        Ic[i - 1] = Ic[i - 1] + Xup[i].swapaxes(-1, -2) @ Ic[i] @ Xup[i]
    H = sp.crba(model, q)
    for i in range(1, 6):
        np.testing.assert_allclose(H[:, i - 1, i - 1], Ic[i][:, 2, 2], rtol=1e-12, atol=1e-12)
