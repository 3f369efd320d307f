"""spatial.urdf: URDF text and files in and out of a Model.

Three kinds of evidence:

* small hand-written URDF strings read into the same model as one built by hand from the
  numbers in the text (tree transforms, inertias, joints), so rnea and crba agree;
* export → import gives a model with the same rnea and crba, for named mechanisms, random trees
  and real robots;
* real robots of the ``robots`` extra (example-robot-data's URDF files) agree with MuJoCo, an
  independent engine that reads the same files, on the joint-space inertia, the bias force and
  forward dynamics to 1e-9 relative (fixed-base arms, quadrupeds and humanoids on a floating
  base).  These tests skip only when the extra is not installed; ``make test`` installs it.
"""

import importlib.metadata
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import spatial as sp
from spatial.joints import Fixed, Free, Prismatic, Revolute
from spatial.urdf import InertiaRepairWarning, UrdfModel, load_urdf, to_urdf

RNG_SEED = 20261125


def _rel(a, b):
    return np.abs(a - b).max() / max(np.abs(b).max(), 1e-300)


def _random_state(model, rng):
    q = np.concatenate(
        [
            rng.uniform(-1.5, 1.5, 1) if j.nq == 1 else j.random_configuration(rng)
            for j in model.joints[1:]
        ]
    )
    return q, rng.uniform(-1, 1, model.nv), rng.uniform(-1, 1, model.nv)


def _same_dynamics(a, b, rng, tol=1e-12):
    """rnea and crba of models ``a`` and ``b`` agree at a random state."""
    assert (a.nq, a.nv) == (b.nq, b.nv)
    q, qd, qdd = _random_state(a, rng)
    assert _rel(sp.crba(a, q), sp.crba(b, q)) <= tol
    assert _rel(sp.rnea(a, q, qd, qdd), sp.rnea(b, q, qd, qdd)) <= tol


def _inertial(m, xyz="0 0 0", rpy="0 0 0", ixx=0.1, iyy=0.2, izz=0.25, ixy=0.0, ixz=0.0, iyz=0.0):
    return (
        f'<inertial><origin xyz="{xyz}" rpy="{rpy}"/><mass value="{m}"/>'
        f'<inertia ixx="{ixx}" iyy="{iyy}" izz="{izz}" ixy="{ixy}" ixz="{ixz}" iyz="{iyz}"/>'
        "</inertial>"
    )


def _joint(name, jtype, parent, child, xyz="0 0 0", rpy="0 0 0", axis="0 0 1"):
    return (
        f'<joint name="{name}" type="{jtype}"><parent link="{parent}"/><child link="{child}"/>'
        f'<origin xyz="{xyz}" rpy="{rpy}"/><axis xyz="{axis}"/></joint>'
    )


TWO_LINK = (
    '<robot name="two_link">'
    '<link name="world"/>'
    f'<link name="upper">{_inertial(2.0, xyz="0.5 0 0", ixx=0.01, iyy=0.2, izz=0.2)}</link>'
    f'<link name="fore">{_inertial(1.0, xyz="0.4 0 0", ixx=0.005, iyy=0.1, izz=0.1)}</link>'
    + _joint("shoulder", "revolute", "world", "upper", xyz="0 0 0.3", axis="0 1 0")
    + _joint("elbow", "continuous", "upper", "fore", xyz="1 0 0", rpy="0.3 0 0", axis="0 1 0")
    + "</robot>"
)


def _two_link_by_hand():
    """The TWO_LINK arm from the numbers in its text, with the book's functions."""
    model = sp.Model()
    I1 = sp.mcI(2.0, [0.5, 0, 0], np.diag([0.01, 0.2, 0.2]))
    I2 = sp.mcI(1.0, [0.4, 0, 0], np.diag([0.005, 0.1, 0.1]))
    b1 = model.add_body(0, Revolute("y"), sp.xlt([0, 0, 0.3]), I1)
    # a frame rolled by +0.3 about x: its coordinates are rx(0.3) of the parent's
    model.add_body(b1, Revolute("y"), sp.rotx(0.3) @ sp.xlt([1.0, 0, 0]), I2)
    return model


