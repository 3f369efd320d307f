"""The formulae of Featherstone Table A.4 and §A.5 on compact data, for numbers and symbols alike.

Each kernel is the book's formula written out element by element, so that it runs on float
arrays (with leading batch dimensions) and on object arrays of :class:`spatial.symbolic.Expr`,
where the same code counts its own operations (:mod:`spatial.compact.counts`).  No kernel
validates its input: the public functions of :mod:`spatial.compact.forms` do, once.

Storage (Table A.3): a Plücker transform is ``(E, r)``; a rigid-body inertia is
``(m, h, lt(I))`` with ``I`` the rotational inertia about the origin and ``h = m c``; an
articulated-body inertia is ``(lt(M), H, lt(I))``; ``lt`` keeps the lower triangle in the order
``(11, 21, 22, 31, 32, 33)``.
"""

from __future__ import annotations

import numpy as np

LT = ((0, 0), (1, 0), (1, 1), (2, 0), (2, 1), (2, 2))


def stack(items) -> np.ndarray:
    """Components into an array along a new last axis (object arrays stay object arrays)."""
    return np.stack([np.asarray(x) for x in items], axis=-1)


def lt_get(L, i: int, j: int):
    """Element ``(i, j)`` (0-based) of the symmetric matrix stored as ``lt`` ``L``."""
    i, j = max(i, j), min(i, j)
    return L[..., LT.index((i, j))]


def cross(a, b) -> np.ndarray:
    """``a × b``: 6m + 3a."""
    return stack(
        [
            a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1],
            a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
            a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0],
        ]
    )


def matvec(E, x) -> np.ndarray:
    """``E x``: 9m + 6a."""
    return stack(
        [
            E[..., i, 0] * x[..., 0] + E[..., i, 1] * x[..., 1] + E[..., i, 2] * x[..., 2]
            for i in range(3)
        ]
    )


def matTvec(E, x) -> np.ndarray:
    """``Eᵀ x``: 9m + 6a."""
    return stack(
        [
            E[..., 0, i] * x[..., 0] + E[..., 1, i] * x[..., 1] + E[..., 2, i] * x[..., 2]
            for i in range(3)
        ]
    )


def symvec(L, x) -> np.ndarray:
    """``A x`` for a symmetric ``A`` stored as ``lt`` ``L``: 9m + 6a."""
    return stack([sum_terms([lt_get(L, i, k) * x[..., k] for k in range(3)]) for i in range(3)])


def sum_terms(terms):
    total = terms[0]
    for t in terms[1:]:
        total = total + t
    return total


def transpose(E) -> np.ndarray:
    return np.swapaxes(E, -1, -2)


# --------------------------------------------------------------------------- §A.5 tricks


def rotation_product(F, G) -> np.ndarray:
    """``E = F G`` for rotations: two columns by product, the third by cross product, 24m + 15a."""

    def column(j: int) -> np.ndarray:
        return stack([sum_terms([F[..., i, l] * G[..., l, j] for l in range(3)]) for i in range(3)])

    cols = [column(0), column(1)]
    cols.append(cross(cols[0], cols[1]))
    return np.stack(cols, axis=-1)


def rotate_symmetric(E, L) -> np.ndarray:
    """``lt(E A Eᵀ)`` for a rotation ``E`` and symmetric ``A = lt⁻¹(L)``: 28m + 29a (§A.5).

    ``A`` splits into ``L' + A₃₃·1 + v×`` with ``L'`` zero in its third column, so that
    ``E A Eᵀ = E L' Eᵀ + A₃₃·1 + (E v)×``; only the lower triangle of ``E L' Eᵀ`` is formed, and
    its first diagonal element comes from the trace, which rotation leaves unchanged.
    """
    A11, A21, A22, A31, A32, A33 = (L[..., k] for k in range(6))
    # L' (4a): columns 1 and 2, the third is zero
    L11, L21, L31 = A11 - A33, A21, A31 + A31
    L12, L22, L32 = A21, A22 - A33, A32 + A32
    Lc = ((L11, L12), (L21, L22), (L31, L32))
    # Y = rows 2, 3 of E L' (12m + 8a)
    Y = {
        (i, j): E[..., i, 0] * Lc[0][j] + E[..., i, 1] * Lc[1][j] + E[..., i, 2] * Lc[2][j]
        for i in (1, 2)
        for j in (0, 1)
    }
    # Z = Y E'ᵀ for (2,1), (2,2), (3,1), (3,2), (3,3) (10m + 5a)
    Z = {
        (i, k): Y[i, 0] * E[..., k, 0] + Y[i, 1] * E[..., k, 1]
        for (i, k) in ((1, 0), (1, 1), (2, 0), (2, 1), (2, 2))
    }
    Z[0, 0] = L11 + L22 - Z[1, 1] - Z[2, 2]  # trace (3a)
    # E v with v = [-A32, A31, 0] (6m + 3a), written without sign changes
    w = [E[..., i, 1] * A31 - E[..., i, 0] * A32 for i in range(3)]
    # lt(Z + A33·1 + (E v)×) (6a)
    return stack(
        [
            Z[0, 0] + A33,
            Z[1, 0] + w[2],
            Z[1, 1] + A33,
            Z[2, 0] - w[1],
            Z[2, 1] + w[0],
            Z[2, 2] + A33,
        ]
    )


