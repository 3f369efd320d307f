"""Tests for spatial.inertia: inverse and factor (ArtiSynth §0.1), shapes, composites, axes."""

import numpy as np
import pytest

from spatial.inertia import (
    composite_inertia,
    cuboid_inertia,
    cylinder_inertia,
    ellipsoid_inertia,
    inertia_factor,
    inertia_inverse,
    inertia_params,
    mcI,
    nearest_rotational_inertia,
    point_mass_inertia,
    principal_axes,
    sphere_inertia,
    validate_inertia,
)
from spatial.se3 import exp_so3, frame
from spatial.vectors import skew


def random_inertia(rng, batch=()):
    """Random physical rigid-body inertias: a rotated box's I_c, random mass and CoM."""
    m = rng.uniform(0.5, 3.0, batch)
    c = rng.normal(size=batch + (3,))
    sides = rng.uniform(0.2, 2.0, batch + (3,))
    x2, y2, z2 = np.moveaxis(sides**2, -1, 0)
    d = m[..., None] / 12 * np.stack([y2 + z2, z2 + x2, x2 + y2], -1)
    R = exp_so3(rng.normal(size=batch + (3,)))
    I_c = R @ (d[..., :, None] * np.eye(3)) @ np.swapaxes(R, -1, -2)
    return mcI(m, c, I_c), m, c, I_c


# ----------------------------------------------------------------------- inverse and factor


def test_inverse_is_the_inverse(rng):
    I, *_ = random_inertia(rng, (5,))
    np.testing.assert_allclose(
        I @ inertia_inverse(I), np.broadcast_to(np.eye(6), I.shape), atol=1e-10
    )


def test_inverse_matches_featherstone_eq_2_74(rng):
    # Φ_O = [[J⁻¹, J⁻¹ c×ᵀ], [c× J⁻¹, 1/m + c× J⁻¹ c×ᵀ]], written out by hand
    _, m, c, J = random_inertia(rng)
    Ji, C = np.linalg.inv(J), skew(c)
    expected = np.block([[Ji, Ji @ C.T], [C @ Ji, np.eye(3) / m + C @ Ji @ C.T]])
    np.testing.assert_allclose(inertia_inverse(mcI(m, c, J)), expected, rtol=1e-12, atol=1e-12)


def test_inverse_at_centre_of_mass_is_block_diagonal():
    # eq. 2.73: Φ_C = blkdiag(I_c⁻¹, 1/m)
    I_c = np.diag([2.0, 4.0, 4.0])
    expected = np.diag([0.5, 0.25, 0.25, 0.5, 0.5, 0.5])
    np.testing.assert_allclose(inertia_inverse(mcI(2.0, np.zeros(3), I_c)), expected, atol=1e-15)


def test_factor_reproduces_inertia_and_is_block_upper_triangular(rng):
    I, m, c, I_c = random_inertia(rng, (4,))
    G = inertia_factor(I)
    np.testing.assert_allclose(G @ np.swapaxes(G, -1, -2), I, rtol=1e-12, atol=1e-12)
    # angular-first layout: [[L, √m c×], [0, √m 1]], L lower triangular
    assert np.all(G[..., 3:, :3] == 0.0)
    np.testing.assert_allclose(G[..., 3:, 3:], np.sqrt(m)[:, None, None] * np.eye(3), rtol=1e-15)
    np.testing.assert_allclose(G[..., :3, 3:], np.sqrt(m)[:, None, None] * skew(c), rtol=1e-12)
    L = G[..., :3, :3]
    assert np.all(np.triu(L, 1) == 0.0)
    np.testing.assert_allclose(L @ np.swapaxes(L, -1, -2), I_c, rtol=1e-12, atol=1e-14)
    # and the inverse through the factor, I⁻¹ = G⁻ᵀ G⁻¹
    Gi = np.linalg.inv(G)
    np.testing.assert_allclose(
        np.swapaxes(Gi, -1, -2) @ Gi, inertia_inverse(I), rtol=1e-9, atol=1e-10
    )


def test_inverse_and_factor_batched_equal_looped(rng):
    I, *_ = random_inertia(rng, (2, 3))
    for fn in (inertia_inverse, inertia_factor):
        batched = fn(I)
        looped = np.array([[fn(I[i, j]) for j in range(3)] for i in range(2)])
        np.testing.assert_allclose(batched, looped, rtol=1e-14, atol=1e-15)