# ------------------------------------------------------------------ hand-written URDF strings


def test_a_two_link_arm_reads_as_the_same_arm_built_by_hand():
    model = load_urdf(TWO_LINK)
    by_hand = _two_link_by_hand()
    assert isinstance(model, UrdfModel) and isinstance(model, sp.Model)
    assert model.names == ["world", "upper", "fore"]
    assert model.joint_names == [None, "shoulder", "elbow"]
    assert model.robot_name == "two_link"
    assert repr(model) == "UrdfModel('two_link', NB=2, nq=2, nv=2)"
    for i in (1, 2):
        np.testing.assert_allclose(model.X_tree[i], by_hand.X_tree[i], atol=1e-15)
        np.testing.assert_allclose(model.inertia[i], by_hand.inertia[i], atol=1e-15)
        np.testing.assert_allclose(model.joints[i].axis, [0, 1, 0])
    _same_dynamics(model, by_hand, np.random.default_rng(RNG_SEED))


def test_the_file_and_the_text_give_the_same_model(tmp_path):
    path = tmp_path / "arm.urdf"
    path.write_text(TWO_LINK)
    for source in (path, str(path)):
        _same_dynamics(load_urdf(source), load_urdf(TWO_LINK), np.random.default_rng(1), 0.0)


@pytest.mark.parametrize(
    ("rpy", "turn"),
    [
        ("0.7 0 0", lambda: sp.rotx(0.7)),
        ("0 0.7 0", lambda: sp.roty(0.7)),
        ("0 0 0.7", lambda: sp.rotz(0.7)),
        # R = Rz(y) Ry(p) Rx(r) (fixed axes x, y, z), so E = Rᵀ = rx(r) ry(p) rz(y)
        ("0.2 -0.5 1.1", lambda: sp.rotx(0.2) @ sp.roty(-0.5) @ sp.rotz(1.1)),
    ],
)
def test_joint_origin_rpy_is_roll_about_x_then_pitch_about_y_then_yaw_about_z(rpy, turn):
    text = (
        f'<robot name="r"><link name="a"/><link name="b">{_inertial(1.0)}</link>'
        + _joint("j", "revolute", "a", "b", xyz="0.1 0.2 0.3", rpy=rpy)
        + "</robot>"
    )
    X_T = load_urdf(text).X_tree[1]
    np.testing.assert_allclose(X_T, turn() @ sp.xlt([0.1, 0.2, 0.3]), atol=1e-15)


def test_the_inertial_frame_turns_the_rotational_inertia_and_places_the_centre_of_mass():
    # a quarter turn about z swaps the x and y moments (closed form)
    text = (
        f'<robot name="r"><link name="a"/><link name="b">'
        f"{_inertial(3.0, xyz='0.1 -0.2 0.3', rpy=f'0 0 {np.pi / 2!r}', ixx=1, iyy=2, izz=2.5)}"
        "</link>" + _joint("j", "prismatic", "a", "b", axis="1 0 0") + "</robot>"
    )
    model = load_urdf(text)
    expected = sp.mcI(3.0, [0.1, -0.2, 0.3], np.diag([2.0, 1.0, 2.5]))
    np.testing.assert_allclose(model.inertia[1], expected, atol=1e-14)
    assert isinstance(model.joints[1], Prismatic)