def rotate_general(E, A) -> np.ndarray:
    """``E A Eᵀ`` for a rotation ``E`` and a general 3x3 ``A``: 40m + 39a (§A.5)."""
    a = lambda i, j: A[..., i, j]  # noqa: E731
    Lc = ((a(0, 0) - a(2, 2), a(0, 1)), (a(1, 0), a(1, 1) - a(2, 2)))
    Lc += ((a(2, 0) + a(0, 2), a(2, 1) + a(1, 2)),)
    Y = {
        (i, j): E[..., i, 0] * Lc[0][j] + E[..., i, 1] * Lc[1][j] + E[..., i, 2] * Lc[2][j]
        for i in range(3)
        for j in range(2)
    }
    Z = {
        (i, k): Y[i, 0] * E[..., k, 0] + Y[i, 1] * E[..., k, 1]
        for i in range(3)
        for k in range(3)
        if (i, k) != (0, 0)
    }
    Z[0, 0] = Lc[0][0] + Lc[1][1] - Z[1, 1] - Z[2, 2]
    w = [E[..., i, 1] * a(0, 2) - E[..., i, 0] * a(1, 2) for i in range(3)]
    rows = [
        [Z[0, 0] + a(2, 2), Z[0, 1] - w[2], Z[0, 2] + w[1]],
        [Z[1, 0] + w[2], Z[1, 1] + a(2, 2), Z[1, 2] - w[0]],
        [Z[2, 0] - w[1], Z[2, 1] + w[0], Z[2, 2] + a(2, 2)],
    ]
    return np.stack([stack(row) for row in rows], axis=-2)


# --------------------------------------------------------------------------- Table A.4


def motion(E, r, v) -> np.ndarray:
    """``X v = mv(E ω, E (v - r × ω))``: 24m + 18a."""
    w, vo = v[..., :3], v[..., 3:]
    return np.concatenate([matvec(E, w), matvec(E, vo - cross(r, w))], axis=-1)


def inv_motion(E, r, v) -> np.ndarray:
    """``X⁻¹ v = mv(Eᵀ ω, Eᵀ v + r × Eᵀ ω)``: 24m + 18a."""
    w = matTvec(E, v[..., :3])
    return np.concatenate([w, matTvec(E, v[..., 3:]) + cross(r, w)], axis=-1)


def force(E, r, f) -> np.ndarray:
    """``X* f = fv(E (n - r × f), E f)``: 24m + 18a."""
    n, fl = f[..., :3], f[..., 3:]
    return np.concatenate([matvec(E, n - cross(r, fl)), matvec(E, fl)], axis=-1)


def inv_force(E, r, f) -> np.ndarray:
    """``Xᵀ f = fv(Eᵀ n + r × Eᵀ f, Eᵀ f)``: 24m + 18a."""
    fl = matTvec(E, f[..., 3:])
    return np.concatenate([matTvec(E, f[..., :3]) + cross(r, fl), fl], axis=-1)


def compose(E1, r1, E2, r2):
    """``X₁ X₂ = plx(E₁ E₂, r₂ + E₂ᵀ r₁)``: 33m + 24a."""
    return rotation_product(E1, E2), r2 + matTvec(E2, r1)


def inverse(E, r):
    """``X⁻¹ = plx(Eᵀ, -E r)``: 9m + 6a (the sign change is free)."""
    return transpose(E), -matvec(E, r)


def rbi_motion(m, h, L, v) -> np.ndarray:
    """``I v = fv(I ω + h × v, m v - h × ω)``: 24m + 18a."""
    w, vo = v[..., :3], v[..., 3:]
    return np.concatenate([symvec(L, w) + cross(h, vo), m[..., None] * vo - cross(h, w)], axis=-1)


def rbi_add(a, b):
    """``I₁ + I₂``: 10a."""
    return tuple(x + y for x, y in zip(a, b, strict=True))


