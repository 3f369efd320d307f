"""Tests of spatial.planar: Featherstone §2.16 (eqs. 2.75–2.78) and App. A.1 (Table A.1).

Expected values are written by hand from the book's formulas or computed from world poses of
planar frames; the embedding in 6D is checked to commute with every operation.
"""

import numpy as np
import pytest
from scipy.linalg import expm

import spatial as sp
from spatial import planar as pl

TOL = 1e-12
N = 20


def close(a, b, tol=TOL):
    a, b = np.asarray(a, float), np.asarray(b, float)
    assert a.shape == b.shape, (a.shape, b.shape)
    err = np.abs(a - b).max(initial=0.0)
    scale = max(1.0, np.abs(b).max(initial=0.0))
    assert err <= tol * scale, f"max error {err:.3e} > {tol:g} * {scale:.3g}"


def R2(t):
    """Active 2D rotation by t (columns: the turned frame's axes)."""
    c, s = np.cos(t), np.sin(t)
    return np.array([[c, -s], [s, c]])


def cross2(a, b):
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def random_planar(rng, shape=()):
    theta = rng.uniform(-np.pi, np.pi, shape)
    r = rng.standard_normal(shape + (2,))
    return theta, r, pl.Xpln(theta, r)


def random_planar_inertia(rng, shape=()):
    return (
        rng.uniform(0.5, 2.0, shape),
        rng.standard_normal(shape + (2,)),
        rng.uniform(0.1, 1, shape),
    )


def mv(M, v):
    return (M @ v[..., None])[..., 0]


# ------------------------------------------------------------------------------- transforms


def test_xpln_matches_eq_2_77():
    t, x, y = 0.6, 1.5, -0.7
    c, s = np.cos(t), np.sin(t)
    rot = np.array([[1, 0, 0], [0, c, s], [0, -s, c]])
    shift = np.array([[1, 0, 0], [-y, 1, 0], [x, 0, 1]])
    close(pl.Xpln(t, [x, y]), rot @ shift)
    close(pl.Xpln(t, [x, y]), [[1, 0, 0], [s * x - c * y, c, s], [c * x + s * y, -s, c]])


def test_xpln_maps_coordinates_between_planar_frames(rng):
    """Frames A and B from world poses; motion and force coordinates computed by hand."""
    tA, tB = rng.uniform(-3, 3, 2)
    pA, pB = rng.standard_normal((2, 2))
    X_BA = pl.Xpln(tB - tA, R2(tA).T @ (pB - pA))
    w, v0 = rng.standard_normal(), rng.standard_normal(2)  # world field V(q) = v0 + w ẑ × q
    f, q = rng.standard_normal((2, 2))  # world force f along a line through q

    def motion_in(t, p):
        return np.concatenate([[w], R2(t).T @ (v0 + w * np.array([-p[1], p[0]]))])

    def force_in(t, p):
        return np.concatenate([[cross2(q - p, f)], R2(t).T @ f])

    close(X_BA @ motion_in(tA, pA), motion_in(tB, pB))
    close(pl.xstar(X_BA) @ force_in(tA, pA), force_in(tB, pB))
    close(pl.xinv(X_BA) @ motion_in(tB, pB), motion_in(tA, pA))


def test_composition_and_inverses(rng):
    t, p = rng.uniform(-3, 3, 3), rng.standard_normal((3, 2))
    X = lambda i, j: pl.Xpln(t[j] - t[i], R2(t[i]).T @ (p[j] - p[i]))  # X_ji
    close(X(1, 2) @ X(0, 1), X(0, 2))
    _, _, Xs = random_planar(rng, (N,))
    close(pl.xinv(Xs), np.linalg.inv(Xs))
    close(pl.xstar(Xs), np.swapaxes(np.linalg.inv(Xs), -1, -2))
    v, f = rng.standard_normal((2, N, 3))
    dot = lambda a, b: np.einsum("...i,...i", a, b)
    close(dot(mv(Xs, v), mv(pl.xstar(Xs), f)), dot(v, f))  # power is invariant


# --------------------------------------------------------------------------- cross operators


