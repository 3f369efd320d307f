"""Compact representations and axial screws (Featherstone App. A.3–A.5) against the dense forms."""

import numpy as np
import pytest

import spatial as sp
from spatial import compact
from spatial.builders import random_inertia, random_transform
from spatial.vectors import rx, ry, rz, xlt

RNG = np.random.default_rng(15)
BATCH = (7,)


def _close(a, b, tol=1e-14):
    """Equal to ``tol`` relative to the size of the dense result (round-off only)."""
    a, b = np.asarray(a), np.asarray(b)
    scale = max(1.0, float(np.max(np.abs(b))))
    assert a.shape == b.shape and float(np.max(np.abs(a - b))) <= tol * scale


@pytest.fixture
def data():
    X = random_transform(RNG, BATCH, scale=1.0)
    X2 = random_transform(RNG, BATCH, scale=1.0)
    I = random_inertia(RNG, BATCH)
    v = RNG.normal(size=BATCH + (6,))
    A = RNG.normal(size=BATCH + (6, 6))
    IA = A @ np.swapaxes(A, -1, -2) + I  # a general symmetric positive-definite 6x6
    return X, X2, I, IA, v


def test_conversions_round_trip(data):
    X, _, I, IA, _ = data
    _close(compact.dense_transform(compact.compact_transform(X)), X)
    _close(compact.dense_rbi(compact.compact_rbi(I)), I)
    _close(compact.dense_abi(compact.compact_abi(IA)), IA)
    assert compact.compact_rbi(I).I.shape == BATCH + (6,)  # 10 numbers: m, h, lt(I)


def test_table_a4_vector_operations_equal_the_dense_ones(data):
    X, X2, I, _, v = data
    T, T2 = compact.compact_transform(X), compact.compact_transform(X2)
    Xs = np.swapaxes(np.linalg.inv(X), -1, -2)  # X* = X⁻ᵀ, formed densely as the reference
    mv = lambda M, x: np.einsum("...ij,...j->...i", M, x)  # noqa: E731
    _close(compact.transform_motion(T, v), mv(X, v))
    _close(compact.inv_transform_motion(T, v), mv(np.linalg.inv(X), v))
    _close(compact.transform_force(T, v), mv(Xs, v))
    _close(compact.inv_transform_force(T, v), mv(np.swapaxes(X, -1, -2), v))
    _close(compact.dense_transform(compact.compose(T, T2)), X @ X2)
    _close(compact.dense_transform(compact.inverse(T)), np.linalg.inv(X))
    R = compact.compact_rbi(I)
    _close(compact.rbi_times_motion(R, v), mv(I, v))
    _close(compact.dense_rbi(compact.rbi_sum(R, R)), 2 * I)


def test_table_a4_inertia_transforms_equal_the_dense_ones(data):
    X, _, I, IA, _ = data
    T = compact.compact_transform(X)
    Xs = np.swapaxes(np.linalg.inv(X), -1, -2)
    Xi = np.linalg.inv(X)
    R = compact.compact_rbi(I)
    _close(compact.dense_rbi(compact.transform_rbi(T, R)), Xs @ I @ Xi)
    _close(compact.dense_rbi(compact.inv_transform_rbi(T, R)), np.swapaxes(X, -1, -2) @ I @ X)
    _close(compact.dense_abi(compact.transform_abi(T, compact.compact_abi(IA))), Xs @ IA @ Xi)
    # and the package's dense functions agree with the compact ones
    _close(compact.dense_rbi(compact.transform_rbi(T, R)), sp.transform_inertia(X, I))


@pytest.mark.parametrize("axis", ["x", "y", "z"])
def test_axial_screws_equal_the_dense_transform(axis, data):
    _, _, I, _, v = data
    theta, d = RNG.uniform(-3, 3, size=BATCH), RNG.normal(size=BATCH)
    S = compact.axial_screw(axis, theta, d)
    rot = {"x": rx, "y": ry, "z": rz}[axis]
    e = {"x": [1, 0, 0], "y": [0, 1, 0], "z": [0, 0, 1]}[axis]
    X = sp.plux(rot(theta), np.asarray(e)[None, :] * d[:, None])
    _close(compact.screw_transform(S), X)
    # rotation and translation along one axis commute (App. A.4)
    _close(sp.vectors.rot(rot(theta)) @ xlt(np.asarray(e)[None, :] * d[:, None]),
           xlt(np.asarray(e)[None, :] * d[:, None]) @ sp.vectors.rot(rot(theta)))  # fmt: skip
    mv = lambda M, x: np.einsum("...ij,...j->...i", M, x)  # noqa: E731
    Xs = np.swapaxes(np.linalg.inv(X), -1, -2)
    _close(compact.screw_motion(S, v), mv(X, v))
    _close(compact.screw_force(S, v), mv(Xs, v))
    out = compact.screw_rbi(S, compact.compact_rbi(I))
    _close(compact.dense_rbi(out), Xs @ I @ np.linalg.inv(X))
    A = RNG.normal(size=BATCH + (6, 6))
    IA = A @ np.swapaxes(A, -1, -2)
    out_A = compact.screw_abi(S, compact.compact_abi(IA))
    _close(compact.dense_abi(out_A), Xs @ IA @ np.linalg.inv(X))


