"""Writing a :class:`~spatial.model.Model` as URDF text: :mod:`.read` run backwards.

Each body ``i`` becomes a ``<link>`` named ``names[i]`` and a ``<joint>`` from link
``names[λ(i)]`` to it:

* the tree transform ``X_T(i) = plux(E, r)`` (eq. 2.24) gives the joint ``<origin>``: ``xyz = r``
  and the URDF roll-pitch-yaw angles of ``R = Eᵀ`` (:func:`spatial.rotations.matrix_to_rpy`,
  whose angles come z first, reversed);
* the joint type and axis come from ``jtype(i)``: :class:`~spatial.joints.Revolute` is written
  as ``continuous`` (a model has no joint limits), :class:`~spatial.joints.Prismatic` as
  ``prismatic`` (with a placeholder ``<limit>``, which the format requires),
  :class:`~spatial.joints.Free` as ``floating`` and :class:`~spatial.joints.Fixed` as ``fixed``;
  other joints have no URDF equivalent;
* the spatial inertia is split into mass, centre of mass and rotational inertia about it
  (eq. 2.63 read backwards, :func:`~spatial.inertia.inertia_params`), written as an
  ``<inertial>`` whose frame is parallel to the link frame.

Numbers are written with Python's shortest round-trip representation, so reading the text back
gives the same model up to the rounding of the angle conversions (~1e-16).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np

from ..inertia import _params  # (m, c, I_c) without checks (eq. 2.63 backwards)
from ..joints import Fixed, Free, Prismatic, Revolute
from ..model import Model
from ..rotations import matrix_to_rpy
from ..vectors import unplux

__all__ = ["to_urdf"]


_TENSOR_ENTRIES = {
    "ixx": (0, 0),
    "ixy": (0, 1),
    "ixz": (0, 2),
    "iyy": (1, 1),
    "iyz": (1, 2),
    "izz": (2, 2),
}


def _text(values) -> str:
    return " ".join(repr(float(v)) for v in np.ravel(values))


def _inertial(link: ET.Element, inertia: np.ndarray) -> None:
    m, c, I_c = _params(inertia)
    inertial = ET.SubElement(link, "inertial")
    ET.SubElement(inertial, "origin", xyz=_text(c), rpy="0.0 0.0 0.0")
    ET.SubElement(inertial, "mass", value=_text([m]))
    keys = {
        "ixx": (0, 0),
        "ixy": (0, 1),
        "ixz": (0, 2),
        "iyy": (1, 1),
        "iyz": (1, 2),
        "izz": (2, 2),
    }
    ET.SubElement(inertial, "inertia", {k: _text([I_c[ij]]) for k, ij in keys.items()})


def _joint_type(joint, body: str) -> tuple[str, np.ndarray | None]:
    if isinstance(joint, Revolute):
        return "continuous", joint.axis
    if isinstance(joint, Prismatic):
        return "prismatic", joint.axis
    if isinstance(joint, Free):
        return "floating", None
    if isinstance(joint, Fixed):
        return "fixed", None
    raise ValueError(
        f"body {body!r} has joint {joint!r}, which URDF cannot express"
        " (only Revolute, Prismatic, Free and Fixed joints can be written)"
    )


def to_urdf(model: Model, name: str | None = None) -> str:
    """The URDF text of a kinematic tree (Table 4.3 written as links and joints).

    Parameters
    ----------
    model : Model
        A tree whose joints are all :class:`~spatial.joints.Revolute`,
        :class:`~spatial.joints.Prismatic`, :class:`~spatial.joints.Free` or
        :class:`~spatial.joints.Fixed`; a :class:`~spatial.urdf.UrdfModel` keeps its joint and
        robot names, other models get joints ``joint1 … jointNB``.
    name : str, optional
        The ``<robot name>``; defaults to the model's ``robot_name`` or ``"robot"``.

    Returns
    -------
    str
        URDF text that :func:`~spatial.urdf.load_urdf` reads back into the same model (gravity
        is not part of URDF: pass it again to ``load_urdf``).

    Raises
    ------
    ValueError
        If the model is not a Model, has loop joints, or a joint type URDF cannot express
        (naming the body), or ``name`` is not a non-empty string.

    Examples
    --------
    >>> import spatial as sp
    >>> from spatial.urdf import load_urdf, to_urdf
    >>> arm = sp.builders.double_pendulum()
    >>> back = load_urdf(to_urdf(arm), gravity=arm.gravity)
    >>> back.NB, back.joints[2]
    (2, Revolute(axis=[0.0, 0.0, 1.0]))
    """
    if not isinstance(model, Model):
        raise ValueError(f"model must be a spatial.Model, got {type(model).__name__}")
    if model.loop_joints:
        raise ValueError(
            f"the model has {len(model.loop_joints)} loop joint(s); URDF describes trees only"
        )
    if name is not None and (not isinstance(name, str) or not name):
        raise ValueError(f"name must be a non-empty string (the <robot name>), got {name!r}")
    joint_names = getattr(model, "joint_names", None)
    robot = ET.Element("robot", name=name or getattr(model, "robot_name", "robot"))
    ET.SubElement(robot, "link", name=model.names[0])
    for i in range(1, model.NB + 1):
        body = model.names[i]
        _inertial(ET.SubElement(robot, "link", name=body), model.inertia[i])
        jtype, axis = _joint_type(model.joints[i], body)
        joint_name = joint_names[i] if joint_names is not None else f"joint{i}"
        joint = ET.SubElement(robot, "joint", name=joint_name, type=jtype)
        E, r = unplux(model.X_tree[i])
        ET.SubElement(joint, "origin", xyz=_text(r), rpy=_text(matrix_to_rpy(E.T)[::-1]))
        ET.SubElement(joint, "parent", link=model.names[model.parent[i]])
        ET.SubElement(joint, "child", link=body)
        if axis is not None:
            ET.SubElement(joint, "axis", xyz=_text(axis))
        if jtype == "prismatic":
            ET.SubElement(joint, "limit", lower="-1e3", upper="1e3", effort="1e9", velocity="1e9")
    ET.indent(robot)
    return ET.tostring(robot, encoding="unicode") + "\n"