def test_crm_crf_match_eqs_2_75_2_76():
    w, vx, vy = 0.3, -1.2, 2.5
    close(pl.crm([w, vx, vy]), [[0, 0, 0], [vy, 0, -w], [-vx, w, 0]])
    m = np.array([0.7, 0.1, -0.4])
    close(pl.crm([w, vx, vy]) @ m, [0, vy * m[0] - w * m[2], w * m[1] - vx * m[0]])
    close(pl.crf([w, vx, vy]), -pl.crm([w, vx, vy]).T)


def test_planar_table_2_3_identities(rng):
    u, v, f = rng.standard_normal((3, N, 3))
    _, _, X = random_planar(rng, (N,))
    dot = lambda a, b: np.einsum("...i,...i", a, b)
    close(pl.crf(v), -np.swapaxes(pl.crm(v), -1, -2))
    close(pl.crm(mv(X, v)), X @ pl.crm(v) @ np.linalg.inv(X))
    Xs = pl.xstar(X)
    close(pl.crf(mv(X, v)), Xs @ pl.crf(v) @ np.linalg.inv(Xs))
    close(mv(pl.crm(u), v), -mv(pl.crm(v), u))
    close(dot(mv(pl.crm(u), v), f), -dot(v, mv(pl.crf(u), f)))
    uv = mv(pl.crm(u), v)
    close(pl.crm(uv), pl.crm(u) @ pl.crm(v) - pl.crm(v) @ pl.crm(u))
    close(pl.crf(uv), pl.crf(u) @ pl.crf(v) - pl.crf(v) @ pl.crf(u))


def test_planar_cross_products_are_derivatives(rng):
    """A body moving with constant planar velocity v: fixed vectors change at v× and v×*."""
    v, m, f = rng.standard_normal((3, 3))
    twist = np.array([[0, -v[0], v[1]], [v[0], 0, v[2]], [0, 0, 0]])

    def X_A_body(t):
        origin = (expm(t * twist) @ [0.0, 0.0, 1.0])[:2]  # the body point that started at O
        return pl.xinv(pl.Xpln(v[0] * t, origin))

    h = 1e-5
    dm = (X_A_body(h) @ m - X_A_body(-h) @ m) / (2 * h)
    df = (pl.xstar(X_A_body(h)) @ f - pl.xstar(X_A_body(-h)) @ f) / (2 * h)
    close(dm, pl.crm(v) @ m, 1e-8)
    close(df, pl.crf(v) @ f, 1e-8)


# ---------------------------------------------------------------------------------- inertia


def test_mcI_matches_eq_2_78_and_inertia_params_inverts_it(rng):
    m, (cx, cy), Ic = 2.0, (0.3, -0.5), 0.4
    IO = Ic + m * (cx**2 + cy**2)
    close(pl.mcI(m, [cx, cy], Ic), [[IO, -m * cy, m * cx], [-m * cy, m, 0], [m * cx, 0, m]])
    ms, cs, Ics = random_planar_inertia(rng, (N,))
    m2, c2, Ic2 = pl.inertia_params(pl.mcI(ms, cs, Ics))
    close(m2, ms)
    close(c2, cs)
    close(Ic2, Ics)


def test_planar_inertia_transforms(rng):
    m, c, Ic = random_planar_inertia(rng)
    r = rng.standard_normal(2)
    t = rng.uniform(-3, 3)
    I = pl.mcI(m, c, Ic)
    transform = lambda X, I: pl.xstar(X) @ I @ pl.xinv(X)
    close(transform(pl.Xpln(0.0, r), I), pl.mcI(m, c - r, Ic))
    close(transform(pl.Xpln(t, [0.0, 0.0]), I), pl.mcI(m, R2(t).T @ c, Ic))
    _, _, X = random_planar(rng)
    v = rng.standard_normal(3)
    IB, vB = transform(X, I), X @ v
    close(0.5 * vB @ IB @ vB, 0.5 * v @ I @ v)  # kinetic energy
    close(IB @ vB, pl.xstar(X) @ (I @ v))  # momentum is a force vector


# ------------------------------------------------------------------------------------- XtoV