def test_screw_of_an_articulated_inertia_with_a_zero_row():
    """Iᵃ = Iᴬ - Iᴬs (sᵀIᴬs)⁻¹ sᵀIᴬ for s = e₃ has row and column 3 zero; a z screw keeps them."""
    A = RNG.normal(size=BATCH + (6, 6))
    IA = A @ np.swapaxes(A, -1, -2) + np.eye(6)
    U = IA[..., :, 2]
    Ia = IA - U[..., :, None] * U[..., None, :] / IA[..., 2, 2][..., None, None]
    theta, d = RNG.uniform(-3, 3, size=BATCH), RNG.normal(size=BATCH)
    S = compact.axial_screw("z", theta, d)
    X = compact.screw_transform(S)
    Xs = np.swapaxes(np.linalg.inv(X), -1, -2)
    out = compact.dense_abi(compact.screw_abi_revolute_z(S, compact.compact_abi(Ia)))
    _close(out, Xs @ Ia @ np.linalg.inv(X))
    assert np.max(np.abs(out[..., 2, :])) < 1e-14
    with pytest.raises(ValueError, match="row and column 3 of the articulated inertia"):
        compact.screw_abi_revolute_z(S, compact.compact_abi(IA))
    with pytest.raises(ValueError, match="needs a screw about z"):
        compact.screw_abi_revolute_z(compact.axial_screw("x", 0.1, 0.2), compact.compact_abi(Ia))


@pytest.mark.parametrize("axis", ["x", "y"])
def test_x_or_y_screw_of_an_articulated_inertia_with_a_zero_row(axis):
    """Table A.5's last row: an x or y screw of Iᵃ (row and column 3 zero) equals the dense
    X* Iᵃ X⁻¹; the zeros are not read, so they may hold anything below the check's tolerance."""
    A = RNG.normal(size=BATCH + (6, 6))
    IA = A @ np.swapaxes(A, -1, -2) + np.eye(6)
    U = IA[..., :, 2]
    Ia = IA - U[..., :, None] * U[..., None, :] / IA[..., 2, 2][..., None, None]
    theta, d = RNG.uniform(-3, 3, size=BATCH), RNG.normal(size=BATCH)
    S = compact.axial_screw(axis, theta, d)
    X = compact.screw_transform(S)
    Xs = np.swapaxes(np.linalg.inv(X), -1, -2)
    out = compact.dense_abi(compact.screw_abi_revolute_xy(S, compact.compact_abi(Ia)))
    _close(out, Xs @ Ia @ np.linalg.inv(X))
    assert np.min(np.max(np.abs(out[..., 2, :]), axis=-1)) > 1e-3  # x, y screws fill the zeros
    # the Denavit–Hartenberg step of the ABA: z screw (keeps the zeros), then x screw
    Sz = compact.axial_screw("z", -theta, 0.5 * d)
    first = compact.screw_abi_revolute_z(Sz, compact.compact_abi(Ia))
    two = compact.dense_abi(compact.screw_abi_revolute_xy(S, first))
    Xdh_inv = np.linalg.inv(X @ compact.screw_transform(Sz))
    _close(two, np.swapaxes(Xdh_inv, -1, -2) @ Ia @ Xdh_inv)
    with pytest.raises(ValueError, match="row and column 3 of the articulated inertia"):
        compact.screw_abi_revolute_xy(S, compact.compact_abi(IA))
    with pytest.raises(ValueError, match="needs a screw about x or y, got 'z'"):
        compact.screw_abi_revolute_xy(compact.axial_screw("z", 0.1, 0.2), compact.compact_abi(Ia))


def test_x_or_y_screw_of_ia_costs_table_a5s_figure():
    """32m + 28a about x and about y; with the z screw and its one-time cost, a DH step of
    Iᵃ costs 62m + 65a (§A.4)."""
    from spatial.compact.screws import AxialScrew, screw_abi_zero_row_xy_kernel
    from spatial.symbolic import Expr, count_operations

    sym = lambda name: Expr("var", name)  # noqa: E731
    M = np.array([sym(f"M{i}") for i in range(6)], dtype=object)
    L = np.array([sym(f"L{i}") for i in range(6)], dtype=object)
    H = np.array([[sym(f"H{i}{j}") for j in range(3)] for i in range(3)], dtype=object)
    consts = [sym(n) for n in ("c", "s", "d", "cs", "s2", "twocs", "om2s2")]
    for axis in "xy":
        c = count_operations(*screw_abi_zero_row_xy_kernel(AxialScrew(axis, *consts), M, H, L))
        assert (c.mul, c.add) == (32, 28) == compact.BOOK["screw x, y: Iᵃ (row 3 zero)"]
    counts = compact.operation_counts()
    z, xy = counts["screw z: Iᵃ (row 3 zero)"], counts["screw x, y: Iᵃ (row 3 zero)"]
    once = counts["screw constants"]
    assert (z.mul + xy.mul + once.mul, z.add + xy.add + once.add) == (62, 65)