def test_a_link_welded_by_a_fixed_joint_is_merged_into_its_parent_body():
    """The same tree with the welded link as a body on a Fixed joint (no merging) agrees."""
    text = (
        '<robot name="r"><link name="world"/>'
        f'<link name="arm">{_inertial(2.0, xyz="0.3 0 0")}</link>'
        f'<link name="tool">{_inertial(0.5, xyz="0 0.1 0", rpy="0.4 0.1 0")}</link>'
        '<link name="flange"/>'
        f'<link name="finger">{_inertial(0.2, xyz="0 0 0.05")}</link>'
        + _joint("hinge", "revolute", "world", "arm", axis="0 0 1")
        + _joint("weld", "fixed", "arm", "tool", xyz="0.6 0 0", rpy="0 0.5 0.2")
        + _joint("weld2", "fixed", "tool", "flange", xyz="0 0 0.1", rpy="0.3 0 0")
        + _joint("slide", "prismatic", "flange", "finger", xyz="0 0.02 0", axis="0 1 0")
        + "</robot>"
    )
    model = load_urdf(text)
    assert model.names == ["world", "arm", "finger"]
    assert model.joint_names == [None, "hinge", "slide"]
    assert model.link_index("tool") == 1 and model.link_index("flange") == 1
    assert model.link_index("finger") == 2 and model.link_index("world") == 0
    unmerged = sp.Model()
    I_arm = sp.mcI(2.0, [0.3, 0, 0], np.diag([0.1, 0.2, 0.25]))
    arm = unmerged.add_body(0, Revolute("z"), np.eye(6), I_arm)
    R_tool = sp.ry(0.1).T @ sp.rx(0.4).T  # active Ry(0.1) Rx(0.4): rpy = (0.4, 0.1, 0)
    I_tool = sp.mcI(0.5, [0, 0.1, 0], R_tool @ np.diag([0.1, 0.2, 0.25]) @ R_tool.T)
    X_weld = sp.roty(0.5) @ sp.rotz(0.2) @ sp.xlt([0.6, 0, 0])  # rpy = (0, 0.5, 0.2)
    tool = unmerged.add_body(arm, Fixed(), X_weld, I_tool)
    flange = unmerged.add_body(tool, Fixed(), sp.rotx(0.3) @ sp.xlt([0, 0, 0.1]), np.zeros((6, 6)))
    I_finger = sp.mcI(0.2, [0, 0, 0.05], np.diag([0.1, 0.2, 0.25]))
    unmerged.add_body(flange, Prismatic("y"), sp.xlt([0, 0.02, 0]), I_finger)
    _same_dynamics(model, unmerged, np.random.default_rng(RNG_SEED))
    # and the frames of the welded links are where the welds put them
    X_flange = unmerged.X_tree[3] @ X_weld
    np.testing.assert_allclose(model.link_frames["flange"][1], X_flange, atol=1e-15)


def test_floating_puts_the_root_link_on_a_free_joint():
    model = load_urdf(TWO_LINK, floating=True)  # the root link "world" becomes body 1
    assert isinstance(model.joints[1], Free) and model.nv == 8 and model.nq == 9
    assert model.names[:2] == ["universe", "world"] and model.joint_names[1] == "root_joint"
    # the root link "world" is massless, its child is not: fixed-base rows are the same
    fixed = load_urdf(TWO_LINK)
    rng = np.random.default_rng(RNG_SEED)
    q, qd, qdd = _random_state(fixed, rng)
    neutral = Free().neutral()
    H_float = sp.crba(model, np.concatenate([neutral, q]))
    np.testing.assert_allclose(H_float[6:, 6:], sp.crba(fixed, q), rtol=1e-13, atol=1e-15)


def test_a_floating_joint_in_the_file_becomes_a_free_joint():
    text = (
        f'<robot name="r"><link name="world"/><link name="body">{_inertial(1.0)}</link>'
        '<joint name="float" type="floating"><parent link="world"/><child link="body"/></joint>'
        "</robot>"
    )
    model = load_urdf(text)
    assert isinstance(model.joints[1], Free) and model.joint_names[1] == "float"


def test_gravity_is_passed_on():
    model = load_urdf(TWO_LINK, gravity=[0, -9.81, 0])
    np.testing.assert_array_equal(model.gravity, [0, -9.81, 0])


def test_an_axis_that_is_not_unit_is_normalised():
    text = (
        f'<robot name="r"><link name="a"/><link name="b">{_inertial(1.0)}</link>'
        + _joint("j", "revolute", "a", "b", axis="0 3 4")
        + "</robot>"
    )
    np.testing.assert_allclose(load_urdf(text).joints[1].axis, [0, 0.6, 0.8])