def test_xtov_known_values_and_invariance(rng):
    """Turning A by θ about the pole p gives u = θ [1, p_y, -p_x]; XtoV returns u sinθ/θ."""
    theta = rng.uniform(-1.4, 1.4, N)
    pole = rng.standard_normal((N, 2))
    r = np.stack([(np.eye(2) - R2(t)) @ p for t, p in zip(theta, pole, strict=True)])
    X = pl.Xpln(theta, r)
    u = theta[:, None] * np.stack([np.ones(N), pole[:, 1], -pole[:, 0]], -1)
    v = pl.XtoV(X)
    close(v * (np.arcsin(X[:, 1, 2]) / X[:, 1, 2])[:, None], u)
    close(mv(X, v), v)
    d = rng.standard_normal((N, 2))
    close(pl.XtoV(pl.Xpln(0.0, d)), np.concatenate([np.zeros((N, 1)), d], -1))


# ------------------------------------------------------------------------ embedding in 6D


def test_embedding_of_vectors_and_transforms(rng):
    theta, r, X = random_planar(rng, (N,))
    r3 = np.concatenate([r, np.zeros((N, 1))], -1)
    X6 = pl.embed_transform(X)
    close(X6, sp.plux(sp.rz(theta), r3))
    close(pl.restrict(X6), X)
    v, f = rng.standard_normal((2, N, 3))
    close(pl.embed_vector(v)[..., [2, 3, 4]], v)
    close(pl.embed_vector(v)[..., [0, 1, 5]], np.zeros((N, 3)))
    close(pl.restrict(pl.embed_vector(v)), v)
    close(mv(X6, pl.embed_vector(v)), pl.embed_vector(mv(X, v)))
    close(sp.apply_force(X6, pl.embed_vector(f)), pl.embed_vector(mv(pl.xstar(X), f)))
    close(sp.xinv(X6), pl.embed_transform(pl.xinv(X)))
    close(sp.xstar(X6), sp.xstar(pl.embed_transform(X)))
    close(pl.restrict(sp.xstar(X6)), pl.xstar(X))
    close(pl.embed_transform(X[0] @ X[1]), X6[0] @ X6[1])
    close(sp.XtoV(X6), pl.embed_vector(pl.XtoV(X)))


def test_embedding_commutes_with_cross_products(rng):
    u, v, f = rng.standard_normal((3, N, 3))
    U, V, F = pl.embed_vector(u), pl.embed_vector(v), pl.embed_vector(f)
    close(pl.restrict(sp.crm(U)), pl.crm(u))
    close(pl.restrict(sp.crf(U)), pl.crf(u))
    close(sp.cross_motion(U, V), pl.embed_vector(mv(pl.crm(u), v)))
    close(sp.cross_force(U, F), pl.embed_vector(mv(pl.crf(u), f)))


def test_embedding_commutes_with_inertia(rng):
    m, c, Ic = random_planar_inertia(rng, (N,))
    I = pl.mcI(m, c, Ic)
    I6 = pl.embed_inertia(I)
    m6, c6, J = sp.inertia_params(I6)
    close(m6, m)
    close(c6, np.concatenate([c, np.zeros((N, 1))], -1))
    close(J, Ic[:, None, None] * np.diag([0.5, 0.5, 1.0]))
    close(pl.restrict(I6), I)
    v = rng.standard_normal((N, 3))
    close(mv(I6, pl.embed_vector(v)), pl.embed_vector(mv(I, v)))
    _, _, X = random_planar(rng, (N,))
    close(
        pl.restrict(sp.transform_inertia(pl.embed_transform(X), I6)),
        pl.xstar(X) @ I @ pl.xinv(X),
    )
    # any 3D body moving in the plane has the planar inertia of eq. 2.78
    L = rng.standard_normal((N, 3, 3))
    c3 = rng.standard_normal((N, 3))
    second_moment = L @ np.swapaxes(L, -1, -2) + np.eye(3)  # ∫ x xᵀ dm of some body
    I3 = np.trace(second_moment, axis1=-2, axis2=-1)[:, None, None] * np.eye(3) - second_moment
    close(pl.restrict(sp.mcI(m, c3, I3)), pl.mcI(m, c3[:, :2], I3[:, 2, 2]))


# ------------------------------------------------------------------------ batched == looped


def _inertia_params_flat(I):
    m, c, I_c = pl.inertia_params(I)
    return np.concatenate([m[..., None], c, I_c[..., None]], -1)


