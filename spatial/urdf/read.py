"""Reading a URDF robot description into a :class:`~spatial.model.Model` (Featherstone §4.1–4.2).

A URDF file lists *links* (rigid bodies with an optional ``<inertial>``) and *joints*, each
joining a parent link to a child link.  That is exactly the connectivity of §4.1: the links form
a tree whose root is the one link that is nobody's child, and a regular numbering (parents
before children, §4.1.2) comes from walking the tree depth first from the root.

Each URDF joint is read into the three per-body quantities of Table 4.3:

* ``<origin xyz rpy>`` places the joint frame (which is also the child link's frame at ``q = 0``)
  in the parent link's frame.  The roll-pitch-yaw angles turn the frame about the fixed x, y and
  z axes in that order, i.e. ``R = Rz(yaw) Ry(pitch) Rx(roll)`` maps child coordinates to parent
  coordinates (the matrix of :func:`spatial.rotations.rpy_to_matrix`, which takes the angles
  z first), so the tree transform is ``X_T = plux(Rᵀ, xyz)`` (eq. 2.24 with ``E = Rᵀ``);
* ``type`` and ``<axis>`` choose ``jtype`` (Table 4.1): ``revolute`` and ``continuous`` become
  :class:`~spatial.joints.Revolute`, ``prismatic`` :class:`~spatial.joints.Prismatic`,
  ``floating`` :class:`~spatial.joints.Free`; the axis is given in the joint frame, which is
  the successor frame F_s, as the joint classes expect;
* ``<inertial>`` gives the mass, the centre of mass ``c`` (its ``<origin xyz>``) and the
  rotational inertia about ``c`` in axes turned by its ``<origin rpy>``; in link coordinates the
  latter is ``R I Rᵀ``, and eq. 2.63 (:func:`~spatial.inertia.mcI`) assembles the spatial
  inertia.

A ``fixed`` joint adds no degree of freedom: its child link is welded to its parent, so the two
are one rigid body whose inertia is the sum of the parts' inertias expressed in one frame
(§2.13, composite rigid bodies); children of a welded link hang from the body it was welded to,
with their tree transforms composed with the weld's.  Links without ``<inertial>`` are massless,
as the URDF format specifies.  A massless body between two joints is harmless (its joint still
moves the bodies beyond it), but a joint whose whole subtree has no inertia moves nothing and
makes the joint-space inertia matrix singular (Featherstone §6.2: ``H_ii = S_iᵀ I^c_i S_i``); that
is almost always a mistake in the file, so it is an error unless ``massless="allow"`` is
passed.  The same option covers a link whose ``<mass value="0"/>`` comes with a non-zero
``<inertia>``: a body without mass has no rotational inertia either (``I_c = ∫ (|r|² 1 - r rᵀ)
dm``), so such a link is refused by default (as :func:`~spatial.inertia.mcI` refuses ``m = 0``)
and read as a massless link, its tensor dropped with a warning, under ``massless="allow"``.

Real files also list rotational inertias that no body has: principal moments breaking the
triangle inequality ``d₁ + d₂ ≥ d₃`` (the base of Unitree's Go1 and of ANYbotics' ANYmal B has
every tensor entry 1e-6, principal moments 0, 0, 3e-6).  They are refused by default
(``inertia="strict"``); ``inertia="repair"`` replaces each by the nearest physical one,
:func:`~spatial.inertia.nearest_rotational_inertia` (the smallest change of the rotational
inertia about the centre of mass in the Frobenius norm, principal axes kept; mass and centre of
mass are kept too) and warns with an :class:`InertiaRepairWarning` naming the links and the
changes.
"""

from __future__ import annotations

import heapq
import os
import warnings
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

import numpy as np

from .._batched import plux as _plux  # rot(E) xlt(r), unvalidated (eq. 2.24)
from .._batched import skew_matrix
from ..inertia import _check_rotational_inertia, nearest_rotational_inertia, validate_inertia
from ..joints import Free, Joint, Prismatic, Revolute
from ..model import Model
from ..rotations import rpy_to_matrix

__all__ = ["load_urdf", "UrdfModel", "SUPPORTED_JOINT_TYPES", "InertiaRepairWarning"]

#: URDF joint types this reader turns into joints of the package.
SUPPORTED_JOINT_TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating")
_KNOWN_UNSUPPORTED = ("planar",)


class InertiaRepairWarning(UserWarning):
    """:func:`load_urdf` changed a link's inertia: ``inertia="repair"`` replaced an impossible
    rotational inertia by the nearest physical one, or ``massless="allow"`` dropped the
    rotational inertia of a link with zero mass.  The message names the links and the changes."""


