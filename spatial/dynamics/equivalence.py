"""Dynamic equivalence: inertia changes that leave the equation of motion unchanged (§9.7).

Two bodies joined by a joint can trade a spatial inertia ``I_Δ`` — add it to the predecessor,
subtract it from the successor — without changing the equation of motion, provided ``I_Δ``
(expressed in the joint frames) satisfies Featherstone eq. 9.30 at every joint position and
every velocity:

* ``I_Δ S = 0`` — the joint's own motion does not feel it;
* ``X_Jᵀ I_Δ X_J = I_Δ`` — it looks the same from both sides whatever the joint position;
* ``Sᵀ (v ×* I_Δ v) = 0`` — it adds no velocity-product force along the joint.

Physically ``I_Δ`` is a piece of mass distribution that stays put relative to both bodies
whatever the joint does, so it does not matter which body carries it.  Table 9.7 lists:

* revolute joint (axis ``a``): particles on the axis — mass ``m``, first moment ``m c_a``
  along the axis and a rotational inertia ``I (1 - a aᵀ)`` (:func:`revolute_delta`);
* prismatic joint: a pure rotational inertia ``[[Ī, 0], [0, 0]]`` (:func:`prismatic_delta`);
* spherical joint: a particle at the centre of rotation (:func:`spherical_delta`).

By the same conditions (checked in the tests), an axisymmetric pure rotational inertia
``I (1 - a aᵀ)`` suits helical and cylindrical joints about ``a`` and planar joints (``a = z``)
(:func:`axial_delta`), and a fixed joint can move a whole inertia.  :func:`best_match` picks the
``I_Δ`` that zeroes as many of a body's inertia parameters as possible, and
:func:`simplify_inertias` runs the book's leaves-to-root procedure over a whole model; the
simplified bodies may have non-physical inertias (negative mass), which the RNEA does not
mind but algorithms that invert body inertias do.
"""

from __future__ import annotations

import copy

import numpy as np

from .._validate import as_array, as_scalar_array
from ..joints import (
    Cylindrical,
    Fixed,
    Helical,
    Joint,
    Planar,
    Prismatic,
    Reversed,
    Revolute,
    Spherical,
    SphericalYPR,
    axis_vector,
)
from ..model import Model
from ..vectors import skew, unskew

__all__ = [
    "revolute_delta",
    "prismatic_delta",
    "spherical_delta",
    "axial_delta",
    "best_match",
    "apply_inertia_delta",
    "simplify_inertias",
]


def _scalar(x, name: str) -> float:
    a = as_scalar_array(x, name)
    if a.shape != ():
        raise ValueError(f"{name} must be a single number, got shape {a.shape}")
    return float(a)


def revolute_delta(mass, first_moment, inertia, axis="z") -> np.ndarray:
    """``I_Δ`` for a revolute joint: point masses on its axis (Featherstone Table 9.7, row 1).

    Particles on the rotation axis coincide in both bodies whatever the joint angle.  Their
    inertia about the joint origin has mass ``m``, first moment ``h = m c_a`` along the axis
    (``c_a``: position of their centre of mass on the axis) and rotational inertia
    ``I (1 - a aᵀ)`` (no moment about the axis itself):

    ``I_Δ = [[I (1 - a aᵀ), (h a)×], [(h a)×ᵀ, m 1]]``.

    For ``a = z`` this is the table's matrix.  Any ``m``, ``h``, ``I`` satisfy eq. 9.30, not
    only those of real particles (``I ≥ h²/m``).

    Parameters
    ----------
    mass : float
        ``m``.
    first_moment : float
        ``h = m c_a`` (kg m).
    inertia : float
        ``I`` (kg m²).
    axis : {"x", "y", "z"} or array_like, shape (3,)
        The joint axis (as :class:`~spatial.joints.Revolute`).

    Returns
    -------
    ndarray, shape (6, 6)
        In the joint's frames (the successor body's coordinates).

    Raises
    ------
    ValueError
        If a parameter is not a finite number or the axis is invalid.
    """
    a = axis_vector(axis)
    m, h, I = (
        _scalar(x, n)
        for x, n in ((mass, "mass"), (first_moment, "first_moment"), (inertia, "inertia"))
    )
    out = np.zeros((6, 6))
    out[:3, :3] = I * (np.eye(3) - np.outer(a, a))
    out[:3, 3:] = skew(h * a)
    out[3:, :3] = out[:3, 3:].T
    out[3:, 3:] = m * np.eye(3)
    return out


