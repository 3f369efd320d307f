"""Points and frames on rigid bodies: added inertia and fictitious forces (ArtiSynth §0.19).

A particle of mass ``m`` fixed at the point ``c`` of a rigid body (body coordinates) moves with
the world velocity ``v_p = R (v + ω × c) = R Γ(c) φ``, where ``φ = [ω; v]`` is the body twist of
the package's maximal coordinates (angular first; the notes write ``(v, ω)`` and ``v_p = R v -
R c × ω``, eq. 0.36) and ``Γ(c) = [[c]ᵀ, 1]`` is Sueda's material Jacobian
(:func:`spatial.se3.material_jacobian`, Sueda eq. 1.12).  So the attachment block is
``G = R Γ(c)`` (3 x 6).

Eliminating the particle (eq. 0.21 with no mass coupling) adds ``m Gᵀ G = m Γᵀ Γ`` to the body's
inertia: the rotation drops out, and ``m Γᵀ Γ = [[-m[c]², m[c]], [-m[c], m 1]]`` is the spatial
inertia of a point mass at ``c`` (Featherstone eq. 2.63 with no rotational inertia,
:func:`spatial.point_mass_inertia`).  The particle's acceleration is ``G φ̇ + Ġ φ`` with
``Ġ φ = R ω × (v + ω × c)`` (differentiate ``R (v + ω × c)`` with ``Ṙ = R[ω]``), and eq. 0.23
turns this offset into the force ``-m Γᵀ (ω × (v + ω × c))`` on the body: the *fictitious*
velocity-product force of the point mass, which is ``-φ ×* (I_p φ)``, what the Newton–Euler
equations (and Featherstone's RNEA, Table 5.1) give for the body with the point's inertia added.
The notes do the same derivation in their order and signs (§0.19).

Sueda §2.7 rides mass-spring nodes on the bodies of a kinematic tree with the same block
(``J_am = R Γ(r)``, eq. 2.87, :mod:`spatial.reduced.deformable`): an attached node is not a
coordinate there either, and its mass enters as ``J_MRᵀ M_M J_MR`` (eq. 2.92), which is ``Tᵀ M T``
of the reduction with the tree's Jacobian folded in (the tests compare the two).

A frame (a second rigid body) fixed to a body by the constant transform ``X = T_parent,child``
has the twist ``φ_child = Ad(X⁻¹) φ_parent`` (Sueda eq. 1.15), a constant ``G`` and no offset;
eliminating it adds ``Ad(X⁻¹)ᵀ M_child Ad(X⁻¹)`` to the parent's inertia, the composite inertia
of the two bodies (Featherstone §2.13 and the composite-rigid-body step of CRBA, Table 6.2).
"""

from __future__ import annotations

import numpy as np

from .._batched import skew_matrix
from .._validate import as_array, positive_scalar, require_rotation
from ..se3 import Ad, _as_frame, frame_inverse, material_jacobian
from .graph import Attachment, attach

__all__ = [
    "point_on_body",
    "point_bias",
    "added_inertia",
    "fictitious_force",
    "frame_on_body",
]


def _gamma(c: np.ndarray) -> np.ndarray:
    """``Γ(c) = [[c]ᵀ, 1]`` without validation."""
    G = np.zeros(c.shape[:-1] + (3, 6))
    G[..., :, :3] = -skew_matrix(c)
    G[..., :, 3:] = np.eye(3)
    return G


def _point_velocity(c: np.ndarray, phi: np.ndarray) -> np.ndarray:
    """``v + ω × c`` in body coordinates."""
    return phi[..., 3:] + np.cross(phi[..., :3], c)