@dataclass(repr=False)
class UrdfModel(Model):
    """A :class:`~spatial.model.Model` read from URDF, with the file's names kept.

    Every algorithm takes it like any other model.  Body ``i`` is named after the URDF link its
    joint moves (``names[i]``); ``names[0]``, the fixed base, is the root link when the root is
    welded to it, and otherwise ``"world"`` (``"universe"`` if a link is called ``"world"``).

    Attributes
    ----------
    robot_name : str
        The ``<robot name>``.
    joint_names : list[str | None]
        ``joint_names[i]`` is the URDF joint that moves body ``i`` (``joint_names[0] is None``;
        a floating base added by ``load_urdf(..., floating=True)`` is called ``"root_joint"``);
        joint ``name`` moves ``qd[model.v_index[model.joint_names.index(name)]]``.
    link_frames : dict[str, tuple[int, ndarray]]
        For every URDF link, ``(i, X)``: the body it belongs to and the Plücker transform from
        that body's frame to the link's frame (the identity unless the link was welded on by
        fixed joints).
    """

    robot_name: str = field(default="robot", init=False)
    joint_names: list = field(default_factory=lambda: [None], init=False)
    link_frames: dict = field(default_factory=dict, init=False)

    def __repr__(self) -> str:
        return f"UrdfModel({self.robot_name!r}, NB={self.NB}, nq={self.nq}, nv={self.nv})"

    def link_index(self, link: str) -> int:
        """Body number of URDF link ``link`` (``0`` for links welded to the fixed base).

        Raises
        ------
        KeyError
            If the robot has no such link; the message lists a few that exist.
        """
        if link not in self.link_frames:
            known = ", ".join(list(self.link_frames)[:8])
            raise KeyError(f"no URDF link {link!r} in robot {self.robot_name!r} (links: {known}…)")
        return self.link_frames[link][0]


# ------------------------------------------------------------------------- reading the XML


def _numbers(element, attribute: str, count: int, default: str, where: str) -> np.ndarray:
    """``count`` finite floats from ``element.get(attribute)`` (``default`` if absent)."""
    text = default if element is None else element.get(attribute, default)
    try:
        values = np.array([float(x) for x in text.split()])
    except ValueError:
        values = np.array([])
    if values.shape != (count,) or not np.all(np.isfinite(values)):
        raise ValueError(f"{where}: {attribute}={text!r} must be {count} finite number(s)")
    return values


def _origin(element, where: str) -> tuple[np.ndarray, np.ndarray]:
    """``(R, xyz)`` of the ``<origin>`` child of ``element`` (identity if absent)."""
    origin = element.find("origin")
    xyz = _numbers(origin, "xyz", 3, "0 0 0", f"{where} <origin>")
    rpy = _numbers(origin, "rpy", 3, "0 0 0", f"{where} <origin>")
    # URDF's (roll, pitch, yaw) turn about the fixed x, y, z axes: R = Rz(yaw) Ry(pitch) Rx(roll),
    # the z-y′-x″ matrix of spatial.rotations.rpy_to_matrix with the angles in reverse order
    return rpy_to_matrix(rpy[::-1]), xyz