# ------------------------------------------------------------------------ export and import


@pytest.mark.parametrize(
    "make",
    [
        lambda rng: sp.builders.double_pendulum(),
        lambda rng: sp.builders.arm7(),
        lambda rng: load_urdf(TWO_LINK),
        lambda rng: sp.builders.random_tree(rng, 12, joints=("R", "P", "Rx", "Pz")),
        lambda rng: sp.builders.random_tree(rng, 10, joints=("R", "P", "F"), floating=True),
        lambda rng: sp.builders.random_tree(rng, 8, joints=("R", "FREE", "P")),
    ],
)
def test_export_then_import_gives_the_same_model(make):
    rng = np.random.default_rng(RNG_SEED)
    model = make(rng)
    back = load_urdf(to_urdf(model), gravity=model.gravity, massless="allow")
    _same_dynamics(model, back, rng, tol=1e-12)
    # the text is a URDF: a <robot> with one <link> per body and the base
    robot = ET.fromstring(to_urdf(model))
    assert robot.tag == "robot" and len(robot.findall("link")) == model.NB + 1


def test_export_keeps_the_names_of_a_loaded_model():
    back = load_urdf(to_urdf(load_urdf(TWO_LINK)))
    assert back.robot_name == "two_link" and back.joint_names == [None, "shoulder", "elbow"]
    assert back.names == ["world", "upper", "fore"]


# ----------------------------------------------------------------------------- bad input


def _robot(*parts):
    return '<robot name="bad"><link name="a"/>' + "".join(parts) + "</robot>"


B = f'<link name="b">{_inertial(1.0)}</link>'
C = f'<link name="c">{_inertial(1.0)}</link>'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('<robot name="x"><link name="a"></robot>', "malformed URDF XML"),
        ('<model name="x"/>', "root element must be <robot>, got <model>"),
        (_robot(B, _joint("j", "screw", "a", "b")), "joint 'j' has unknown type 'screw'"),
        (_robot(B, _joint("j", "planar", "a", "b")), "joint 'j' has type 'planar'"),
        (_robot(B, _joint("j", "revolute", "a", "nowhere")), "child link 'nowhere' is not"),
        (
            _robot(B, C, _joint("j1", "revolute", "a", "c"), _joint("j2", "revolute", "b", "c")),
            "link 'c' has two parents: it is the child of joint 'j1' and of joint 'j2'",
        ),
        (
            _robot(B, C, _joint("j1", "revolute", "b", "c"), _joint("j2", "revolute", "c", "b")),
            "the joints form a cycle through links ['b', 'c']",
        ),
        (
            _robot(B, _joint("j1", "revolute", "a", "b"), _joint("j2", "revolute", "b", "a")),
            "the joints form a cycle: every link is the child of some joint",
        ),
        (_robot(B, C, _joint("j", "revolute", "a", "b")), "one root link, found 2: ['a', 'c']"),
        (
            _robot('<link name="b"/>', _joint("j", "revolute", "a", "b")),
            "link 'b' (moved by joint 'j') has no inertia, and neither has any link beyond it",
        ),
        (_robot(B, _joint("j", "revolute", "a", "b", axis="0 0 0")), "joint 'j' <axis>"),
        (_robot(B, _joint("j", "revolute", "a", "b", xyz="1 2")), "joint 'j' <origin>: xyz="),
        (_robot(B, _joint("j", "revolute", "a", "b", rpy="0 nan 0")), "joint 'j' <origin>: rpy="),
        (_robot(B, B), "two <link> elements are named 'b'"),
        (_robot(B, "<joint type='fixed'/>"), "<joint> number 1 has no name"),
        (
            _robot(B, '<joint name="j" type="fixed"><child link="b"/></joint>'),
            "joint 'j' has no <parent link=...>",
        ),
        (
            _robot(f'<link name="b">{_inertial(-1.0)}</link>', _joint("j", "fixed", "a", "b")),
            "link 'b': <mass value> must not be negative",
        ),
        (
            _robot(
                f'<link name="b">{_inertial(1.0, ixx=1, iyy=1, izz=5)}</link>',
                _joint("j", "revolute", "a", "b"),
            ),
            "inertia of link 'b': the rotational inertia about the centre of mass violates",
        ),
        (
            _robot(
                '<link name="b"><inertial><mass value="1"/></inertial></link>',
                _joint("j", "revolute", "a", "b"),
            ),
            "link 'b': <inertial> has no <inertia> element",
        ),
    ],
)
def test_bad_urdf_raises_naming_the_element(text, message):
    with pytest.raises(ValueError) as err:
        load_urdf(text)
    assert message in str(err.value)


