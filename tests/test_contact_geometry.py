"""Contact geometry and contact Jacobians (spatial.contact.geometry, spatial.contact.scene).

Closed forms worked out by hand for gaps and normals; the contact Jacobian rows are checked by
finite differences of the gaps and of body-fixed points along a velocity (trees through
``Model.integrate``, free bodies through the SE(3) exponential), and trees with Free joints
against free bodies in maximal coordinates.
"""

import numpy as np
import pytest

import spatial as sp
import spatial.contact as ct
from spatial import builders
from spatial.joints import Free

TOL = 1e-12


def _pose(R, p):
    return sp.frame(R, p)


def test_tangent_basis_is_a_right_handed_orthonormal_frame():
    rng = np.random.default_rng(0)
    n = rng.normal(size=(20, 3))
    n /= np.linalg.norm(n, axis=-1, keepdims=True)
    t = ct.tangent_basis(n)
    F = np.stack([t[:, 0], t[:, 1], n], axis=-1)  # columns t1, t2, n
    assert np.allclose(np.swapaxes(F, -1, -2) @ F, np.eye(3), atol=TOL)
    assert np.allclose(np.linalg.det(F), 1.0, atol=TOL)
    looped = np.stack([ct.tangent_basis(ni) for ni in n])
    assert np.allclose(t, looped, atol=0)


def test_sphere_plane_gap_point_and_normal():
    n = np.array([0.0, 0.6, 0.8])
    g = ct.sphere_plane([1.0, 2.0, 3.0], 0.5, n, offset=1.0)
    assert g.gap.shape == (1,)
    assert np.isclose(g.gap[0], 0.6 * 2 + 0.8 * 3 - 1.0 - 0.5, atol=TOL)
    assert np.allclose(g.point[0], np.array([1.0, 2.0, 3.0]) - 0.5 * n, atol=TOL)
    assert np.allclose(g.normal[0], n, atol=TOL)


def test_plane_normal_is_normalized_and_offset_broadcasts():
    centers = np.array([[0, 0, 1.0], [0, 0, 2.0], [0, 0, -1.0]])
    g = ct.sphere_plane(centers, 0.25, [0, 0, 2.0], offset=0.5)
    assert np.allclose(g.gap[:, 0], centers[:, 2] - 0.5 - 0.25, atol=TOL)
    assert np.allclose(g.normal, [0, 0, 1.0])


def test_box_plane_lowest_vertex_by_hand():
    # a box turned 45° about x: its lowest vertex is sqrt(hy² + hz²)-ish below the centre
    h = np.array([0.3, 0.2, 0.1])
    c = 45 * np.pi / 180
    R = sp.rotx(c)[:3, :3].T  # active rotation about x
    T = _pose(R, [0.0, 0.0, 1.0])
    g = ct.box_plane(T, h, [0, 0, 1.0])
    assert g.gap.shape == (8,)
    lowest = 1.0 - (h[1] * np.sin(c) + h[2] * np.cos(c))
    assert np.isclose(g.gap.min(), lowest, atol=TOL)
    assert np.allclose(g.gap, g.point[:, 2], atol=TOL)  # plane z = 0: gap is the height
    # vertices: every sign pattern of the half extents, rotated and shifted
    local = np.linalg.solve(R, (g.point - [0, 0, 1.0]).T).T
    assert np.allclose(np.abs(local), h, atol=TOL)
    assert len({tuple(np.sign(v)) for v in local}) == 8


def test_capsule_plane_uses_the_end_spheres():
    T = _pose(sp.roty(np.pi / 2)[:3, :3].T, [0.0, 0.0, 0.5])  # axis along world x, flat
    g = ct.capsule_plane(T, 0.2, 1.0, [0, 0, 1.0])
    assert np.allclose(g.gap, [0.3, 0.3], atol=TOL)
    assert np.allclose(np.sort(g.point[:, 0]), [-1.0, 1.0], atol=TOL)
    assert np.allclose(g.point[:, 2], 0.3, atol=TOL)


def test_sphere_sphere_gap_normal_and_midpoint():
    g = ct.sphere_sphere([0, 0, 0.0], 1.0, [3.0, 4.0, 0], 2.0)
    assert np.isclose(g.gap[0], 5.0 - 3.0, atol=TOL)
    assert np.allclose(g.normal[0], [0.6, 0.8, 0], atol=TOL)
    # surface points at distance 1 and 5 - 2 = 3 along the normal: midpoint at 2
    assert np.allclose(g.point[0], 2.0 * np.array([0.6, 0.8, 0]), atol=TOL)
    overlap = ct.sphere_sphere([0, 0, 0.0], 1.0, [0, 0, 1.5], 1.0)
    assert np.isclose(overlap.gap[0], -0.5, atol=TOL)