def _products(a, b):
    return [a[..., k] * b[..., k] for k in range(3)]


def rbi_transform(E, r, m, h, L):
    """``X* I X⁻¹ = rbi(m, E y, lt(E Z Eᵀ))``, ``y = h - m r``: 52m + 56a (Table A.4).

    ``Z = I + r×h× + y×r×``; for vectors ``a, b``, ``a×b× = b aᵀ - (a·b)·1``, so the diagonal of
    each product needs three of its own products and two sums (6m + 3a), and the sum with
    ``lt(I)`` costs 12a.
    """
    y = h - m[..., None] * r
    p, q = _products(r, h), _products(y, r)
    s = [p[1] + p[2], p[0] + p[2], p[0] + p[1]]  # minus the diagonal of r×h×
    t = [q[1] + q[2], q[0] + q[2], q[0] + q[1]]  # minus the diagonal of y×r×
    Z = stack(
        [
            L[..., 0] - s[0] - t[0],
            L[..., 1] + h[..., 1] * r[..., 0] + r[..., 1] * y[..., 0],
            L[..., 2] - s[1] - t[1],
            L[..., 3] + h[..., 2] * r[..., 0] + r[..., 2] * y[..., 0],
            L[..., 4] + h[..., 2] * r[..., 1] + r[..., 2] * y[..., 1],
            L[..., 5] - s[2] - t[2],
        ]
    )
    return m, matvec(E, y), rotate_symmetric(E, Z)


def rbi_inv_transform(E, r, m, h, L):
    """``Xᵀ I X = rbi(m, y, lt(Eᵀ I E - r×(Eᵀh)× - y×r×))``, ``y = Eᵀh + m r``: 52m + 56a."""
    g = matTvec(E, h)
    y = g + m[..., None] * r
    W = rotate_symmetric(transpose(E), L)
    p, q = _products(r, g), _products(y, r)
    s = [p[1] + p[2], p[0] + p[2], p[0] + p[1]]
    t = [q[1] + q[2], q[0] + q[2], q[0] + q[1]]
    B = stack(
        [
            W[..., 0] + s[0] + t[0],
            W[..., 1] - g[..., 1] * r[..., 0] - r[..., 1] * y[..., 0],
            W[..., 2] + s[1] + t[1],
            W[..., 3] - g[..., 2] * r[..., 0] - r[..., 2] * y[..., 0],
            W[..., 4] - g[..., 2] * r[..., 1] - r[..., 2] * y[..., 1],
            W[..., 5] + s[2] + t[2],
        ]
    )
    return m, y, B


def abi_transform(E, r, M, H, L):
    """``X* Iᴬ X⁻¹ = abi(lt(E M Eᵀ), E Y Eᵀ, lt(E Z Eᵀ))`` (Table A.4): 135m + 139a here.

    ``Y = H - r×M`` and ``Z = I - r×Hᵀ + Y r×``.  ``r×M`` is a skew matrix times a symmetric
    one: each ``r_a`` meets only five distinct elements of ``M`` (15m + 9a); the lower triangles of
    ``r×Hᵀ`` and ``Y r×`` cost 2m + 1a an element, then come the three rotations of §A.5.
    """

    def nxt(i: int, k: int) -> int:
        return (i + k) % 3

    products = {}

    def r_m(a: int, b: int, c: int):  # r_a M_bc, each distinct product formed once
        key = (a, max(b, c), min(b, c))
        if key not in products:
            products[key] = r[..., a] * lt_get(M, b, c)
        return products[key]

    # (r×A)_ij = r_{i+1} A_{i+2,j} - r_{i+2} A_{i+1,j} (indices mod 3)
    Y = [
        [
            H[..., i, j] - (r_m(nxt(i, 1), nxt(i, 2), j) - r_m(nxt(i, 2), nxt(i, 1), j))
            for j in range(3)
        ]
        for i in range(3)
    ]
    Z = []
    for k, (i, j) in enumerate(LT):
        rHt = r[..., nxt(i, 1)] * H[..., j, nxt(i, 2)] - r[..., nxt(i, 2)] * H[..., j, nxt(i, 1)]
        Yr = Y[i][nxt(j, 1)] * r[..., nxt(j, 2)] - Y[i][nxt(j, 2)] * r[..., nxt(j, 1)]
        Z.append(L[..., k] - rHt + Yr)
    Y = np.stack([stack(row) for row in Y], axis=-2)
    return rotate_symmetric(E, M), rotate_general(E, Y), rotate_symmetric(E, stack(Z))