def prismatic_delta(rotational_inertia) -> np.ndarray:
    """``I_Δ`` for a prismatic joint: a pure rotational inertia (Featherstone Table 9.7, row 2).

    A "disembodied" rotational inertia has no mass, so translating it changes nothing; since a
    prismatic joint never rotates its bodies relative to each other, any symmetric ``Ī`` works:
    ``I_Δ = [[Ī, 0], [0, 0]]``.

    Parameters
    ----------
    rotational_inertia : array_like, shape (3, 3)
        Symmetric ``Ī``.

    Returns
    -------
    ndarray, shape (6, 6)

    Raises
    ------
    ValueError
        If ``rotational_inertia`` is not a finite symmetric 3x3 matrix.
    """
    Ibar = as_array(rotational_inertia, "rotational_inertia", (3, 3))
    if Ibar.shape != (3, 3) or np.abs(Ibar - Ibar.T).max() > 1e-12 * (1 + np.abs(Ibar).max()):
        raise ValueError("rotational_inertia must be a single symmetric 3x3 matrix")
    out = np.zeros((6, 6))
    out[:3, :3] = Ibar
    return out


def spherical_delta(mass) -> np.ndarray:
    """``I_Δ`` for a spherical joint: a particle at its centre (Featherstone Table 9.7, row 3).

    ``I_Δ = [[0, 0], [0, m 1]]``: a point mass at the centre of rotation is at the same place
    in both bodies whatever their relative orientation.

    Parameters
    ----------
    mass : float

    Returns
    -------
    ndarray, shape (6, 6)

    Raises
    ------
    ValueError
        If ``mass`` is not a finite number.
    """
    out = np.zeros((6, 6))
    out[3:, 3:] = _scalar(mass, "mass") * np.eye(3)
    return out


def axial_delta(inertia, axis="z") -> np.ndarray:
    """``I_Δ = [[I (1 - a aᵀ), 0], [0, 0]]`` for helical, cylindrical and planar joints.

    Not in Table 9.7, but it meets eq. 9.30 for every joint whose motion is rotation about
    ``a`` combined with any translation: a massless inertia is unaffected by translation, an
    axisymmetric one by rotation about ``a``, and it has no moment about ``a`` itself
    (``I_Δ S = 0``).  The revolute case with ``m = h = 0`` (:func:`revolute_delta`).

    Parameters
    ----------
    inertia : float
        ``I`` (kg m²).
    axis : {"x", "y", "z"} or array_like, shape (3,)
        The joint's rotation axis (``z`` for :class:`~spatial.joints.Planar`).

    Returns
    -------
    ndarray, shape (6, 6)

    Raises
    ------
    ValueError
        If ``inertia`` is not a finite number or the axis is invalid.
    """
    return revolute_delta(0.0, 0.0, inertia, axis)


def _perpendicular_moment(I_O: np.ndarray, a: np.ndarray) -> float:
    """``uᵀ I_O u`` for a unit ``u ⊥ a`` built from the coordinate axis most orthogonal to ``a``.

    For ``a = z`` this is ``I_xx``, so subtracting ``I (1 - a aᵀ)`` with this ``I`` zeroes it.
    """
    e = np.eye(3)[int(np.argmin(np.abs(a)))]
    u = e - a * (a @ e)
    u /= np.linalg.norm(u)
    return float(u @ I_O @ u)