# ---------------------------------------------------------------------------------- shapes


def test_cuboid_matches_sueda_eq_1_24():
    # m = 3, sides 1, 2, 3: m/12 (ly² + lz²) = 3/12 · 13, m/12 (lz² + lx²) = 3/12 · 10, ...
    expected = np.diag([3.25, 2.5, 1.25, 3.0, 3.0, 3.0])
    np.testing.assert_allclose(cuboid_inertia(3.0, 1.0, 2.0, 3.0), expected, rtol=1e-15)


def test_cylinder_sphere_ellipsoid_known_values():
    # cylinder m = 2, r = 0.5, l = 3: (3·0.25 + 9)·2/12 = 1.625, ½·2·0.25 = 0.25
    np.testing.assert_allclose(
        cylinder_inertia(2.0, 0.5, 3.0), np.diag([1.625, 1.625, 0.25, 2, 2, 2]), rtol=1e-15
    )
    # sphere m = 5, r = 2: 2/5 · 5 · 4 = 8
    np.testing.assert_allclose(sphere_inertia(5.0, 2.0), np.diag([8, 8, 8, 5, 5, 5.0]), rtol=1e-15)
    # ellipsoid m = 5, semi-axes 1, 2, 3: (4 + 9), (9 + 1), (1 + 4)
    np.testing.assert_allclose(
        ellipsoid_inertia(5.0, 1.0, 2.0, 3.0), np.diag([13, 10, 5, 5, 5, 5.0]), rtol=1e-15
    )
    # an ellipsoid with equal semi-axes is a sphere
    np.testing.assert_allclose(ellipsoid_inertia(5.0, 2.0, 2.0, 2.0), sphere_inertia(5.0, 2.0))


def test_cuboid_is_the_limit_of_a_grid_of_point_masses():
    # N³ point masses at the cell midpoints of the box: Σ x² / N = l²/12 (1 - 1/N²) exactly,
    # so the composite is the cuboid formula with every squared side scaled by (1 - 1/N²).
    m, sides, N = 2.0, np.array([1.0, 2.0, 0.5]), 4
    ticks = [(np.arange(N) + 0.5) / N * s - s / 2 for s in sides]
    pts = np.stack(np.meshgrid(*ticks, indexing="ij"), -1).reshape(-1, 3)
    grid = composite_inertia(point_mass_inertia(m / N**3, pts))
    shrunk = sides * np.sqrt(1 - 1 / N**2)
    np.testing.assert_allclose(grid, cuboid_inertia(m, *shrunk), rtol=1e-12, atol=1e-14)


def test_cuboid_equals_its_eight_half_boxes():
    # parallel-axis theorem through Sueda eq. 1.26: the 8 half-size boxes at (±lx/4, ±ly/4, ±lz/4)
    m, l = 4.0, np.array([1.0, 3.0, 2.0])
    signs = np.stack(np.meshgrid([-1, 1], [-1, 1], [-1, 1], indexing="ij"), -1).reshape(-1, 3)
    frames = frame(np.broadcast_to(np.eye(3), (8, 3, 3)), signs * l / 4)
    parts = np.broadcast_to(cuboid_inertia(m / 8, *(l / 2)), (8, 6, 6))
    np.testing.assert_allclose(
        composite_inertia(parts, frames), cuboid_inertia(m, *l), rtol=1e-13, atol=1e-14
    )


def test_shape_with_frame_is_mcI_with_rotated_inertia(rng):
    R, p = exp_so3(rng.normal(size=3)), rng.normal(size=3)
    I_c = np.diag([3.25, 2.5, 1.25])
    np.testing.assert_allclose(
        cuboid_inertia(3.0, 1.0, 2.0, 3.0, T=frame(R, p)),
        mcI(3.0, p, R @ I_c @ R.T),
        rtol=1e-12,
        atol=1e-12,
    )


def test_shapes_broadcast_over_batches():
    m = np.array([1.0, 2.0])
    I = cylinder_inertia(m, 0.5, np.array([[1.0], [2.0], [3.0]]))
    assert I.shape == (3, 2, 6, 6)
    np.testing.assert_allclose(I[2, 1], cylinder_inertia(2.0, 0.5, 3.0))