def _link_inertia(link, inertia: str, massless: str, changes: list) -> np.ndarray | None:
    """Spatial inertia of a ``<link>`` in its own frame, or ``None`` without ``<inertial>``.

    ``inertia``/``massless`` are :func:`load_urdf`'s options; a description of every inertia
    they changed is appended to ``changes``.
    """
    where = f"link {link.get('name')!r}"
    inertial = link.find("inertial")
    if inertial is None:
        return None
    R, c = _origin(inertial, f"{where} <inertial>")
    mass = _numbers(inertial.find("mass"), "value", 1, "", f"{where} <inertial><mass>")[0]
    tensor = inertial.find("inertia")
    if tensor is None:
        raise ValueError(f"{where}: <inertial> has no <inertia> element")
    ixx, ixy, ixz, iyy, iyz, izz = (
        _numbers(tensor, key, 1, "", f"{where} <inertia>")[0]
        for key in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz")
    )
    I_axes = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    if mass < 0:
        raise ValueError(f"{where}: <mass value> must not be negative, got {mass}")
    if mass == 0.0 and np.any(I_axes):
        if massless == "error":
            raise ValueError(
                f'{where}: <mass value="0"/> with a non-zero <inertia>: a body without mass has '
                "no rotational inertia; give the link its mass, or pass massless='allow' to "
                "read it as a massless link (its <inertia> dropped)"
            )
        changes.append(f"{where}: mass 0, its <inertia> dropped (a massless link)")
        return None
    if inertia == "repair":
        try:
            _check_rotational_inertia(I_axes, "", definite=False)
        except ValueError:
            repaired = nearest_rotational_inertia(I_axes)
            before, after = np.linalg.eigvalsh(I_axes), np.linalg.eigvalsh(repaired)
            change = np.linalg.norm(repaired - I_axes)
            changes.append(
                f"{where}: principal moments ({', '.join(f'{x:.6g}' for x in before)}) -> "
                f"({', '.join(f'{x:.6g}' for x in after)}), a change of {change:.3g} in the "
                f"Frobenius norm ({change / np.linalg.norm(I_axes):.1%} of the tensor)"
            )
            I_axes = repaired
    # eq. 2.63 assembled directly: URDF allows point masses (I_c = 0), which mcI refuses
    C = skew_matrix(c)
    I = np.block([[R @ I_axes @ R.T + mass * C @ C.T, mass * C], [mass * C.T, mass * np.eye(3)]])
    try:
        return validate_inertia(I, f"inertia of {where}", allow_massless=True)
    except ValueError as err:
        if "triangle inequality" not in str(err) and "semi-definite" not in str(err):
            raise
        raise ValueError(
            f"{err}; load_urdf(..., inertia='repair') replaces it by the nearest physical one"
        ) from None


def _joint_model(joint, where: str) -> Joint | None:
    """The package joint for a URDF ``<joint>`` (``None`` for ``fixed``)."""
    jtype = joint.get("type")
    if jtype == "fixed":
        return None
    if jtype == "floating":
        return Free()
    if jtype in _KNOWN_UNSUPPORTED:
        raise ValueError(
            f"{where} has type {jtype!r}, which spatial.urdf does not read"
            f" (supported: {', '.join(SUPPORTED_JOINT_TYPES)})"
        )
    if jtype not in SUPPORTED_JOINT_TYPES:
        raise ValueError(
            f"{where} has unknown type {jtype!r} (supported: {', '.join(SUPPORTED_JOINT_TYPES)})"
        )
    axis = _numbers(joint.find("axis"), "xyz", 3, "1 0 0", f"{where} <axis>")
    norm = np.linalg.norm(axis)
    if norm < 1e-12:
        raise ValueError(f"{where} <axis>: xyz={axis.tolist()} is the zero vector")
    axis = axis / norm
    return Prismatic(axis) if jtype == "prismatic" else Revolute(axis)


def _parse(source) -> ET.Element:
    """The ``<robot>`` element of a URDF given as a path or as XML text (str or bytes)."""
    if isinstance(source, bytes | bytearray):
        try:
            source = bytes(source).decode("utf-8")
        except UnicodeDecodeError as err:
            raise ValueError(f"URDF given as bytes must be UTF-8 encoded XML: {err}") from None
        if not source.lstrip("\ufeff \t\r\n").startswith("<"):
            raise ValueError(
                "URDF given as bytes is read as XML text, but it does not start with '<' "
                "(pass a file path as a str or os.PathLike)"
            )
    elif not isinstance(source, str | os.PathLike):
        raise ValueError(
            "source must be a path (str or os.PathLike) or URDF XML (str or bytes), got "
            f"{type(source).__name__}"
        )
    if isinstance(source, str):
        source = source.lstrip("\ufeff")  # a byte-order mark left by a text editor
    text_given = isinstance(source, str) and source.lstrip().startswith("<")
    try:
        root = ET.fromstring(source) if text_given else ET.parse(os.fspath(source)).getroot()
    except ET.ParseError as err:
        where = "" if text_given else f" in {os.fspath(source)}"
        raise ValueError(f"malformed URDF XML{where}: {err}") from None
    if root.tag != "robot":
        raise ValueError(f"a URDF's root element must be <robot>, got <{root.tag}>")
    return root


def _named(root, tag: str) -> dict:
    """``{name: element}`` of the ``<tag>`` children, refusing missing or repeated names."""
    out = {}
    for k, element in enumerate(root.findall(tag)):
        name = element.get("name")
        if not name:
            raise ValueError(f"<{tag}> number {k + 1} has no name attribute")
        if name in out:
            raise ValueError(f"two <{tag}> elements are named {name!r}")
        out[name] = element
    return out


def _child(joint) -> str:
    return joint.find("child").get("link")


