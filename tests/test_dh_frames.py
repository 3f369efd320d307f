"""The generator's Denavit–Hartenberg-like body frames (spatial.symbolic.frames, §10.3.1).

Moving a body frame along its own joint axis must not change τ, H or q̈ (checked with the dense
algorithms on both models, independently of the generator), and must give each link transform
the two zeros of a DH link: the next axis perpendicular to the parent's normal axis, the next
origin in the parent's plane of axis and normal.
"""

from __future__ import annotations

import numpy as np
import pytest

import spatial as sp
from spatial import builders
from spatial.joints import Cylindrical, Helical, Prismatic, Revolute, Spherical
from spatial.kinematics import _tree_translations
from spatial.symbolic import dh_frames, generate

TOL = 1e-12


def in_dh_frames(model: sp.Model) -> sp.Model:
    """The same mechanism with the body frames of :func:`dh_frames`."""
    X_tree, inertia = dh_frames(model)
    new = sp.Model()
    for i in range(1, model.NB + 1):
        new.add_body(model.parent[i], model.joints[i], X_tree[i], inertia[i])
    return new


def rel_err(a, b) -> float:
    return float(np.abs(a - b).max() / (1.0 + np.abs(b).max()))


def mixed_tree(rng) -> sp.Model:
    """A branched tree of axial joints along ±x, ±y, ±z and two joints without an axis, with
    general transforms; bodies 3 and 4 meet body 2's axis at parallel and intersecting axes."""
    joints = [Revolute("z"), Prismatic("x"), Helical("-y", 0.3), Revolute("x"), Revolute("z"),
              Cylindrical("y"), Spherical(), Revolute("z"), Revolute("y")]  # fmt: skip
    parents = [0, 1, 2, 2, 1, 5, 6, 7, 7]
    model = sp.Model()
    for i, (joint, parent) in enumerate(zip(joints, parents, strict=True), start=1):
        X = builders.random_transform(rng)
        if i == 3:  # axis parallel to the parent's (Helical -y under Prismatic x: turned)
            X = sp.plux(sp.rz(np.pi / 2), rng.standard_normal(3))
        if i == 4:  # axis through the parent's origin: the axes intersect
            X = sp.plux(sp.vectors.ry(0.7), np.zeros(3))
        model.add_body(parent, joint, X, builders.random_inertia(rng))
    return model


@pytest.mark.parametrize("name", ["gu", "mixed"])
def test_dense_algorithms_give_the_same_results_in_dh_frames(name, rng):
    model = builders.gu_chain(6, rng) if name == "gu" else mixed_tree(rng)
    new = in_dh_frames(model)
    assert any(
        not np.array_equal(a, b)
        for a, b in zip(model.X_tree, new.X_tree, strict=True)
        if a is not None
    )
    q = model.random_configuration(rng, (3,))
    qd, x = rng.standard_normal((2, 3, model.nv))
    f_ext = rng.standard_normal((3, model.NB + 1, 6))
    f_ext[:, 0] = 0.0
    for got, expected in [
        (sp.rnea(new, q, qd, x, f_ext), sp.rnea(model, q, qd, x, f_ext)),
        (sp.crba(new, q), sp.crba(model, q)),
        (sp.aba(new, q, qd, x, f_ext), sp.aba(model, q, qd, x, f_ext)),
    ]:
        assert rel_err(got, expected) < TOL


def test_a_gu_chain_gets_the_two_zeros_of_a_dh_link_and_a_leaf_a_pure_x_screw(rng):
    model = builders.gu_chain(6, rng)
    X_tree, _ = dh_frames(model)
    assert not any(np.any(X[:3, :3] == 0.0) for X in model.X_tree[1:])  # general geometry
    # r as the algorithms read it from X_T (kinematics restores zeros lost to round-off)
    translations = _tree_translations(in_dh_frames(model), np.float64)
    for i in range(2, 7):
        E, r = X_tree[i][:3, :3], translations[i][0]
        # z_i ⊥ x_λ (the common normal), and r = a x_λ + d z_λ has no y part
        assert E[2, 0] == 0.0 and r[1] == 0.0, i
    # the leaf's x axis is its parent's normal: E = rx(α), a rotation about x alone
    E6 = X_tree[6][:3, :3]
    assert E6[0, 0] == 1.0 and not np.any(E6[0, 1:]) and not np.any(E6[1:, 0])
    # the same zeros for joints along x: a chain of Revolute("x") (k = x, normal along y)
    chain = sp.Model()
    for _ in range(4):
        chain.add_body(chain.NB, Revolute("x"), builders.random_transform(rng),
                       builders.random_inertia(rng))  # fmt: skip
    X_tree, _ = dh_frames(chain)
    translations = _tree_translations(in_dh_frames(chain), np.float64)
    for i in range(2, 5):
        E, r = X_tree[i][:3, :3], translations[i][0]
        assert E[0, 1] == 0.0 and r[2] == 0.0, i


def test_a_model_already_sparse_keeps_its_frames(rng):
    """A planar chain (parallel axes, offsets along x) has nothing to gain."""
    assert dh_frames(builders.double_pendulum()) is None
    # nor does a chain of spherical joints, which have no axis to move along
    chain = sp.Model()
    for _ in range(3):
        chain.add_body(chain.NB, Spherical(), builders.random_transform(rng),
                       builders.random_inertia(rng))  # fmt: skip
    assert dh_frames(chain) is None


def test_generate_works_in_dh_frames_by_default_and_in_the_models_on_request(rng):
    model = builders.gu_chain(5, rng)
    dh, own = generate(model, "rnea"), generate(model, "rnea", frames="model")
    assert (dh.frames, own.frames) == ("dh", "model") and dh is not own
    assert dh.count.total < own.count.total
    q = model.random_configuration(rng, (4,))
    qd, qdd = rng.standard_normal((2, 4, 5))
    expected = sp.rnea(model, q, qd, qdd)
    assert rel_err(dh(q, qd, qdd), expected) < TOL and rel_err(own(q, qd, qdd), expected) < TOL
    assert generate(builders.double_pendulum(), "aba").frames == "model"
    with pytest.raises(ValueError, match="frames must be 'dh' or 'model'"):
        generate(model, "rnea", frames="denavit")