def test_point_mass_inertia_known_value():
    # m = 2 at p = (1, 0, 0): rotational part m (|p|² 1 - p pᵀ) = diag(0, 2, 2)
    I = point_mass_inertia(2.0, [1.0, 0.0, 0.0])
    np.testing.assert_allclose(I[:3, :3], np.diag([0.0, 2.0, 2.0]))
    np.testing.assert_allclose(I[:3, 3:], 2.0 * skew([1.0, 0.0, 0.0]))
    np.testing.assert_allclose(I[3:, 3:], 2.0 * np.eye(3))
    assert np.linalg.matrix_rank(I) == 3


# ------------------------------------------------------------------ composite and principal axes


def test_composite_of_two_spheres_by_hand():
    # spheres m=1 at x=0 and m=3 at x=2 (radius 0.5): CoM at 1.5 (Sueda eq. 1.25);
    # about the CoM, I_yy = I_zz = 2·(2/5·m·r²) terms + 1·1.5² + 3·0.5² = 0.1 + 0.3 + 2.25 + 0.75
    parts = np.stack([sphere_inertia(1.0, 0.5), sphere_inertia(3.0, 0.5)])
    frames = frame(np.broadcast_to(np.eye(3), (2, 3, 3)), [[0, 0, 0], [2.0, 0, 0]])
    m, c, I_c = inertia_params(composite_inertia(parts, frames))
    assert m == pytest.approx(4.0)
    np.testing.assert_allclose(c, [1.5, 0, 0], atol=1e-15)
    np.testing.assert_allclose(I_c, np.diag([0.4, 3.4, 3.4]), rtol=1e-14, atol=1e-15)


def test_composite_of_rotated_parts_is_the_sum_of_transformed_inertias(rng):
    # parts with random (m, c, I_c) in their own frames, placed by random rotated frames E_ck;
    # expected: each part rewritten by hand in the composite frame (centre R c + p, rotational
    # inertia R I_c Rᵀ), summed; and the momentum of the composite moving with a twist is the
    # sum of the parts' momenta computed in their own frames and carried over (Featherstone §2.13)
    n = 4
    _, m, c, I_c = random_inertia(rng, (n,))
    parts = mcI(m, c, I_c)
    R, p = exp_so3(rng.normal(size=(n, 3))), rng.normal(size=(n, 3))
    I = composite_inertia(parts, frame(R, p))
    c_world = np.einsum("nij,nj->ni", R, c) + p
    expected = sum(mcI(m[k], c_world[k], R[k] @ I_c[k] @ R[k].T) for k in range(n))
    np.testing.assert_allclose(I, expected, rtol=1e-12, atol=1e-12)
    v = rng.normal(size=6)  # twist of the whole body, composite coordinates
    h_parts = 0.0
    for k in range(n):
        X_ck = np.block([[R[k], np.zeros((3, 3))], [skew(p[k]) @ R[k], R[k]]])  # twists k → c
        v_k = np.linalg.solve(X_ck, v)
        h_parts = h_parts + np.linalg.inv(X_ck).T @ (parts[k] @ v_k)  # momentum k → c
    np.testing.assert_allclose(I @ v, h_parts, rtol=1e-12, atol=1e-12)
    # the mass adds and the centre of mass is the mass-weighted mean (Sueda eq. 1.25)
    m_tot, c_tot, _ = inertia_params(I)
    np.testing.assert_allclose(m_tot, m.sum(), rtol=1e-14)
    np.testing.assert_allclose(c_tot, m @ c_world / m.sum(), rtol=1e-12, atol=1e-14)