def test_massless_links_between_joints_are_fine_and_a_joint_moving_nothing_is_refused():
    # a universal joint made of two hinges with a massless link between them
    text = _robot('<link name="b"/>', C, _joint("j", "revolute", "a", "b", axis="1 0 0"))
    text = text.replace("</robot>", _joint("k", "revolute", "b", "c", axis="0 1 0") + "</robot>")
    model = load_urdf(text)
    assert model.inertia[1][3, 3] == 0.0 and model.inertia[2][3, 3] == 1.0
    assert np.linalg.eigvalsh(sp.crba(model, np.array([0.3, -0.2])))[0] > 0
    # a massless leaf: refused unless allowed, and then H is singular as promised
    leaf = _robot(B, '<link name="c"/>', _joint("j", "revolute", "a", "b"))
    leaf = leaf.replace("</robot>", _joint("k", "revolute", "b", "c") + "</robot>")
    with pytest.raises(ValueError, match="link 'c' \\(moved by joint 'k'\\) has no inertia"):
        load_urdf(leaf)
    H = sp.crba(load_urdf(leaf, massless="allow"), np.array([0.3, -0.2]))
    assert H[1, 1] == 0.0
    with pytest.raises(ValueError, match="massless must be 'error' or 'allow', got 'ignore'"):
        load_urdf(text, massless="ignore")