def test_counted_operations_equal_tables_a4_a5():
    """Instrumented (symbolic) execution of each formula reproduces the book's cost figures."""
    counts = compact.operation_counts()
    assert set(counts) == set(compact.BOOK)
    differ = {k: (c.mul, c.add) for k, c in counts.items() if (c.mul, c.add) != compact.BOOK[k]}
    # one known difference: X* Iᴬ X⁻¹ by Table A.4's formula with the §A.5 tricks costs
    # 135m + 139a here against the book's 137m + 137a (the same 274 operations in total)
    assert differ == {"X* Iᴬ X⁻¹": (135, 139)}
    assert counts["X⁻¹"].neg == 3  # -E r: the sign changes the book counts as free
    # the §10.3.1 building blocks: vx = two screws of a vector, ra = 10a
    vx = 2 * counts["screw: m, f"].mul, 2 * counts["screw: m, f"].add
    assert vx == (sp.cost.VX_DH.mul, sp.cost.VX_DH.add)
    assert (counts["I₁ + I₂"].mul, counts["I₁ + I₂"].add) == (sp.cost.RA.mul, sp.cost.RA.add)
    screw_I = counts["screw: I"]
    # rx^dh = 2 (16m + 15a) - 2m (m·d precomputed) + one-time 2m + 3a = 32m + 33a
    assert (2 * screw_I.mul - 2 + 2, 2 * screw_I.add + 3) == (sp.cost.RX_DH.mul, sp.cost.RX_DH.add)


def test_dense_kernels_count_what_numpy_does():
    """The package's dense kernels, counted on symbols: by hand, a 6x6 matrix times a vector is
    36m + 30a, a 3x3-block formula three 3x3 products and one sum (27m + 21a), two 6x6x6
    products 432m + 360a."""
    counts = {k: (c.mul, c.add) for k, c in compact.dense_operation_counts().items()}
    assert counts == {
        "X v": (36, 30),
        "X⁻¹ v": (27, 21),
        "X* f": (27, 21),
        "Xᵀ f": (36, 30),
        "X₁ X₂": (216, 180),
        "I v": (36, 30),
        "X* I X⁻¹": (432, 360),
        "Xᵀ I X": (432, 360),
    }
    # and every compact formula is cheaper than its dense counterpart
    compact_counts = compact.operation_counts()
    assert all(compact_counts[k].total < m + a for k, (m, a) in counts.items())


def test_dense_form_costs_far_more():
    """Xᵀ I X as two dense 6x6x6 products: 432m + 360a (App. A.3) against 52m + 56a."""
    from spatial.symbolic import Expr, count_operations

    X = np.array([[Expr("var", f"x{i}{j}") for j in range(6)] for i in range(6)], dtype=object)
    I = np.array([[Expr("var", f"i{i}{j}") for j in range(6)] for i in range(6)], dtype=object)
    counted = count_operations(X.T @ I @ X)
    assert (counted.mul, counted.add) == (432, 360)


def test_bad_input_is_named(data):
    X, _, I, _, v = data
    T = compact.compact_transform(X)
    with pytest.raises(TypeError, match="expected a compact Transform"):
        compact.transform_motion(X, v)
    with pytest.raises(ValueError, match="v must have shape"):
        compact.transform_motion(T, v[..., :3])
    with pytest.raises(ValueError, match="E is not orthonormal"):
        compact.transform_motion(compact.Transform(2 * np.eye(3), np.zeros(3)), v)
    with pytest.raises(ValueError, match="lower-right block must be m·1"):
        compact.compact_rbi(np.eye(6) + np.diag([0, 0, 0, 0, 0, 1.0]))
    with pytest.raises(ValueError, match="upper-right block must be skew"):
        bad = np.eye(6)
        bad[0, 3] = bad[3, 0] = 0.5
        compact.compact_rbi(bad)
    with pytest.raises(ValueError, match="IA is not symmetric"):
        compact.compact_abi(np.triu(np.ones((6, 6))))
    with pytest.raises(ValueError, match="mass m must be positive"):
        compact.rbi_times_motion(compact.RigidInertia(-1.0, np.zeros(3), np.zeros(6)), v)
    with pytest.raises(ValueError, match="axis must be 'x', 'y' or 'z'"):
        compact.axial_screw("w", 0.1, 0.2)
    with pytest.raises(TypeError, match="expected an AxialScrew"):
        compact.screw_motion(T, v)


def test_axial_screw_arguments_that_do_not_broadcast_are_named():
    with pytest.raises(ValueError, match=r"do not broadcast: theta \(3,\), d \(2,\)"):
        compact.axial_screw("z", np.zeros(3), np.zeros(2))
    with pytest.raises(ValueError, match="^theta must be real"):
        compact.axial_screw("z", 0.1 + 1j, 0.2)