def test_principal_axes_reassemble_and_diagonalize(rng):
    I, m, c, I_c = random_inertia(rng, (6,))
    m2, c2, R, d = principal_axes(I)
    np.testing.assert_allclose(m2, m, rtol=1e-14)
    np.testing.assert_allclose(c2, c, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(np.linalg.det(R), 1.0, rtol=1e-12)
    assert np.all(np.diff(d, axis=-1) >= 0)
    Rt = np.swapaxes(R, -1, -2)
    np.testing.assert_allclose(Rt @ I_c @ R, d[..., :, None] * np.eye(3), atol=1e-12)
    np.testing.assert_allclose(
        mcI(m2, c2, R @ (d[..., :, None] * np.eye(3)) @ Rt), I, rtol=1e-11, atol=1e-12
    )


def test_principal_axes_of_a_rotated_box():
    # a box rotated by 90° about z swaps its x and y moments; principal axes recover them
    R0 = exp_so3([0.0, 0.0, np.pi / 2])
    I = cuboid_inertia(3.0, 1.0, 2.0, 3.0, T=frame(R0, [1.0, 2.0, 3.0]))
    m, c, R, d = principal_axes(I)
    np.testing.assert_allclose(d, [1.25, 2.5, 3.25], rtol=1e-13)
    np.testing.assert_allclose(c, [1.0, 2.0, 3.0], rtol=1e-13)
    # smallest moment (1.25) is about the box's z axis, which stays the world z axis
    np.testing.assert_allclose(np.abs(R[:, 0]), [0, 0, 1], atol=1e-12)
    # largest (3.25) is about the box's x axis, now along world y
    np.testing.assert_allclose(np.abs(R[:, 2]), [0, 1, 0], atol=1e-12)


def test_construction_and_composites_batched_equal_looped(rng):
    B = 4
    I, m, c, I_c = random_inertia(rng, (B,))
    E = frame(exp_so3(rng.normal(size=(B, 3))), rng.normal(size=(B, 3)))
    sides = rng.uniform(0.2, 2.0, (3, B))
    parts = np.stack([I, np.roll(I, 1, axis=0)])  # (2 parts, B, 6, 6)
    poses = np.stack([E, np.roll(E, 2, axis=0)])  # (2 parts, B, 4, 4)
    cases = [
        (mcI, (m, c, I_c)),
        (inertia_params, (I,)),
        (validate_inertia, (I,)),
        (cuboid_inertia, (m, *sides, E)),
        (cylinder_inertia, (m, sides[0], sides[1], E)),
        (sphere_inertia, (m, sides[0], E)),
        (ellipsoid_inertia, (m, *sides, E)),
        (point_mass_inertia, (m, c)),
    ]
    for fn, args in cases:
        batched = fn(*args)
        looped = [fn(*(a[k] for a in args)) for k in range(B)]
        if isinstance(batched, tuple):  # inertia_params
            for i, part in enumerate(batched):
                np.testing.assert_allclose(part, np.stack([x[i] for x in looped]), atol=1e-15)
        else:
            np.testing.assert_allclose(batched, np.stack(looped), rtol=1e-14, atol=1e-15)
    # composites: the parts axis comes first, then the batch
    looped = np.stack([composite_inertia(parts[:, k], poses[:, k]) for k in range(B)])
    np.testing.assert_allclose(composite_inertia(parts, poses), looped, rtol=1e-14, atol=1e-14)


def test_principal_axes_batched_equal_looped(rng):
    I, *_ = random_inertia(rng, (3,))
    out = principal_axes(I)
    for i in range(3):
        for a, b in zip(out, principal_axes(I[i]), strict=True):
            np.testing.assert_allclose(a[i], b, rtol=1e-14, atol=1e-15)


# ------------------------------------------------------------------------------ validation


def test_validation_errors():
    good = cuboid_inertia(1.0, 1.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="shape"):
        validate_inertia(np.eye(5))
    with pytest.raises(ValueError, match="symmetric"):
        validate_inertia(good + np.triu(np.ones((6, 6)), 1) * 0.1)
    with pytest.raises(ValueError, match="mass"):
        validate_inertia(-good)
    bad = good.copy()
    bad[3, 3] = 2.0
    with pytest.raises(ValueError, match="lower-right"):
        validate_inertia(bad)
    bad = good.copy()
    bad[0, 3] = bad[3, 0] = 0.1
    with pytest.raises(ValueError, match="upper-right"):
        validate_inertia(bad)
    bad = good.copy()
    bad[0, 0] = -1.0
    with pytest.raises(ValueError, match="positive definite"):
        validate_inertia(bad)
    for fn in (inertia_inverse, inertia_factor, principal_axes):
        with pytest.raises(ValueError, match="positive definite"):
            fn(bad)


@pytest.mark.parametrize(
    "fn, args, match",
    [
        (mcI, (0.0, np.zeros(3), np.eye(3)), r"m \(mass\) must be positive"),
        (mcI, ([1.0, -2.0], np.zeros(3), np.eye(3)), r"m \(mass\) must be positive"),
        (mcI, (np.nan, np.zeros(3), np.eye(3)), r"m \(mass\) contains non-finite"),
        (mcI, (1.0, [0.0, 0.0], np.eye(3)), r"c must have shape \(\.\.\., 3\)"),
        (mcI, (1.0, [0.0, np.inf, 0.0], np.eye(3)), "c contains non-finite"),
        (mcI, (1.0, np.zeros(3), np.eye(4)), r"I_c must have shape \(\.\.\., 3, 3\)"),
        (
            mcI,
            (1.0, np.zeros(3), np.diag([1.0, 1.0, -1.0])),
            r"I_c must be positive definite \(smallest eigenvalue -1\)",
        ),
        (mcI, (1.0, np.zeros(3), np.diag([1.0, 1.0, 0.0])), "I_c must be positive definite"),
        (mcI, (1.0, np.zeros(3), np.eye(3) + np.triu(np.ones((3, 3)), 1)), "symmetric"),
        (inertia_params, (np.eye(5),), r"I must have shape \(\.\.\., 6, 6\)"),
        (inertia_params, (-np.eye(6),), "non-positive mass"),
        (inertia_params, (np.diag([1.0, 1, 1, 1, 2, 1]),), "lower-right block must be m·1"),
        (validate_inertia, (np.full((6, 6), np.nan),), "non-finite"),
    ],
)
def test_mcI_and_inertia_params_reject_bad_input(fn, args, match):
    with pytest.raises(ValueError, match=match):
        fn(*args)


def test_triangle_inequality_is_an_error_naming_the_moments():
    # 1 + 1 < 5: no mass distribution has these principal moments
    triangle = r"violates the triangle inequality d1 \+ d2 >= d3 of principal moments \(1, 1, 5\)"
    with pytest.raises(ValueError, match="I_c " + triangle):
        mcI(1, np.zeros(3), np.diag([1.0, 1, 5]))
    # the same rotational inertia assembled by hand, turned and moved off the centre of mass
    R = exp_so3([0.3, -0.2, 0.9])
    impossible = np.zeros((6, 6))
    impossible[:3, :3] = R @ np.diag([1.0, 5.0, 1.0]) @ R.T  # I_c, the moments out of order
    impossible[3:, 3:] = 2.0 * np.eye(3)
    C = skew([0.1, 0.2, -0.3])
    impossible[:3, :3] += 2.0 * C @ C.T
    impossible[:3, 3:], impossible[3:, :3] = 2.0 * C, 2.0 * C.T
    for fn in (validate_inertia, inertia_inverse, inertia_factor, principal_axes):
        with pytest.raises(ValueError, match="I: the rotational inertia about the centre of mass "):
            fn(impossible)
    with pytest.raises(ValueError, match=triangle):
        validate_inertia(impossible, allow_massless=True)


def test_triangle_inequality_tolerance_is_relative():
    for scale in (1e-6, 1.0, 1e6):
        validate_inertia(mcI(scale, np.zeros(3), scale * np.diag([1.0, 1.0, 2.0])))  # boundary
        with pytest.raises(ValueError, match="triangle inequality"):
            mcI(scale, np.zeros(3), scale * np.diag([1.0, 1.0, 2.0 + 1e-6]))


def test_bodies_on_the_boundary_of_the_triangle_inequality_pass(rng):
    # flat bodies (all mass in one plane) have d1 + d2 = d3 exactly: round-off must not reject
    # them, wherever they sit and however they are turned
    plates = [cuboid_inertia(2.0, 1.0, 0.5, 1e-9), ellipsoid_inertia(1.0, 0.3, 1e-10, 0.7)]
    # needles also have a zero moment, d1 = 0, below round-off: only a tree body may be one
    needles = [cuboid_inertia(2.0, 1e-12, 1.0, 1e-12), cylinder_inertia(1.0, 1e-9, 2.0)]
    for I in plates + needles:
        for _ in range(5):
            E = frame(exp_so3(rng.normal(size=3)), 10.0 * rng.normal(size=3))
            moved = composite_inertia(I[None], E[None])
            validate_inertia(moved, allow_massless=True)
            if any(I is plate for plate in plates):
                validate_inertia(moved)
    # a plate of point masses: singular parts, a flat whole
    xy = rng.uniform(-1.0, 1.0, (50, 2))
    points = np.concatenate([xy, np.zeros((50, 1))], -1) @ exp_so3(rng.normal(size=3)).T + 5.0
    plate = composite_inertia(point_mass_inertia(rng.uniform(0.1, 1.0, 50), points))
    validate_inertia(plate)
    m, c, I_c = inertia_params(plate)
    mcI(m, c, I_c)


def test_massless_and_point_mass_inertias_only_with_allow_massless():
    bob = point_mass_inertia(1.0, [0.0, -1.0, 0.0])
    validate_inertia(bob, allow_massless=True)
    validate_inertia(np.zeros((6, 6)), allow_massless=True)
    with pytest.raises(ValueError, match="must be positive definite"):
        validate_inertia(bob)
    with pytest.raises(ValueError, match="non-positive mass"):
        validate_inertia(np.zeros((6, 6)))
    with pytest.raises(ValueError, match=r"negative mass m = I\[\.\.\., 3, 3\] = -1; need m ≥ 0"):
        validate_inertia(-bob, allow_massless=True)
    first_moment = np.zeros((6, 6))
    first_moment[:3, :3] = np.eye(3)
    first_moment[:3, 3:] = skew([0.0, 0.0, 1.0])
    first_moment[3:, :3] = skew([0.0, 0.0, 1.0]).T
    with pytest.raises(ValueError, match="zero mass but a non-zero upper-right block"):
        validate_inertia(first_moment, "J", allow_massless=True)
    indefinite = bob.copy()
    indefinite[0, 0] -= 0.5
    with pytest.raises(ValueError, match="must be positive semi-definite"):
        validate_inertia(indefinite, allow_massless=True)


def test_a_batch_reports_its_worst_violation():
    I_c = np.stack([np.diag([1.0, 1.0, 1.5]), np.diag([1.0, 1.0, 4.0]), np.diag([1.0, 1.0, 3.0])])
    I = np.zeros((3, 6, 6))
    I[:, :3, :3], I[:, 3:, 3:] = I_c, np.eye(3)
    with pytest.raises(ValueError, match=r"principal moments \(1, 1, 4\)"):
        validate_inertia(I)


def test_shape_argument_errors():
    with pytest.raises(ValueError, match="m must be positive"):
        cuboid_inertia(0.0, 1, 1, 1)
    with pytest.raises(ValueError, match="lz must be positive"):
        cuboid_inertia(1.0, 1, 1, -1)
    with pytest.raises(ValueError, match="r must be positive"):
        cylinder_inertia(1.0, 0.0, 1)
    with pytest.raises(ValueError, match="l must be positive"):
        cylinder_inertia(1.0, 1.0, 0)
    with pytest.raises(ValueError, match="r must be positive"):
        sphere_inertia(1.0, -2.0)
    with pytest.raises(ValueError, match="b must be positive"):
        ellipsoid_inertia(1.0, 1.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="m must be positive"):
        point_mass_inertia(-1.0, [0, 0, 0])
    with pytest.raises(ValueError, match="p must have shape"):
        point_mass_inertia(1.0, [0, 0])
    with pytest.raises(ValueError, match="rotation"):
        sphere_inertia(1.0, 1.0, T=np.diag([1.0, 1.0, -1.0, 1.0]))


def test_composite_argument_errors():
    I = sphere_inertia(1.0, 1.0)
    with pytest.raises(ValueError, match=r"shape \(n, \.\.\., 6, 6\)"):
        composite_inertia(I)
    with pytest.raises(ValueError, match="n >= 1"):
        composite_inertia(np.zeros((0, 6, 6)))
    with pytest.raises(ValueError, match="frames must have shape"):
        composite_inertia(np.stack([I, I]), np.eye(4)[None])
    with pytest.raises(ValueError, match="rotation block of frames is a reflection"):
        composite_inertia(np.stack([I, I]), np.stack([np.eye(4), np.diag([1.0, 1.0, -1.0, 1.0])]))
    with pytest.raises(ValueError, match="frames is not a rigid frame"):
        composite_inertia(np.stack([I, I]), np.stack([np.eye(4), np.ones((4, 4))]))
    with pytest.raises(ValueError, match="positive semi-definite"):
        composite_inertia(np.stack([I, I - np.diag([1.0, 0, 0, 0, 0, 0])]))
    with pytest.raises(ValueError, match="lower-right"):
        composite_inertia(np.stack([I, np.eye(6) * np.arange(1, 7)]))


# --------------------------------------------------------- the nearest physical inertia


def _point_cloud_inertia(rng, n=5):
    """I_c of a random cloud of point masses about its centre of mass: physical by construction."""
    m, r = rng.uniform(0.1, 1.0, n), rng.normal(size=(n, 3)) * rng.uniform(0.1, 2.0, 3)
    r = r - (m @ r) / m.sum()
    return sum(mk * (rk @ rk * np.eye(3) - np.outer(rk, rk)) for mk, rk in zip(m, r, strict=True))


def _triangle_slack(I_c):
    d = np.linalg.eigvalsh(I_c)
    return min(d[0] + d[1] - d[2], d[0])


def test_nearest_rotational_inertia_of_equal_entries_is_known():
    # every entry 1e-6 (the base of Go1 and ANYmal B): principal moments 0, 0, 3e-6 along
    # (1, 1, 1)/√3; excess e = 3e-6, so the moments become (1, 1, 2)·1e-6 on the same axes:
    # 1e-6 (1 - uuᵀ) + 2e-6 uuᵀ = 1e-6 (1 + 11ᵀ/3), a change of e/√3 = √3·1e-6
    J = nearest_rotational_inertia(np.full((3, 3), 1e-6))
    np.testing.assert_allclose(J, 1e-6 * (np.eye(3) + np.ones((3, 3)) / 3), rtol=0, atol=1e-20)
    assert np.linalg.norm(J - 1e-6) == pytest.approx(np.sqrt(3) * 1e-6, rel=1e-9)
    mcI(1.0, np.zeros(3), J)  # physical: mcI accepts it


def test_only_the_triangle_inequality_broken_moves_the_moments_by_a_third_of_the_excess(rng):
    d, e = np.array([0.2, 0.5, 1.0]), 0.3  # d1 + d2 = 0.7 < 1.0 = d3: the excess e = 0.3
    R = exp_so3(rng.normal(size=3))
    J = nearest_rotational_inertia(R @ np.diag(d) @ R.T)
    np.testing.assert_allclose(R.T @ J @ R, np.diag(d + e / 3 * np.array([1, 1, -1])), atol=1e-14)


@pytest.mark.parametrize("d", [(0.0, 0.0, 3.0), (0.2, 0.5, 1.0), (-1.0, 0.2, 0.5), (-1, -2, -3)])
def test_nearest_rotational_inertia_is_physical_and_no_physical_inertia_is_closer(rng, d):
    R = exp_so3(rng.normal(size=3))
    X = R @ np.diag(d) @ R.T
    P = nearest_rotational_inertia(X)
    assert _triangle_slack(P) >= -1e-12
    # the projection onto a convex set: <X - P, Y - P> <= 0 for every Y in the set, so no
    # physical Y is nearer than P; checked on random physical inertias (point clouds), scaled
    for _ in range(200):
        Y = _point_cloud_inertia(rng) * rng.uniform(0.01, 5.0)
        assert np.sum((X - P) * (Y - P)) <= 1e-12 * (1 + np.abs(Y).max())
        assert np.linalg.norm(X - Y) >= np.linalg.norm(X - P) - 1e-12


def test_a_physical_rotational_inertia_is_left_as_it_is(rng):
    for _ in range(20):
        Y = _point_cloud_inertia(rng)
        np.testing.assert_allclose(nearest_rotational_inertia(Y), Y, rtol=0, atol=1e-13)
    batch = np.stack([_point_cloud_inertia(rng), np.full((3, 3), 1e-6)])
    out = nearest_rotational_inertia(batch)
    np.testing.assert_allclose(out[0], batch[0], atol=1e-13)
    np.testing.assert_allclose(out[1], nearest_rotational_inertia(batch[1]), atol=1e-20)


def test_nearest_rotational_inertia_refuses_what_is_not_a_symmetric_matrix():
    with pytest.raises(ValueError, match="I_c must be symmetric"):
        nearest_rotational_inertia(np.triu(np.ones((3, 3))))
    with pytest.raises(ValueError, match="I_c must have shape"):
        nearest_rotational_inertia(np.eye(2))
    with pytest.raises(ValueError, match="I_c must be real"):
        nearest_rotational_inertia(np.eye(3) + 0j)