def test_a_missing_or_malformed_file_a_bad_option_and_an_unknown_link_raise(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_urdf("/no/such/robot.urdf")
    broken = tmp_path / "broken.urdf"
    broken.write_text(TWO_LINK[:-3])
    with pytest.raises(ValueError, match=f"malformed URDF XML in {broken}: .*line 1"):
        load_urdf(broken)
    with pytest.raises(ValueError, match="floating must be True or False, got 'yes'"):
        load_urdf(TWO_LINK, floating="yes")
    with pytest.raises(KeyError, match="no URDF link 'hand' in robot 'two_link'"):
        load_urdf(TWO_LINK).link_index("hand")


def test_export_refuses_what_urdf_cannot_express():
    model = sp.Model()
    model.add_body(0, sp.joints.Spherical(), np.eye(6), sp.mcI(1.0, [0, 0, 0], np.eye(3)))
    with pytest.raises(ValueError, match="body 'body1' has joint .*Spherical.* URDF cannot"):
        to_urdf(model)
    with pytest.raises(ValueError, match="has 1 loop joint"):
        to_urdf(sp.builders.four_bar())
    with pytest.raises(ValueError, match="model must be a spatial.Model, got str"):
        to_urdf("robot")


# ------------------------------------------------ impossible inertias, zero masses, bytes

# every tensor entry 1e-6, as the bases of Go1 and ANYmal B: principal moments (0, 0, 3e-6)
_EQUAL = dict(ixx=1e-6, iyy=1e-6, izz=1e-6, ixy=1e-6, ixz=1e-6, iyz=1e-6)
EQUAL_ENTRIES = _robot(
    f'<link name="b">{_inertial(2.0, xyz="0.1 0 0", **_EQUAL)}</link>',
    _joint("j", "revolute", "a", "b"),
)


def test_an_impossible_inertia_is_refused_by_default_and_repaired_on_request():
    with pytest.raises(ValueError, match="inertia of link 'b': .* triangle inequality .*'repair'"):
        load_urdf(EQUAL_ENTRIES)
    with pytest.warns(InertiaRepairWarning) as record:
        model = load_urdf(EQUAL_ENTRIES, inertia="repair")
    message = str(record[0].message)
    assert issubclass(InertiaRepairWarning, UserWarning)
    assert "link 'b': principal moments (" in message and "-> (1e-06, 1e-06, 2e-06)" in message
    assert "a change of 1.73e-06 in the Frobenius norm" in message
    # the nearest physical tensor, 1e-6 (1 + 11ᵀ/3) (see tests/test_inertia.py), same m and c
    expected = sp.mcI(2.0, [0.1, 0, 0], 1e-6 * (np.eye(3) + np.ones((3, 3)) / 3))
    np.testing.assert_allclose(model.inertia[1], expected, rtol=0, atol=1e-18)
    with pytest.raises(ValueError, match="inertia must be 'strict' or 'repair', got 'fix'"):
        load_urdf(EQUAL_ENTRIES, inertia="fix")


def test_a_physical_file_is_not_changed_by_repair(recwarn):
    np.testing.assert_array_equal(
        load_urdf(TWO_LINK, inertia="repair").inertia[2], load_urdf(TWO_LINK).inertia[2]
    )
    assert not [w for w in recwarn if issubclass(w.category, InertiaRepairWarning)]


def test_zero_mass_with_a_rotational_inertia_follows_the_massless_option():
    zero_mass = _robot(
        f'<link name="b">{_inertial(0.0, ixx=0.1, iyy=0.1, izz=0.1)}</link>',
        C,
        _joint("j", "revolute", "a", "b", axis="1 0 0"),
        _joint("k", "revolute", "b", "c", axis="0 1 0"),
    )
    # as mcI refuses m = 0: a body without mass has no rotational inertia (it loaded before)
    with pytest.raises(ValueError, match="link 'b': <mass value=\"0\"/> with a non-zero <inertia>"):
        load_urdf(zero_mass)
    with pytest.warns(InertiaRepairWarning, match="link 'b': mass 0, its <inertia> dropped"):
        model = load_urdf(zero_mass, massless="allow")
    assert not np.any(model.inertia[1])  # a massless link, like one without <inertial>
    # zero mass and a zero tensor is simply a massless link, as before
    massless = zero_mass.replace('ixx="0.1" iyy="0.1" izz="0.1"', 'ixx="0" iyy="0" izz="0"')
    assert not np.any(load_urdf(massless).inertia[1])


def test_xml_given_as_bytes_or_after_a_byte_order_mark_is_read_as_xml(tmp_path):
    reference = load_urdf(TWO_LINK)
    for source in (TWO_LINK.encode(), bytearray(TWO_LINK.encode()), "\ufeff" + TWO_LINK):
        model = load_urdf(source)  # was FileNotFoundError: the text was taken for a path
        np.testing.assert_array_equal(model.inertia[2], reference.inertia[2])
    path = tmp_path / "bom.urdf"
    path.write_bytes(b"\xef\xbb\xbf" + TWO_LINK.encode())
    assert load_urdf(path.read_bytes()).names == reference.names
    with pytest.raises(ValueError, match="URDF given as bytes must be UTF-8 encoded XML"):
        load_urdf(TWO_LINK.encode("utf-16"))
    with pytest.raises(ValueError, match="URDF given as bytes is read as XML text"):
        load_urdf(str(path).encode())
    with pytest.raises(ValueError, match="source must be a path .* got int"):
        load_urdf(5)


def test_to_urdf_refuses_a_name_that_is_not_a_string():
    with pytest.raises(ValueError, match="name must be a non-empty string"):
        to_urdf(sp.builders.double_pendulum(), name=5)


# ------------------------------------------------------------ real robots against MuJoCo

try:
    import mujoco
except ImportError:  # pragma: no cover - the extra is missing
    mujoco = None
try:
    _ERD = importlib.metadata.distribution("example-robot-data")
except importlib.metadata.PackageNotFoundError:  # pragma: no cover - the extra is missing
    _ERD = None
needs_robots = pytest.mark.skipif(
    mujoco is None or _ERD is None,
    reason="the 'robots' extra (example-robot-data, mujoco) is not installed",
)

#: (file, floating base?): arms on a fixed base, quadrupeds and humanoids floating
ROBOTS = [
    ("panda.urdf", False),  # Franka Emika Panda arm (with its hand's fingers)
    ("ur5_robot.urdf", False),  # Universal Robots UR5 arm
    ("solo12.urdf", True),  # Solo-12 quadruped
    ("a1.urdf", True),  # Unitree A1 quadruped
    ("talos_reduced.urdf", True),  # PAL Talos humanoid
    ("g1_29dof_rev_1_0.urdf", True),  # Unitree G1 humanoid
]


def robot_path(name):
    found = [f for f in _ERD.files if f.name == name]
    assert len(found) == 1, f"example-robot-data ships {len(found)} files named {name}"
    return _ERD.locate_file(found[0])


def mujoco_model(path, floating):
    """MuJoCo's own reading of the URDF: no geometry, static bodies kept, no inertia fixes."""
    robot = ET.parse(path).getroot()
    for link in robot.findall("link"):
        for tag in ("visual", "collision"):
            for element in link.findall(tag):
                link.remove(element)
    for element in robot.findall("mujoco"):
        robot.remove(element)
    options = {"fusestatic": "false", "balanceinertia": "false", "boundmass": "0"}
    ET.SubElement(ET.SubElement(robot, "mujoco"), "compiler", options, boundinertia="0")
    spec = mujoco.MjSpec.from_string(ET.tostring(robot, encoding="unicode"))
    if floating:
        spec.worldbody.first_body().add_freejoint()
    m = spec.compile()
    # rigid-body dynamics only: no joint damping, springs or friction from <dynamics>, and no
    # joint-limit constraints (random configurations may lie outside the limits)
    m.dof_damping[:] = m.jnt_stiffness[:] = m.dof_frictionloss[:] = 0.0
    m.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
    return m


def mujoco_dynamics(model, m, q, qd, tau):
    """MuJoCo's ``H``, ``C`` and ``q̈`` in spatial's coordinates.

    MuJoCo orders and names the joints its own way, and its free joint has ``q = [p, quat]``
    with velocity ``[ṗ (world), ω (body)]``, where spatial's :class:`Free` has
    ``[quat, p]`` and ``[ω; v]`` both in body coordinates.  With ``v_mj = T v_sp`` (``T``
    holds ``R`` from body to world for the linear part), ``H = Tᵀ H_mj T``,
    ``C = Tᵀ (C_mj + H_mj Ṫ v_sp)``, ``τ_mj = T⁻ᵀ τ`` and ``q̈ = T⁻¹ (q̈_mj - Ṫ v_sp)``.
    """
    data = mujoco.MjData(m)
    T, Tdot_v = np.zeros((m.nv, model.nv)), np.zeros(m.nv)
    for i in range(1, model.NB + 1):
        qs, vs = model.q_index[i], model.v_index[i]
        if model.joint_names[i] == "root_joint":
            jid = next(k for k in range(m.njnt) if m.jnt_type[k] == mujoco.mjtJoint.mjJNT_FREE)
        else:
            jid = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_JOINT, model.joint_names[i])
        qa, da = m.jnt_qposadr[jid], m.jnt_dofadr[jid]
        if isinstance(model.joints[i], Free):
            R = sp.rotations.quat_to_matrix(q[qs][:4])
            data.qpos[qa : qa + 7] = np.concatenate([q[qs][4:], q[qs][:4]])
            T[da : da + 3, vs.start + 3 : vs.stop] = R
            T[da + 3 : da + 6, vs.start : vs.start + 3] = np.eye(3)
            Tdot_v[da : da + 3] = R @ np.cross(qd[vs][:3], qd[vs][3:])
        else:
            data.qpos[qa] = q[qs][0]
            T[da, vs.start] = 1.0
    data.qvel[:] = T @ qd
    data.qfrc_applied[:] = np.linalg.solve(T.T, tau)
    mujoco.mj_forward(m, data)
    assert not np.any(data.qfrc_passive) and not np.any(data.qfrc_constraint)
    H_mj = np.zeros((m.nv, m.nv))
    try:
        mujoco.mj_fullM(m, data, H_mj)  # MuJoCo 4
    except TypeError:
        mujoco.mj_fullM(m, H_mj, data.qM)  # MuJoCo 3
    H = T.T @ H_mj @ T
    C = T.T @ (data.qfrc_bias + H_mj @ Tdot_v)
    qdd = np.linalg.solve(T, data.qacc - Tdot_v)
    return H, C, qdd


