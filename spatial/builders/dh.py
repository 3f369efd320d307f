"""Geometry from Denavit–Hartenberg parameters (Featherstone §4.3).

For an unbranched chain whose joints each have an axis, Denavit and Hartenberg place the link
frames so that four numbers per joint locate each frame relative to the previous one: ``z_i``
lies on joint ``i``'s axis, ``x_{i-1}`` is the common perpendicular from ``z_{i-1}`` to ``z_i``, and

* ``a_i``, ``α_i``: the distance and angle from ``z_{i-1}`` to ``z_i``, along and about ``x_{i-1}``;
* ``d_i``, ``θ_i``: the distance and angle from ``x_{i-1}`` to ``x_i``, along and about ``z_i``.

``θ_i`` is the variable of a revolute joint and ``d_i`` of a prismatic one; the rest are
constants.  The book turns the constants into tree transforms ``X_T(i) = xlt([a_i, 0, d_i])
rotx(α_i)``, with the base frame's placement appended for ``i = 1``
(:func:`dh_transforms`), and :func:`from_dh` builds the chain.
"""

from __future__ import annotations

import numpy as np

from .. import joints as J
from .._validate import as_scalar_array
from ..inertia import mcI
from ..model import Model
from ..vectors import rotx, rotz, xlt

__all__ = ["dh_transforms", "from_dh"]


def dh_transforms(a, alpha, d, theta, base_d: float = 0.0, base_theta: float = 0.0) -> np.ndarray:
    """Tree transforms ``X_T(i)`` of an unbranched chain from DH parameters (Featherstone §4.3).

    With the book's convention (Siciliano–Khatib): ``a_i`` and ``α_i`` are the distance and
    angle from ``z_{i-1}`` to ``z_i`` along/about ``x_{i-1}``; ``d_i`` and ``θ_i`` the
    distance and angle from ``x_{i-1}`` to ``x_i`` along/about ``z_i``.  Joint ``i`` moves
    along/about ``z_i``, so the joint transform supplies the variable part and

    ``X_T(i) = rotz(θ_i) xlt([a_i, 0, d_i]) rotx(α_i)``,

    where ``θ_i`` and ``d_i`` here are constant *offsets* (zero in the book's formula, in
    which the joint variable is the whole ``θ_i`` of a revolute or ``d_i`` of a prismatic
    joint; ``rotz`` and a translation along z commute with the joint's own motion, so an
    offset can sit in ``X_T``).  For ``i = 1`` the base-frame placement
    ``rotz(θ₀) xlt([0, 0, d₀])`` is appended on the right, as in the book.

    Parameters
    ----------
    a, alpha, d, theta : array_like, shape (n,)
    base_d, base_theta : float
        ``d₀`` and ``θ₀`` locating ``x₀`` relative to the base frame.

    Returns
    -------
    ndarray, shape (n, 6, 6)

    Raises
    ------
    ValueError
        If the four arrays are not finite 1-D arrays of the same length ≥ 1.
    """
    params = [
        as_scalar_array(p, name)
        for p, name in zip((a, alpha, d, theta), ("a", "alpha", "d", "theta"), strict=True)
    ]
    if (
        any(p.ndim != 1 for p in params)
        or len({p.shape for p in params}) != 1
        or params[0].size == 0
    ):
        raise ValueError(
            "a, alpha, d and theta must be 1-D arrays of the same length ≥ 1, got shapes "
            f"{[p.shape for p in params]}"
        )
    a, alpha, d, theta = params
    zeros = np.zeros_like(a)
    X = rotz(theta) @ xlt(np.stack([a, zeros, d], -1)) @ rotx(alpha)
    X[0] = X[0] @ rotz(base_theta) @ xlt([0.0, 0.0, float(as_scalar_array(base_d, "base_d"))])
    return X


def from_dh(
    a,
    alpha,
    d,
    theta,
    joint_types="R",
    inertias=None,
    base_d: float = 0.0,
    base_theta: float = 0.0,
    gravity=(0.0, 0.0, -9.81),
) -> Model:
    """Unbranched chain from DH parameters (Featherstone §4.3); see :func:`dh_transforms`.

    Parameters
    ----------
    a, alpha, d, theta : array_like, shape (n,)
        DH parameters; for each joint, the entry that is its variable (``θ_i`` of a revolute,
        ``d_i`` of a prismatic joint) is a constant offset added to the variable.
    joint_types : str or sequence of str
        ``"R"`` (revolute about ``z_i``) or ``"P"`` (prismatic along ``z_i``), one per joint,
        or a single letter for all joints.
    inertias : sequence of array_like (6, 6), optional
        Link inertias in DH link coordinates.  Default: 1 kg with rotational inertia
        ``0.01·1`` kg m² about the link frame's origin (a placeholder for kinematics).
    base_d, base_theta : float
        Placement of ``x₀`` relative to the base frame.
    gravity : array_like, shape (3,)

    Returns
    -------
    Model

    Raises
    ------
    ValueError
        If the parameters are inconsistent (see :func:`dh_transforms`), a joint type is not
        ``"R"``/``"P"``, or the number of joint types or inertias differs from ``n``.
    """
    X_T = dh_transforms(a, alpha, d, theta, base_d, base_theta)
    n = len(X_T)
    types = (
        [joint_types] * n
        if isinstance(joint_types, str) and len(joint_types) == 1
        else list(joint_types)
    )
    if len(types) != n or any(t not in ("R", "P") for t in types):
        raise ValueError(
            f"joint_types must be 'R'/'P' (one, or one per joint: {n}), got {joint_types!r}"
        )
    if inertias is None:
        inertias = [mcI(1.0, np.zeros(3), 0.01 * np.eye(3))] * n
    if len(inertias) != n:
        raise ValueError(f"inertias must have one entry per joint ({n}), got {len(inertias)}")
    model = Model(gravity=gravity)
    for i in range(1, n + 1):
        joint = J.Revolute("z") if types[i - 1] == "R" else J.Prismatic("z")
        model.add_body(i - 1, joint, X_T[i - 1], inertias[i - 1], name=f"link{i}")
    return model