def test_box_box_stacked_vertex_face_contacts():
    lower, upper = np.array([0.5, 0.5, 0.1]), np.array([0.2, 0.3, 0.1])
    T1 = _pose(np.eye(3), [0, 0, 0.1])
    T2 = _pose(np.eye(3), [0.1, 0.05, 0.3 + 0.02])  # 0.02 above the lower box
    g = ct.box_box(T1, lower, T2, upper)
    assert g.gap.shape == (16,)
    # every vertex of the upper box lies over the lower box's top face: the bottom four
    # 0.02 above it, the top four 0.22; no vertex of the wide lower box lies over the upper box
    finite = np.isfinite(g.gap)
    assert np.all(finite[:8]) and not np.any(finite[8:])
    bottom = g.point[:8, 2] < 0.33
    assert np.allclose(g.gap[:8][bottom], 0.02, atol=TOL) and bottom.sum() == 4
    assert np.allclose(g.gap[:8][~bottom], 0.22, atol=TOL)
    assert np.allclose(g.normal[:8], [0, 0, 1.0], atol=TOL)  # from box 1 to box 2
    # swapping the boxes flips the normals of the same contacts
    s = ct.box_box(T2, upper, T1, lower)
    assert np.array_equal(s.gap[8:], g.gap[:8]) and not np.any(np.isfinite(s.gap[:8]))
    assert np.allclose(s.normal[8:], [0, 0, -1.0], atol=TOL)


def test_box_box_penetration_is_negative_and_batched_equals_looped():
    rng = np.random.default_rng(1)
    h1, h2 = np.array([0.4, 0.3, 0.2]), np.array([0.1, 0.1, 0.1])
    T1 = _pose(np.eye(3), [0, 0, 0])
    T2 = _pose(np.eye(3), [0.05, 0.0, 0.2 + 0.1 - 0.03])
    g = ct.box_box(T1, h1, T2, h2)
    assert np.allclose(np.sort(g.gap[:8]), [-0.03] * 4 + [0.17] * 4, atol=TOL)
    R = np.stack([sp.exp_so3(0.1 * rng.normal(size=3)) for _ in range(5)])
    p = np.array([0, 0, 0.28]) + 0.02 * rng.normal(size=(5, 3))
    poses = sp.frame(R, p)
    batch = ct.box_box(T1, h1, poses, h2)
    for i in range(5):
        one = ct.box_box(T1, h1, poses[i], h2)
        for a, b in zip(batch, one, strict=True):
            assert np.array_equal(a[i], b)


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: ct.Sphere(-1.0), "radius"),
        (lambda: ct.Sphere(np.nan), "radius"),
        (lambda: ct.Box([1.0, 2.0]), "half_extents"),
        (lambda: ct.Box([1.0, -1.0, 1.0]), "half_extents"),
        (lambda: ct.Capsule(0.0, 1.0), "radius"),
        (lambda: ct.Capsule(1.0, -1.0), "half_length"),
        (lambda: ct.Points([1.0, 2.0, 3.0]), "shape"),
        (lambda: ct.Points(np.zeros((0, 3))), "shape"),
        (lambda: ct.Plane([0, 0, 0.0]), "nonzero"),
        (lambda: ct.Plane([0, 0, 1.0], np.inf), "offset"),
        (lambda: ct.sphere_sphere([0, 0, 0], 1.0, [0, 0, 0], 1.0), "coincide"),
        (lambda: ct.sphere_plane([0, 0, 0], 1.0, [0, 0, 0]), "nonzero"),
        (lambda: ct.box_plane(np.eye(3), [1, 1, 1], [0, 0, 1]), "shape"),
        (lambda: ct.points_plane([0, 0, 1.0], [0, 0, 1]), "points"),
    ],
)
def test_bad_shapes_raise(make, match):
    with pytest.raises(ValueError, match=match):
        make()


# ----------------------------------------------------------------------------- scenes


def _random_scene(rng):
    """A random branched tree with a sphere, a box and a capsule on its bodies over a plane."""
    model = builders.random_tree(rng, 4, joints=("R", "P", "S"))
    scene = ct.Scene(model)
    scene.add(0, ct.Plane([0.1, 0.2, 1.0], -3.0))
    scene.add(2, ct.Sphere(0.3), sp.frame(np.eye(3), [0.1, -0.2, 0.3]))
    scene.add(3, ct.Box([0.2, 0.1, 0.3]), sp.frame(sp.exp_so3([0.3, 0.1, -0.2]), [0.0, 0.1, 0.0]))
    scene.add(4, ct.Capsule(0.1, 0.4))
    scene.add(1, ct.Sphere(0.2))
    return scene


