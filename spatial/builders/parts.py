"""Link inertias and argument checks shared by the model builders.

Most mechanisms in this package are made of a few standard parts, and writing their inertias
once keeps the builders short and consistent:

* a uniform solid rod from the body origin along a direction (``_rod``): the moments of a solid
  cylinder about its centre (:func:`spatial.cylinder_inertia`, Sueda §1.7), turned so that its
  axis is ``a``, ``I_c = I_⊥ (1 - a aᵀ) + I_∥ a aᵀ``, and shifted so that the rod starts at the
  origin (Featherstone eq. 2.63);
* the same rod between two arbitrary points of the body (``_bar``), moved there with
  :func:`spatial.inv_transform_inertia` (eq. 2.66);
* a pendulum bob (``_bob``): a point mass, whose inertia is singular but fine for the tree
  algorithms, or a solid sphere.

(The number of bodies a builder takes is checked by :func:`spatial._validate.integer`.)
"""

from __future__ import annotations

import numpy as np

from ..inertia import cylinder_inertia, mcI, point_mass_inertia, sphere_inertia
from ..joints import axis_vector
from ..se3 import frame
from ..vectors import inv_transform_inertia, xlt

__all__: list[str] = []  # private helpers for the builder modules of this package


def _rod(m: float, length: float, direction, radius: float | None = None) -> np.ndarray:
    """Uniform solid cylinder (radius ``length/20`` by default) from the origin along ``direction``.

    The moments about the centre come from :func:`~spatial.inertia.cylinder_inertia`; the
    rotational inertia is ``I_⊥ (1 - a aᵀ) + I_∥ a aᵀ`` about the axis ``a``.
    """
    a = axis_vector(direction)
    radius = length / 20.0 if radius is None else radius
    I_perp, _, I_axial = np.diag(cylinder_inertia(m, radius, length))[:3]
    aa = np.outer(a, a)
    return mcI(m, 0.5 * length * a, I_perp * (np.eye(3) - aa) + I_axial * aa)


def _bob(mass: float, position, radius: float) -> np.ndarray:
    """A point mass (``radius = 0``) or a solid sphere centred at ``position``."""
    if radius == 0:
        return point_mass_inertia(mass, position)
    return sphere_inertia(mass, radius, frame(np.eye(3), position))


def _bar(m: float, start, end) -> np.ndarray:
    """Uniform rod (as :func:`_rod`) from ``start`` to ``end``, in body coordinates."""
    start, d = np.asarray(start, float), np.asarray(end, float) - np.asarray(start, float)
    length = float(np.linalg.norm(d))
    return inv_transform_inertia(xlt(start), _rod(m, length, d / length))
