"""Tests of dynamic equivalence (Featherstone §9.7, eq. 9.30, Table 9.7).

Oracles: Table 9.7's matrices written out by hand, the three conditions of eq. 9.30 checked
numerically for every joint type at random positions and velocities, and the equation of
motion (RNEA, CRBA) unchanged by the book's simplification procedure while the individual
body inertias do change — and changed by an ``I_Δ`` that violates eq. 9.30.
"""

import numpy as np
import pytest

from spatial import builders
from spatial.dynamics import (
    apply_inertia_delta,
    axial_delta,
    best_match,
    crba,
    prismatic_delta,
    revolute_delta,
    rnea,
    simplify_inertias,
    spherical_delta,
)
from spatial.joints import (
    Cylindrical,
    Fixed,
    Free,
    Helical,
    Planar,
    Prismatic,
    RackPinion,
    Reversed,
    Revolute,
    Spherical,
    SphericalYPR,
)
from spatial.vectors import cross_force

ALL = ("R", "P", "H", "C", "S", "SY", "PL", "F", "FREE", "RP", "~R", "~H", "~S", "~P")


def rel_err(a, b) -> float:
    return float(np.abs(np.asarray(a) - b).max() / (1.0 + np.abs(b).max()))


def test_table_9_7_by_hand():
    m, h, I = 2.0, 0.6, 0.9  # h = m c_z
    expected = np.array(
        [
            [I, 0, 0, 0, -h, 0],
            [0, I, 0, h, 0, 0],
            [0, 0, 0, 0, 0, 0],
            [0, h, 0, m, 0, 0],
            [-h, 0, 0, 0, m, 0],
            [0, 0, 0, 0, 0, m],
        ]
    )
    assert np.array_equal(revolute_delta(m, h, I), expected)
    Ibar = np.array([[1.0, 0.2, 0.3], [0.2, 2.0, 0.4], [0.3, 0.4, 3.0]])
    assert np.array_equal(
        prismatic_delta(Ibar), np.block([[Ibar, np.zeros((3, 3))], [np.zeros((3, 6))]])
    )
    assert np.array_equal(spherical_delta(m), np.diag([0, 0, 0, m, m, m]))
    assert np.array_equal(axial_delta(I, "x"), np.diag([0, I, I, 0, 0, 0]))


def random_deltas(joint, rng):
    """A random I_Δ of the family that suits ``joint`` (unwrapping reversed joints)."""
    base = joint.joint if isinstance(joint, Reversed) else joint
    if isinstance(base, Revolute):
        return revolute_delta(*rng.standard_normal(3), base.axis)
    if isinstance(base, Prismatic):
        A = rng.standard_normal((3, 3))
        return prismatic_delta(A + A.T)
    if isinstance(base, (Spherical, SphericalYPR)):
        return spherical_delta(rng.standard_normal())
    if isinstance(base, (Helical, Cylindrical)):
        return axial_delta(rng.standard_normal(), base.axis)
    if isinstance(base, Planar):
        return axial_delta(rng.standard_normal(), "z")
    raise AssertionError(joint)


@pytest.mark.parametrize("code", ["R", "P", "H", "C", "S", "SY", "PL", "~R", "~H", "~S"])
def test_conditions_of_eq_9_30(rng, code):
    """I_Δ S = 0, X_Jᵀ I_Δ X_J = I_Δ and Sᵀ (v ×* I_Δ v) = 0 at random q and v."""
    joint = builders.JOINT_CODES[code.lstrip("~")](rng)
    if code.startswith("~"):
        joint = Reversed(joint)
    I_delta = random_deltas(joint, rng)
    q = joint.random_configuration(rng, (20,))
    X, S = joint.transform(q), joint.motion_subspace(q)
    v = rng.standard_normal((20, 6))
    scale = np.abs(I_delta).max()
    assert np.abs(I_delta @ S).max() < 1e-12 * scale
    assert np.abs(np.swapaxes(X, -1, -2) @ I_delta @ X - I_delta).max() < 1e-12 * scale
    bias = cross_force(v, v @ I_delta.T)
    assert np.abs(bias[..., None, :] @ S).max() < 1e-12 * scale * np.abs(v).max() ** 2