def test_batched_equals_looped(rng):
    B = 4
    theta, r, X = random_planar(rng, (B,))
    v = rng.standard_normal((B, 3))
    m, c, Ic = random_planar_inertia(rng, (B,))
    I = pl.mcI(m, c, Ic)
    cases = [
        (pl.Xpln, (theta, r)),
        (pl.xinv, (X,)),
        (pl.xstar, (X,)),
        (pl.crm, (v,)),
        (pl.crf, (v,)),
        (pl.mcI, (m, c, Ic)),
        (pl.XtoV, (X,)),
        (pl.embed_vector, (v,)),
        (pl.embed_transform, (X,)),
        (pl.embed_inertia, (I,)),
        (pl.restrict, (pl.embed_vector(v),)),
        (pl.restrict, (pl.embed_transform(X),)),
        (_inertia_params_flat, (I,)),
    ]
    for fn, args in cases:
        batched = fn(*args)
        looped = np.stack([fn(*(a[k] for a in args)) for k in range(B)])
        close(batched, looped)
    close(pl.Xpln(theta, r[0]), np.stack([pl.Xpln(t, r[0]) for t in theta]))  # broadcasting


# -------------------------------------------------------------------------------- bad input


def _not_planar_transforms():
    X = pl.Xpln(0.3, [1.0, 2.0])
    first_row = X.copy()
    first_row[0, 1] = 0.2
    reflection = X.copy()
    reflection[2, 1:] = [X[1, 2], -X[1, 1]]  # [[c, s], [s, -c]]
    scaled = X.copy()
    scaled[1:, 1:] *= 1.1
    return [first_row, reflection, scaled]


@pytest.mark.parametrize(
    "fn, args, match",
    [
        (pl.Xpln, (0.0, [1.0, 2.0, 3.0]), r"r must have shape \(\.\.\., 2\)"),
        (pl.Xpln, (np.nan, [1.0, 2.0]), "theta contains non-finite"),
        (pl.xinv, (np.eye(6),), r"X must have shape \(\.\.\., 3, 3\)"),
        (pl.xstar, (np.full((3, 3), np.inf),), "non-finite"),
        (pl.crm, (np.zeros(6),), "v must have shape"),
        (pl.crf, (np.zeros(2),), "v must have shape"),
        (pl.mcI, (0.0, [0.0, 0.0], 1.0), "m .mass. must be positive"),
        (pl.mcI, (1.0, [0.0, 0.0], -1.0), "I_c .rotational inertia. must be positive"),
        (pl.mcI, (1.0, [0.0, 0.0, 0.0], 1.0), "c must have shape"),
        (pl.mcI, (1.0, [0.0, 0.0], np.nan), r"I_c \(rotational inertia\) contains non-finite"),
        (pl.inertia_params, (np.diag([1.0, -1.0, -1.0]),), "non-positive mass"),
        (pl.inertia_params, (np.diag([1.0, 1.0, 2.0]),), "not a planar rigid-body inertia"),
        (pl.inertia_params, (np.array([[1, 0.5, 0], [0, 1, 0], [0, 0, 1.0]]),), "not a planar"),
        (pl.inertia_params, (pl.mcI(1.0, [1.0, 0.0], 0.5) - np.diag([1.0, 0, 0]),), "non-pos"),
        (pl.XtoV, (np.eye(2),), "X must have shape"),
        (pl.embed_vector, (np.zeros(6),), "x must have shape"),
        (pl.embed_inertia, (np.eye(3) * [1.0, 1.0, 2.0],), "not a planar rigid-body inertia"),
        (pl.restrict, (np.zeros(5),), r"x must have shape \(\.\.\., 6\) or \(\.\.\., 6, 6\)"),
        (pl.restrict, (np.full(6, np.nan),), "non-finite"),
        (pl.restrict, (np.full((6, 6), np.nan),), "non-finite"),
    ],
)
def test_bad_input_raises(fn, args, match):
    with pytest.raises(ValueError, match=match):
        fn(*args)


@pytest.mark.parametrize("X", _not_planar_transforms())
def test_embed_transform_rejects_non_planar_transforms(X):
    with pytest.raises(ValueError, match="not a planar Plücker transform"):
        pl.embed_transform(X)