@needs_robots
@pytest.mark.parametrize(("name", "floating"), ROBOTS)
def test_real_robots_agree_with_mujoco(name, floating):
    path = robot_path(name)
    model = load_urdf(path, floating=floating)
    m = mujoco_model(path, floating)
    assert m.nv == model.nv
    rng = np.random.default_rng(RNG_SEED)
    for _ in range(2):
        q, qd, tau = _random_state(model, rng)
        H, C, qdd = mujoco_dynamics(model, m, q, qd, tau)
        assert _rel(sp.crba(model, q), H) < 1e-9
        assert _rel(sp.bias_force(model, q, qd), C) < 1e-9
        assert _rel(sp.rnea(model, q, qd, qdd), tau) < 1e-9
        assert _rel(sp.aba(model, q, qd, tau), qdd) < 1e-9


@needs_robots
@pytest.mark.parametrize(("name", "floating"), ROBOTS[::2])
def test_real_robots_survive_export_and_import(name, floating):
    model = load_urdf(robot_path(name), floating=floating)
    back = load_urdf(to_urdf(model))
    assert back.names[1:] == model.names[1:] and back.joint_names[1:] == model.joint_names[1:]
    _same_dynamics(model, back, np.random.default_rng(RNG_SEED), tol=1e-12)


@needs_robots
def test_a_real_robot_with_an_impossible_inertia_is_refused_naming_the_link():
    # Unitree Go1's base link lists ixx = ixy = ... = 1e-6: principal moments (0, 0, 3e-6)
    with pytest.raises(ValueError, match="inertia of link 'base': .* triangle inequality"):
        load_urdf(robot_path("go1.urdf"), floating=True)