def test_best_match_zeroes_parameters(rng):
    I = builders.random_inertia(rng)
    m = I[3, 3]
    # spherical: no mass left
    assert (I - best_match(Spherical(), I))[3, 3] == 0.0
    # prismatic: no rotational inertia left
    assert np.abs((I - best_match(Prismatic("x"), I))[:3, :3]).max() == 0.0
    # revolute about z: no mass, no first moment along z, no I_xx
    rest = I - best_match(Revolute("z"), I)
    assert rest[3, 3] == 0.0 and rest[0, 4] == 0.0 and rest[0, 0] == pytest.approx(0.0, abs=1e-15)
    assert rest[1, 3] == pytest.approx(0.0, abs=1e-15)
    # a fixed joint hands the whole body to its parent; free and rack-and-pinion joints nothing
    assert np.array_equal(best_match(Fixed(), I), I)
    assert np.array_equal(best_match(Free(), I), np.zeros((6, 6)))
    assert np.array_equal(best_match(RackPinion(0.5), I), np.zeros((6, 6)))
    # reversed joints move the same relative motion
    assert np.array_equal(best_match(Reversed(Revolute("y")), I), best_match(Revolute("y"), I))
    assert m > 0


@pytest.mark.parametrize(
    "joints", [("R",), ("P",), ("S",), ("SY",), ("H", "C", "PL"), ALL, ("~R", "~H", "~S")]
)
def test_simplified_model_is_dynamically_equivalent(rng, joints):
    for floating in (False, True):
        model = builders.random_tree(rng, 9, joints=joints, floating=floating)
        simple = simplify_inertias(model)
        q = model.random_configuration(rng, (4,))
        qd, qdd = rng.standard_normal((2, 4, model.nv))
        f_ext = rng.standard_normal((4, model.NB + 1, 6))
        f_ext[..., 0, :] = 0.0
        tau = rnea(model, q, qd, qdd, f_ext)
        assert rel_err(rnea(simple, q, qd, qdd, f_ext), tau) < 1e-10
        assert rel_err(crba(simple, q), crba(model, q)) < 1e-10
        # ... yet the individual inertias did change
        change = max(
            np.abs(simple.inertia[i] - model.inertia[i]).max() for i in range(1, model.NB + 1)
        )
        assert change > 0.1


def test_simplification_zeroes_the_predicted_parameters(rng):
    """Zero to round-off: each parent also receives its children's X_Tᵀ I_Δ X_T."""

    def zero(x):
        return np.abs(x).max() < 1e-13

    rev = simplify_inertias(builders.random_tree(rng, 6, joints=("Rz",)))
    assert all(zero(rev.inertia[i][[3, 0], [3, 4]]) for i in range(1, 7))  # m and m c_z
    sph = simplify_inertias(builders.random_tree(rng, 6, joints=("S",)))
    assert all(zero(sph.inertia[i][3, 3]) for i in range(1, 7))
    pri = simplify_inertias(builders.random_tree(rng, 6, joints=("P",)))
    assert all(zero(pri.inertia[i][:3, :3]) for i in range(1, 7))


def test_a_wrong_delta_changes_the_dynamics(rng):
    """Control for the tests above: a prismatic-type I_Δ across a revolute joint is not neutral."""
    model = builders.random_tree(rng, 5, joints=("R",))
    i = 3
    A = rng.standard_normal((3, 3))
    changed = apply_inertia_delta(model, i, prismatic_delta(A + A.T))
    q = model.random_configuration(rng)
    qd, qdd = rng.standard_normal((2, model.nv))
    assert rel_err(rnea(changed, q, qd, qdd), rnea(model, q, qd, qdd)) > 1e-3
    # while the matching one is
    good = apply_inertia_delta(model, i, revolute_delta(0.7, 0.2, 0.3, model.joints[i].axis))
    assert rel_err(rnea(good, q, qd, qdd), rnea(model, q, qd, qdd)) < 1e-12
    assert model.inertia[i] is not good.inertia[i]  # the original model is untouched


def test_errors(rng):
    model = builders.random_tree(rng, 3, joints=("R",))
    with pytest.raises(ValueError, match="i must be a joint number"):
        apply_inertia_delta(model, 0, np.zeros((6, 6)))
    with pytest.raises(ValueError, match="I_delta must have shape"):
        apply_inertia_delta(model, 1, np.zeros((3, 3)))
    with pytest.raises(ValueError, match="I_delta must be a single 6x6"):
        apply_inertia_delta(model, 1, np.zeros((2, 6, 6)))
    with pytest.raises(ValueError, match="rotational_inertia must be a single symmetric"):
        prismatic_delta(np.arange(9.0).reshape(3, 3))
    with pytest.raises(ValueError, match="mass must be a single number"):
        spherical_delta([1.0, 2.0])
    with pytest.raises(ValueError, match="first_moment contains non-finite"):
        revolute_delta(1.0, np.nan, 1.0)
    with pytest.raises(ValueError, match="joint must be a spatial.joints.Joint"):
        best_match("revolute", np.eye(6))
    with pytest.raises(ValueError, match="inertia must be a single 6x6"):
        best_match(Revolute(), np.zeros((2, 6, 6)))