def best_match(joint: Joint, inertia) -> np.ndarray:
    """The ``I_Δ`` for ``joint`` that zeroes the most parameters of ``inertia - I_Δ`` (§9.7).

    The ``best_match`` of the book's simplification procedure.  With ``m``, ``h = m c`` and
    ``I_O`` (rotational inertia about the frame origin) the parameters of ``inertia``:

    * revolute (axis ``a``): ``revolute_delta(m, h·a, uᵀ I_O u, a)`` — zeroes the mass, the
      first moment along the axis and one moment perpendicular to it (``I_xx`` for ``z``);
    * prismatic: ``prismatic_delta(I_O)`` — zeroes the six rotational parameters;
    * spherical (either parameterization): ``spherical_delta(m)`` — zeroes the mass;
    * helical, cylindrical (axis ``a``), planar (``a = z``): ``axial_delta(uᵀ I_O u, a)``;
    * fixed: the whole ``inertia`` (the body is welded to its parent);
    * any other joint (free, rack-and-pinion, …): zero.

    A :class:`~spatial.joints.Reversed` joint moves the same relative motion, so it gets the
    wrapped joint's ``I_Δ``.

    Parameters
    ----------
    joint : Joint
    inertia : array_like, shape (6, 6)
        The successor body's inertia, in its own (= the joint's successor frame) coordinates.

    Returns
    -------
    ndarray, shape (6, 6)

    Raises
    ------
    ValueError
        If ``joint`` is not a Joint or ``inertia`` is not a finite 6x6 matrix.
    """
    if not isinstance(joint, Joint):
        raise ValueError(f"joint must be a spatial.joints.Joint, got {joint!r}")
    I = as_array(inertia, "inertia", (6, 6))
    if I.shape != (6, 6):
        raise ValueError(f"inertia must be a single 6x6 matrix, got shape {I.shape}")
    while isinstance(joint, Reversed):
        joint = joint.joint
    m, I_O = I[3, 3], I[:3, :3]
    if isinstance(joint, Revolute):
        a = joint.axis
        h = unskew(I[:3, 3:])  # m c, from the m c× block (eq. 2.63)
        return revolute_delta(m, h @ a, _perpendicular_moment(I_O, a), a)
    if isinstance(joint, Prismatic):
        return prismatic_delta(I_O)
    if isinstance(joint, (Spherical, SphericalYPR)):
        return spherical_delta(m)
    if isinstance(joint, (Helical, Cylindrical, Planar)):
        a = np.array([0.0, 0.0, 1.0]) if isinstance(joint, Planar) else joint.axis
        return axial_delta(_perpendicular_moment(I_O, a), a)
    if isinstance(joint, Fixed):
        return I.copy()
    return np.zeros((6, 6))


def apply_inertia_delta(model: Model, i: int, I_delta) -> Model:
    """A copy of ``model`` with ``I_Δ`` ``+I_Δ`` to ``λ(i)``, ``-I_Δ`` to ``i``.

    ``I_Δ`` is given in the joint's frames; body ``i``'s frame is the joint's successor frame,
    and the parent receives it through the tree transform,
    ``I_λ(i) += X_T(i)ᵀ I_Δ X_T(i)``.  If ``λ(i) = 0`` the base absorbs it.  Whether the result
    is dynamically equivalent depends on ``I_Δ`` meeting eq. 9.30 for joint ``i``
    (:func:`best_match` and the ``*_delta`` functions do).  The new inertias are stored as
    they are: they may be non-physical (negative mass), which :meth:`Model.add_body` would
    reject.

    Parameters
    ----------
    model : Model
    i : int
        Joint (= successor body) number, ``1 … NB``.
    I_delta : array_like, shape (6, 6)

    Returns
    -------
    Model

    Raises
    ------
    ValueError
        If ``i`` is not a body number or ``I_delta`` is not a finite 6x6 matrix.
    """
    if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 1 <= i <= model.NB:
        raise ValueError(f"i must be a joint number in 1 … {model.NB}, got {i!r}")
    I_delta = as_array(I_delta, "I_delta", (6, 6))
    if I_delta.shape != (6, 6):
        raise ValueError(f"I_delta must be a single 6x6 matrix, got shape {I_delta.shape}")
    out = copy.deepcopy(model)
    _move(out, i, I_delta)
    return out


def _move(model: Model, i: int, I_delta: np.ndarray) -> None:
    """In place: ``I_i -= I_Δ``, ``I_λ(i) += X_T(i)ᵀ I_Δ X_T(i)`` (nothing if ``λ(i) = 0``)."""
    model.inertia[i] = model.inertia[i] - I_delta
    p = model.parent[i]
    if p != 0:
        model.inertia[p] = model.inertia[p] + model.X_tree[i].T @ I_delta @ model.X_tree[i]


def simplify_inertias(model: Model) -> Model:
    """A dynamically equivalent model with as many zero inertia parameters as possible (§9.7).

    The book's procedure: for ``i = N_B … 1``, ``I_Δ = best_match(jtype(i), I_i)``, subtract it
    from body ``i`` and add it to ``λ(i)`` (the fixed base absorbs what reaches it).  Because the
    loop runs from the leaves inwards, each body is simplified after its children have passed
    their share to it.  The equation of motion (``rnea``, ``crba``) is unchanged.

    Parameters
    ----------
    model : Model

    Returns
    -------
    Model
        A copy with modified (possibly non-physical) inertias.
    """
    out = copy.deepcopy(model)
    for i in range(model.NB, 0, -1):
        _move(out, i, best_match(out.joints[i], out.inertia[i]))
    return out
