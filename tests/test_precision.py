"""Precision-generic tree algorithms (issue 15, item 4): float32, float64 and longdouble.

Oracles: the float64 results (float32 runs must agree to single precision and come back in
float32), and on an ill-conditioned tree the known ``q̈`` behind ``τ = ID(q, q̇, q̈)``, which
extended precision must recover better than double precision.
"""

import numpy as np
import pytest

import spatial as sp
from spatial.builders import branched_tree, gu_chain
from spatial.dynamics import ltdl, ltdl_solve, ltl, ltl_solve

EXTENDED = np.finfo(np.longdouble).eps < np.finfo(np.float64).eps


def _state(model, rng, batch=()):
    q = model.random_configuration(rng, batch)
    qd, x = rng.standard_normal((2, *batch, model.nv))
    return q, qd, x


ALGORITHMS = {
    "rnea": lambda m, q, qd, x: sp.rnea(m, q, qd, x),
    "crba": lambda m, q, qd, x: sp.crba(m, q),
    "aba": lambda m, q, qd, x: sp.aba(m, q, qd, x),
    "forward_dynamics": lambda m, q, qd, x: sp.forward_dynamics(m, q, qd, x),
}


@pytest.mark.parametrize("name", ALGORITHMS)
@pytest.mark.parametrize("batch", [(), (4,)])
def test_float32_in_float32_out_close_to_float64(name, batch):
    rng = np.random.default_rng(11)
    model = branched_tree(9, 2.0, skew=0.4)
    state = _state(model, rng, batch)
    ref = ALGORITHMS[name](model, *state)
    out = ALGORITHMS[name](model.astype(np.float32), *(a.astype(np.float32) for a in state))
    assert out.dtype == np.float32 and out.shape == ref.shape
    scale = np.abs(ref).max()
    assert np.abs(out - ref).max() < 1e-4 * scale
    assert ref.dtype == np.float64


@pytest.mark.parametrize("name", ALGORITHMS)
def test_longdouble_in_longdouble_out(name):
    rng = np.random.default_rng(12)
    model = gu_chain(5)
    state = _state(model, rng)
    out = ALGORITHMS[name](model.astype(np.longdouble), *(a.astype(np.longdouble) for a in state))
    assert out.dtype == np.longdouble
    np.testing.assert_allclose(
        out.astype(float), ALGORITHMS[name](model, *state), rtol=1e-10, atol=1e-10
    )


def test_types_promote_like_numpy():
    rng = np.random.default_rng(13)
    model = gu_chain(3)
    q, qd, tau = _state(model, rng)
    # a float64 model with float32 states computes in float64; ints become float64
    assert sp.aba(model, q.astype(np.float32), qd, tau).dtype == np.float64
    assert sp.aba(model.astype(np.float32), [0, 1, 2], [0, 0, 0], [1, 2, 3]).dtype == np.float64
    assert sp.aba(model.astype(np.float32), q, qd, tau).dtype == np.float64
    f32 = [a.astype(np.float32) for a in (q, qd, tau)]
    assert sp.aba(model.astype(np.float32), *f32).dtype == np.float32


def test_astype_copies_and_keeps_the_original():
    model = gu_chain(3)
    single = model.astype(np.float32)
    assert model.dtype == np.float64 and single.dtype == np.float32
    assert all(I.dtype == np.float32 for I in single.inertia[1:])
    assert all(X.dtype == np.float32 for X in single.X_tree[1:])
    assert model.inertia[1].dtype == np.float64
    single.add_body(3, sp.joints.Revolute("x"), np.eye(6), model.inertia[1])
    assert single.NB == 4 and model.NB == 3
    assert single.inertia[4].dtype == np.float32


def test_astype_rejects_non_floating_types():
    with pytest.raises(ValueError, match="dtype must be float32, float64 or longdouble"):
        gu_chain(2).astype(np.int64)
    with pytest.raises(ValueError, match="got 'float16'"):
        gu_chain(2).astype(np.float16)


@pytest.mark.parametrize("dtype", [np.float32, np.longdouble])
def test_sparse_factorizations_keep_the_type(dtype):
    rng = np.random.default_rng(14)
    model = branched_tree(8, 2.0, skew=0.3)
    q = model.random_configuration(rng)
    lam = model.expanded_parent()
    H = sp.crba(model, q)
    b = rng.standard_normal(model.nv)
    x_ref = np.linalg.solve(H, b)
    L, D = ltdl(H.astype(dtype), lam)
    x = ltdl_solve(L, D, lam, b.astype(dtype))
    L1 = ltl(H.astype(dtype), lam)
    x1 = ltl_solve(L1, lam, b.astype(dtype))
    assert L.dtype == D.dtype == x.dtype == L1.dtype == x1.dtype == dtype
    tol = 1e-3 if dtype == np.float32 else 1e-10
    np.testing.assert_allclose(x.astype(float), x_ref, rtol=tol, atol=tol * np.abs(x_ref).max())
    np.testing.assert_allclose(x1.astype(float), x_ref, rtol=tol, atol=tol * np.abs(x_ref).max())


@pytest.mark.skipif(not EXTENDED, reason="longdouble is float64 on this platform")
@pytest.mark.parametrize("name", ["aba"])
def test_longdouble_beats_float64_on_an_ill_conditioned_tree(name):
    # links shrinking by 0.3 each: masses span 0.3^(3·9) ≈ 8e-15, cond(H) is huge
    model = branched_tree(10, 1.0, skew=0.5, taper=0.3)
    rng = np.random.default_rng(15)
    q, qd, qdd = _state(model, rng)
    wide = model.astype(np.longdouble)
    ld = [a.astype(np.longdouble) for a in (q, qd, qdd)]
    tau = sp.rnea(wide, *ld)  # τ of the known q̈, in extended precision
    fd = ALGORITHMS[name]
    err64 = np.abs(fd(model, q, qd, tau.astype(np.float64)) - qdd).max()
    errld = np.abs(fd(wide, ld[0], ld[1], tau) - ld[2]).max()
    assert err64 > 1e-9  # double precision visibly loses digits here
    assert errld < 1e-3 * err64


@pytest.mark.skipif(not EXTENDED, reason="longdouble is float64 on this platform")
def test_compact_crba_keeps_forward_dynamics_accurate_on_an_ill_conditioned_tree():
    # the tree above: the CRBA now transforms I^c in its compact form (m, h, Ī) (Table A.4),
    # which keeps m exact and the h× blocks skew, so H (and q̈ = H⁻¹ (τ - C)) keeps its
    # digits in double precision (the 6x6 products Xᵀ I^c X lost them: error 1.6e-7)
    model = branched_tree(10, 1.0, skew=0.5, taper=0.3)
    rng = np.random.default_rng(15)
    q, qd, qdd = _state(model, rng)
    wide = model.astype(np.longdouble)
    ld = [a.astype(np.longdouble) for a in (q, qd, qdd)]
    tau = sp.rnea(wide, *ld)
    fd = ALGORITHMS["forward_dynamics"]
    err64 = np.abs(fd(model, q, qd, tau.astype(np.float64)) - qdd).max()
    errld = np.abs(fd(wide, ld[0], ld[1], tau) - ld[2]).max()
    assert err64 < 1e-9
    assert errld < 1e-2 * err64  # extended precision still gains digits