def point_on_body(point, body, c, R=None, name: str | None = None) -> Attachment:
    """A point (particle) fixed at ``c`` on a rigid body: ``v_p = R Γ(c) φ`` (ArtiSynth eq. 0.36).

    Parameters
    ----------
    point, body : int
        Component indices of the particle (3 world velocity components) and of the body (its
        body twist ``[ω; v]``).
    c : array_like (3,)
        The point in body coordinates.
    R : array_like (3, 3), optional
        The body's rotation (body to world); identity if not given.
    name : str, optional

    Returns
    -------
    Attachment

    Raises
    ------
    ValueError
        If ``c`` or ``R`` is malformed.
    """
    c = as_array(c, "c", (3,))
    G = material_jacobian(c)
    if R is not None:
        R = as_array(R, "R", (3, 3))
        require_rotation(R, "R")
        G = R @ G
    return attach(point, {body: G}, name=name or f"point {point} on body {body}")


def point_bias(c, phi, R=None) -> np.ndarray:
    """``Ġ φ = R ω × (v + ω × c)``: the particle's acceleration when the body's ``φ̇ = 0``.

    The offset ``g`` of the acceleration-level attachment ``a_p = G φ̇ + g`` (ArtiSynth §0.19).

    Parameters
    ----------
    c : array_like (3,)
    phi : array_like (6,)
        Body twist ``[ω; v]``.
    R : array_like (3, 3), optional
        The body's rotation (body to world coordinates).

    Returns
    -------
    ndarray (3,)

    Raises
    ------
    ValueError
        If ``c`` or ``phi`` has the wrong shape or is not finite, or ``R`` is not a rotation.
    """
    c, phi = as_array(c, "c", (3,)), as_array(phi, "phi", (6,))
    b = np.cross(phi[..., :3], _point_velocity(c, phi))
    if R is None:
        return b
    R = as_array(R, "R", (3, 3))
    require_rotation(R, "R")
    return R @ b


def added_inertia(m, c) -> np.ndarray:
    """``m Γ(c)ᵀ Γ(c)``: what eliminating a particle at ``c`` adds to the body's inertia (eq. 0.21).

    Parameters
    ----------
    m : float
        Particle mass, > 0.
    c : array_like (3,)

    Returns
    -------
    ndarray (6, 6)
        Equal to :func:`spatial.point_mass_inertia` ``(m, c)``.
    """
    m = positive_scalar(m, "m")
    G = _gamma(as_array(c, "c", (3,)))
    return m * np.swapaxes(G, -1, -2) @ G


def fictitious_force(m, c, phi) -> np.ndarray:
    """``-m Γ(c)ᵀ (ω × (v + ω × c))``: velocity-product force of an attached particle (eq. 0.23).

    In body coordinates, added to the body's force (the rotation ``R`` cancels).  It equals
    ``-φ ×* (I_p φ)`` for the point inertia ``I_p``: the bias force of the Newton–Euler
    equations (Featherstone eq. 2.64, RNEA Table 5.1) of the point mass riding on the body.

    Parameters
    ----------
    m : float
    c : array_like (3,)
    phi : array_like (6,)

    Returns
    -------
    ndarray (6,)
    """
    m = positive_scalar(m, "m")
    c, phi = as_array(c, "c", (3,)), as_array(phi, "phi", (6,))
    a = np.cross(phi[..., :3], _point_velocity(c, phi))
    return -m * (np.swapaxes(_gamma(c), -1, -2) @ a[..., None])[..., 0]


def frame_on_body(child, parent, X, name: str | None = None) -> Attachment:
    """A rigid body fixed to another by ``X = T_parent,child``: ``φ_child = Ad(X⁻¹) φ_parent``.

    Eliminating it makes the two bodies one composite body (Featherstone §2.13).

    Parameters
    ----------
    child, parent : int
        Component indices of the two bodies (6 velocity components each).
    X : array_like (4, 4)
        The child's frame in the parent's coordinates.
    name : str, optional

    Returns
    -------
    Attachment
    """
    X = _as_frame(X, "X")
    if X.shape != (4, 4):
        raise ValueError(f"X must be a single 4x4 frame, got shape {X.shape}")
    return attach(
        child, {parent: Ad(frame_inverse(X))}, name=name or f"frame {child} on body {parent}"
    )