def _free_scene():
    rng = np.random.default_rng(7)
    inertias = [builders.random_inertia(rng) for _ in range(2)]
    bodies = ct.FreeBodies(inertias)
    scene = ct.Scene(bodies)
    scene.add(0, ct.Plane([0.0, 0.0, 1.0], -1.0))
    scene.add(1, ct.Box([0.3, 0.2, 0.1]))
    scene.add(2, ct.Sphere(0.4), sp.frame(np.eye(3), [0.1, 0.0, 0.0]))
    scene.add(1, ct.Sphere(0.25), sp.frame(np.eye(3), [0.0, 0.0, 0.3]))
    T = sp.frame(
        np.stack([sp.exp_so3(rng.normal(size=3)) for _ in range(2)]), rng.normal(size=(2, 3))
    )
    return scene, T, rng.normal(size=12)


def _check_rows_by_finite_differences(scene, q, v, eps=1e-6):
    contacts = scene.detect(q)
    keep = np.isfinite(contacts.gap)
    contacts = contacts.select(keep)
    J, tangents = scene.jacobian(q, contacts)
    nc = len(contacts)
    # normal rows: the rate of change of the gaps
    plus, minus = (
        scene.detect(scene.integrate(q, v, eps)),
        scene.detect(scene.integrate(q, v, -eps)),
    )
    rate = (plus.gap[keep] - minus.gap[keep]) / (2 * eps)
    assert np.allclose(J[:nc] @ v, rate, rtol=1e-6, atol=1e-6 * max(1.0, np.abs(rate).max()))
    # all rows: velocities of the body-fixed points coinciding with the contact points
    T0 = scene.poses(q)
    vel = np.zeros((nc, 3))
    for body, sign in ((contacts.successor, 1.0), (contacts.predecessor, -1.0)):
        for i in range(nc):
            b = body[i]
            if b == 0:
                continue
            local = np.linalg.solve(T0[b], np.append(contacts.point[i], 1.0))
            Tp, Tm = (
                scene.poses(scene.integrate(q, v, eps))[b],
                scene.poses(scene.integrate(q, v, -eps))[b],
            )
            vel[i] += sign * ((Tp @ local)[:3] - (Tm @ local)[:3]) / (2 * eps)
    expected = np.concatenate(
        [
            np.einsum("ck,ck->c", contacts.normal, vel),
            np.einsum("cdk,ck->cd", tangents, vel).ravel(),
        ]
    )
    assert np.allclose(J @ v, expected, rtol=1e-6, atol=1e-6 * max(1.0, np.abs(expected).max()))


def test_tree_contact_jacobian_by_finite_differences():
    rng = np.random.default_rng(3)
    scene = _random_scene(rng)
    for _ in range(3):
        q = scene.system.random_configuration(rng)
        v = rng.normal(size=scene.nv)
        _check_rows_by_finite_differences(scene, q, v)


def test_tree_rows_equal_spatial_point_jacobian():
    rng = np.random.default_rng(5)
    scene = _random_scene(rng)
    q = scene.system.random_configuration(rng)
    contacts = scene.detect(q)
    P = scene.point_jacobians(q, contacts)
    T = scene.poses(q)
    for i in range(len(contacts)):
        expected = np.zeros((3, scene.nv))
        for body, sign in ((contacts.successor[i], 1.0), (contacts.predecessor[i], -1.0)):
            if body > 0:
                local = np.linalg.solve(T[body], np.append(contacts.point[i], 1.0))[:3]
                expected += sign * sp.point_jacobian(scene.system, q, int(body), local)
        assert np.allclose(P[i], expected, atol=1e-12)


def test_tree_point_jacobians_take_one_forward_pass_for_all_bodies(monkeypatch):
    # the contacts of four bodies: one forward pass gives every body's Jacobian, the same
    # numbers as one body_jacobian per body
    import spatial.contact.scene as scene_module
    import spatial.kinematics as kinematics

    rng = np.random.default_rng(5)
    scene = _random_scene(rng)
    q = scene.system.random_configuration(rng)
    contacts = scene.detect(q)
    bodies = set(contacts.predecessor.tolist()) | set(contacts.successor.tolist())
    assert len(bodies - {0}) == 4
    expected = np.zeros((len(contacts), 3, scene.nv))
    lever = np.concatenate(
        [-sp.skew(contacts.point), np.broadcast_to(np.eye(3), (len(contacts), 3, 3))], -1
    )
    for b in bodies - {0}:
        J0 = sp.body_jacobian(scene.system, q, b, frame="world")
        expected[contacts.successor == b] += lever[contacts.successor == b] @ J0
        expected[contacts.predecessor == b] -= lever[contacts.predecessor == b] @ J0
    passes = []
    forward_pass = kinematics._forward_pass

    def counted(*args, **kwargs):
        passes.append(1)
        return forward_pass(*args, **kwargs)

    monkeypatch.setattr(kinematics, "_forward_pass", counted)
    monkeypatch.setattr(scene_module, "_forward_pass", counted, raising=False)
    P = scene.point_jacobians(q, contacts)
    assert len(passes) == 1
    np.testing.assert_array_equal(P, expected)