#: robots whose files list impossible link inertias, by path in example-robot-data (two of the
#: files are called anymal.urdf)
IMPOSSIBLE_INERTIAS = {
    "anymal_b": "anymal_b_simple_description/robots/anymal.urdf",  # base: every entry 1e-6
    "anymal_c": "anymal_c_simple_description/urdf/anymal.urdf",  # hatch and four cameras
    "go1": "go1_description/urdf/go1.urdf",  # base: every entry 1e-6
}


@needs_robots
@pytest.mark.parametrize("robot", sorted(IMPOSSIBLE_INERTIAS))
def test_robots_with_impossible_inertias_load_repaired_and_run(robot):
    found = [f for f in _ERD.files if str(f).endswith(IMPOSSIBLE_INERTIAS[robot])]
    assert len(found) == 1
    path = _ERD.locate_file(found[0])
    with pytest.raises(ValueError, match="triangle inequality"):
        load_urdf(path, floating=True)
    with pytest.warns(InertiaRepairWarning, match="link inertia\\(s\\) changed"):
        model = load_urdf(path, floating=True, inertia="repair")
    rng = np.random.default_rng(RNG_SEED)
    q = model.random_configuration(rng)
    qd, qdd = rng.uniform(-1, 1, model.nv), rng.uniform(-1, 1, model.nv)
    tau = sp.rnea(model, q, qd, qdd)
    qdd_back = sp.aba(model, q, qd, tau)
    assert np.all(np.isfinite(qdd_back))
    assert _rel(qdd_back, qdd) < 1e-8