def _tree(links: dict, joints: dict) -> tuple[str, dict]:
    """The root link and ``{parent link: [joint names]}``; checks the links form one tree."""
    parent_joint: dict[str, str] = {}
    children: dict[str, list] = {name: [] for name in links}
    for name, joint in joints.items():
        where = f"joint {name!r}"
        ends = {}
        for end in ("parent", "child"):
            element = joint.find(end)
            link = None if element is None else element.get("link")
            if link is None:
                raise ValueError(f"{where} has no <{end} link=...>")
            if link not in links:
                raise ValueError(f"{where}: its {end} link {link!r} is not a <link> of the robot")
            ends[end] = link
        if ends["child"] in parent_joint:
            raise ValueError(
                f"link {ends['child']!r} has two parents: it is the child of joint"
                f" {parent_joint[ends['child']]!r} and of joint {name!r}"
            )
        parent_joint[ends["child"]] = name
        children[ends["parent"]].append(name)
    roots = [name for name in links if name not in parent_joint]
    if not roots:
        raise ValueError("the joints form a cycle: every link is the child of some joint")
    if len(roots) > 1:
        raise ValueError(f"a URDF must have one root link, found {len(roots)}: {roots}")
    reached, stack = {roots[0]}, [roots[0]]
    while stack:
        for name in children[stack.pop()]:
            child = _child(joints[name])
            reached.add(child)
            stack.append(child)
    if len(reached) != len(links):
        cycle = sorted(set(links) - reached)
        raise ValueError(f"the joints form a cycle through links {cycle}")
    return roots[0], children


# ------------------------------------------------------------------------------ the loader