def test_free_body_contact_jacobian_by_finite_differences():
    scene, T, v = _free_scene()
    _check_rows_by_finite_differences(scene, T, v)
    # the sphere–sphere pair between bodies 1 and 2 has both bodies in its rows
    contacts = scene.detect(T)
    pair = contacts.select((contacts.predecessor > 0) & (contacts.successor > 0))
    assert len(pair) == 1
    J, _ = scene.jacobian(T, pair)
    assert np.any(J[:, :6] != 0) and np.any(J[:, 6:] != 0)


def test_tree_with_free_joints_has_the_rows_of_free_bodies():
    scene_f, T, v = _free_scene()
    model = sp.Model()
    for I in scene_f.system.inertias:
        model.add_body(0, Free(), np.eye(6), I)
    scene_t = ct.Scene(model)
    for c in scene_f.colliders:
        scene_t.add(c.body, c.shape, c.pose)
    q = np.concatenate([np.concatenate([sp.quat_from_matrix(Ti[:3, :3]), Ti[:3, 3]]) for Ti in T])
    cf, ctree = scene_f.detect(T), scene_t.detect(q)
    assert np.allclose(cf.gap[np.isfinite(cf.gap)], ctree.gap[np.isfinite(ctree.gap)], atol=1e-12)
    Jf, _ = scene_f.jacobian(T, cf)
    Jt, _ = scene_t.jacobian(q, ctree)
    assert np.allclose(Jf, Jt, atol=1e-12)
    assert np.allclose(scene_f.mass_matrix(T), scene_t.mass_matrix(q), atol=1e-12)
    assert np.allclose(scene_f.generalized_force(T, v), scene_t.generalized_force(q, v), atol=1e-10)
    assert np.allclose(scene_f.energy(T, v), scene_t.energy(q, v), atol=1e-12)


def test_planar_scene_has_one_in_plane_tangent():
    scene = ct.Scene(builders.double_pendulum(bob_radius=0.1), planar=[0, 0, 1.0])
    scene.add(0, ct.Plane([0, 1.0, 0], -1.5))
    scene.add(2, ct.Sphere(0.1), sp.frame(np.eye(3), [0, -1.0, 0]))
    assert scene.tangent_dim == 1
    q = np.array([0.3, 0.2])
    contacts = scene.detect(q)
    J, tangents = scene.jacobian(q, contacts)
    assert J.shape == (2, 2)
    assert np.allclose(tangents[0, 0], [-1.0, 0, 0])  # z × y = -x, in the plane of motion


def test_scene_errors():
    scene = ct.Scene(builders.double_pendulum())
    with pytest.raises(ValueError, match="body must be in"):
        scene.add(3, ct.Sphere(1.0))
    with pytest.raises(ValueError, match="body number"):
        scene.add(1.5, ct.Sphere(1.0))
    with pytest.raises(ValueError, match="shape must be"):
        scene.add(1, "sphere")
    with pytest.raises(ValueError, match="pose"):
        scene.add(1, ct.Sphere(1.0), np.eye(3))
    with pytest.raises(ValueError, match="Model or FreeBodies"):
        ct.Scene("tree")
    with pytest.raises(ValueError, match="planar"):
        ct.Scene(builders.double_pendulum(), planar=[0, 0, 0])
    with pytest.raises(ValueError, match="positive definite"):
        ct.FreeBodies([sp.point_mass_inertia(1.0, [0, 0, 0])])
    with pytest.raises(ValueError, match="at least one"):
        ct.FreeBodies([])
    with pytest.raises(ValueError, match="gravity"):
        ct.FreeBodies([sp.sphere_inertia(1.0, 0.1)], gravity=[0, 0, -9.81, 0])
    planar = ct.Scene(builders.double_pendulum(), planar=[0, 1.0, 0])
    with pytest.raises(ValueError, match="perpendicular"):
        planar.tangents([[0, 1.0, 0]])
    free = ct.Scene(ct.FreeBodies([sp.sphere_inertia(1.0, 0.1)]))
    with pytest.raises(ValueError, match="body frames"):
        free.check_state(np.eye(4)[None].repeat(2, 0), np.zeros(6))
    with pytest.raises(ValueError, match="v must"):
        free.check_state(np.eye(4)[None], np.zeros((2, 6)))