def load_urdf(
    source,
    floating: bool = False,
    gravity=(0.0, 0.0, -9.81),
    massless: str = "error",
    inertia: str = "strict",
):
    """Read a URDF robot description into a kinematic tree (Featherstone §4.1–4.2, Table 4.3).

    Parameters
    ----------
    source : str, bytes or os.PathLike
        A path to a ``.urdf`` file, or the XML text itself: a string starting with ``<`` (a
        leading byte-order mark is ignored), or ``bytes`` (decoded as UTF-8, so the contents of
        a file read in binary mode can be passed as they are).
    floating : bool
        ``False``: the root link is welded to the fixed base (body 0), as for an arm bolted to
        the floor.  ``True``: the root link becomes body 1 on a 6-DoF
        :class:`~spatial.joints.Free` joint named ``"root_joint"`` (a legged robot or a
        humanoid, §9.4).
    gravity : array_like, shape (3,)
        Gravitational acceleration in base coordinates (URDF does not say).
    massless : {"error", "allow"}
        What to do with a joint whose body and all bodies beyond it have no inertia, and with a
        link of zero mass but a non-zero ``<inertia>`` (refused, or read as massless with an
        :class:`InertiaRepairWarning`; see the module notes).
    inertia : {"strict", "repair"}
        What to do with a link whose rotational inertia no body can have (principal moments
        breaking the triangle inequality ``d₁ + d₂ ≥ d₃``, or negative): refuse the file
        (``"strict"``), or replace the rotational inertia about the link's centre of mass by the
        nearest physical one (``"repair"``): the one with the smallest change in the Frobenius
        norm, which keeps the principal axes and moves the principal moments to the nearest
        point of the triangle-inequality cone (:func:`~spatial.inertia.nearest_rotational_inertia`;
        a tensor with every entry ``ε`` becomes ``ε (1 + 11ᵀ/3)``).  The mass and the centre of
        mass are kept.  One :class:`InertiaRepairWarning` lists the repaired links, their
        principal moments before and after and the size of the change.

    Returns
    -------
    UrdfModel
        The tree in a regular numbering (§4.1.2) that follows the file's order of links as far
        as parents-before-children allows, with the link and joint names of the file
        (:class:`UrdfModel`).  URDF's joint limits, dynamics
        (damping, friction), ``mimic`` couplings and geometry are not read.

    Raises
    ------
    ValueError
        Naming the element at fault: malformed XML, a root element that is not ``<robot>``, a
        missing or repeated name, a joint whose ``type`` is unknown or not supported
        (``planar``), a joint whose parent or child link does not exist, a link with two
        parents, a cycle or several root links, an ``<origin>``/``<axis>``/``<mass>``/
        ``<inertia>`` that is not finite numbers, a zero axis, a non-physical inertia (unless
        ``inertia="repair"``), a link of zero mass with a non-zero ``<inertia>`` or a joint
        that moves no inertia (unless ``massless="allow"``), an unknown option, or a
        ``source`` that is neither a path nor XML (bytes that are not UTF-8).

    Warns
    -----
    InertiaRepairWarning
        If ``inertia="repair"`` or ``massless="allow"`` changed a link's inertia.

    Examples
    --------
    >>> from spatial.urdf import load_urdf
    >>> model = load_urdf('''<robot name="pendulum">
    ...   <link name="world"/>
    ...   <link name="rod"><inertial><mass value="2"/><origin xyz="0 0 -0.5"/>
    ...     <inertia ixx="0.1" iyy="0.1" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
    ...   <joint name="hinge" type="continuous"><parent link="world"/><child link="rod"/>
    ...     <axis xyz="0 1 0"/></joint>
    ... </robot>''')
    >>> model.NB, model.names[1], model.joint_names[1]
    (1, 'rod', 'hinge')
    """
    if massless not in ("error", "allow"):
        raise ValueError(f"massless must be 'error' or 'allow', got {massless!r}")
    if inertia not in ("strict", "repair"):
        raise ValueError(f"inertia must be 'strict' or 'repair', got {inertia!r}")
    if not isinstance(floating, bool):
        raise ValueError(f"floating must be True or False, got {floating!r}")
    robot = _parse(source)
    links, joints = _named(robot, "link"), _named(robot, "joint")
    if not links:
        raise ValueError("the URDF has no <link>")
    root, children = _tree(links, joints)

    model = UrdfModel(gravity=gravity)
    model.robot_name = robot.get("name", "robot")
    zero = np.zeros((6, 6))
    parts: dict[int, list] = {0: []}  # body -> [(X from body to link, inertia in link frame)]
    if floating:
        model.names[0] = next(n for n in ("world", "universe", "fixed_base") if n not in links)
        body = model.add_body(0, Free(), np.eye(6), zero, name=root)
        model.joint_names.append("root_joint")
    else:
        body, model.names[0] = 0, root
    model.link_frames[root] = (body, np.eye(6))
    changes: list[str] = []
    parts[body] = [(np.eye(6), _link_inertia(links[root], inertia, massless, changes))]

    # Bodies are numbered in the file's order of <link> elements, as far as a regular numbering
    # allows (§4.1.2): always the earliest link whose parent is already placed, so a file that
    # lists parents before children (as to_urdf writes it) keeps its order.
    position = {name: k for k, name in enumerate(links)}
    ready = [(position[_child(joints[name])], name) for name in children[root]]
    heapq.heapify(ready)
    while ready:
        _, name = heapq.heappop(ready)
        joint, where = joints[name], f"joint {name!r}"
        child = _child(joint)
        body, X_link = model.link_frames[joint.find("parent").get("link")]
        R, xyz = _origin(joint, where)
        X_T = _plux(R.T, xyz) @ X_link  # body -> joint frame = child frame at q = 0
        jmodel = _joint_model(joint, where)
        link_inertia = _link_inertia(links[child], inertia, massless, changes)
        if jmodel is None:  # welded on: the child link is part of the same body
            model.link_frames[child] = (body, X_T)
            parts[body].append((X_T, link_inertia))
        else:
            new = model.add_body(body, jmodel, X_T, zero, name=child)
            model.joint_names.append(name)
            model.link_frames[child] = (new, np.eye(6))
            parts[new] = [(np.eye(6), link_inertia)]
        for grandchild in children[child]:
            heapq.heappush(ready, (position[_child(joints[grandchild])], grandchild))

    carries = [False] * (model.NB + 1)  # does the body or a body beyond it have inertia?
    for body in range(model.NB, 0, -1):
        # §2.13: a welded link's inertia I_k in its frame k is X_{k,body}ᵀ I_k X_{k,body} in
        # the body's frame (eq. 2.66 read as a change of frame)
        model.inertia[body] = sum((X.T @ I @ X for X, I in parts[body] if I is not None), zero)
        carries[body] = carries[body] or bool(np.any(model.inertia[body]))
        if massless == "error" and not carries[body]:
            raise ValueError(
                f"link {model.names[body]!r} (moved by joint {model.joint_names[body]!r}) has no"
                " inertia, and neither has any link beyond it, so the joint moves nothing: give"
                " it an <inertial> or pass massless='allow'"
            )
        carries[model.parent[body]] = carries[model.parent[body]] or carries[body]
    if changes:
        warnings.warn(
            f"robot {model.robot_name!r}: {len(changes)} link inertia(s) changed:\n  "
            + "\n  ".join(changes),
            InertiaRepairWarning,
            stacklevel=2,
        )
    return model
