"""Attachments and the order in which they are eliminated (ArtiSynth notes §0.17–0.18).

A component ``k`` (a particle, a rigid body, a node of a mass-spring element) is *attached* when
its velocity is a fixed linear function of the velocities of its masters::

    v_k = Σ_j G_kj v_j + g_k.

The notes write the same relation with the opposite sign, ``v_k + G_kα v_α = 0`` (eq. 0.18, and
``g_β`` on the right of eq. 0.19), so their ``G`` is minus ours; the package keeps the plus sign
because it is the way a Jacobian is usually read (``G_kj`` is ``∂v_k/∂v_j``).  The offset ``g_k``
is zero at the velocity level for a constant ``G``; at the acceleration level it is the
velocity-product term ``Ġ v`` (§0.19).

Masters may be attached themselves (§0.18).  The attachments then form a directed graph, edge
``k → j`` for every master ``j`` of ``k``, and it must have no cycle: a component cannot, through
a chain of attachments, depend on itself.  The notes eliminate the attachments one at a time
starting with components that nothing else is attached to, so that every elimination meets the
simple block pattern of eq. 0.25; recovering the velocities goes the other way, masters first.
:class:`Attachments` checks the graph once and computes such an order; any other order in which
every component comes before the attached masters it hangs on is just as valid (the tests
compare them).

This module holds only the data and the graph.  The algebra of the reduction is in
:mod:`spatial.attachments.reduction`, the attachments of points and frames to rigid bodies in
:mod:`spatial.attachments.bodies`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .._validate import integer, integers, real

__all__ = ["Attachment", "Attachments", "attach", "weighted_point"]

WEIGHT_TOL = 1e-12


@dataclass(frozen=True)
class Attachment:
    """``v_k = Σ_j G_kj v_j + g_k``: component ``k`` follows its masters (ArtiSynth eq. 0.18).

    Build it with :func:`attach`, :func:`weighted_point` or the rigid-body helpers of
    :mod:`spatial.attachments.bodies`, which check their input.

    Attributes
    ----------
    component : int
        The attached component ``k`` (an index into the components' sizes).
    masters : tuple of int
        Its masters ``j``.
    blocks : tuple of ndarray
        ``G_kj`` (``n_k x n_j``), one per master.
    offset : ndarray or None
        ``g_k`` (``n_k``), ``None`` for zero.
    name : str
        Used in error messages.
    """

    component: int
    masters: tuple
    blocks: tuple
    offset: np.ndarray | None
    name: str

    def with_offset(self, offset) -> Attachment:
        """The same attachment with the offset ``g_k`` replaced (e.g. ``Ġ v`` of a state)."""
        return Attachment(self.component, self.masters, self.blocks, offset, self.name)


def _index(x, what: str, name: str) -> int:
    return integer(x, f"attachment {name!r}: {what}")


def attach(component, masters: Mapping, offset=None, name: str | None = None) -> Attachment:
    """An attachment ``v_k = Σ_j G_kj v_j + g_k`` from a mapping ``{master j: G_kj}``.

    Parameters
    ----------
    component : int
        The attached component ``k``.
    masters : mapping of int to array_like, shape (n_k, n_j)
        Each master and its block ``G_kj``.
    offset : array_like, shape (n_k,), optional
        ``g_k``.
    name : str, optional
        Default ``"k->j1,j2"``.

    Returns
    -------
    Attachment

    Raises
    ------
    ValueError
        If an index is not an integer, there is no master, a block is not a real finite 2-D array,
        the blocks have different numbers of rows, or the offset does not match them.
    """
    label = name
    if label is None:
        label = f"{component}->" + ",".join(str(j) for j in dict(masters))
    k = _index(component, "the attached component", label)
    if not isinstance(masters, Mapping) or not masters:
        raise ValueError(f"attachment {label!r}: needs at least one master {{index: G_kj}}")
    js, blocks = [], []
    for j, G in masters.items():
        js.append(_index(j, "a master", label))
        G = np.array(real(G, f"attachment {label!r}: G for master {j}"), dtype=float)
        if G.ndim != 2 or not np.all(np.isfinite(G)):
            raise ValueError(f"attachment {label!r}: G for master {j} must be a finite 2-D array")
        blocks.append(G)
    rows = {G.shape[0] for G in blocks}
    if len(rows) != 1:
        raise ValueError(f"attachment {label!r}: the blocks G_kj have different row counts {rows}")
    if offset is not None:
        offset = np.array(real(offset, f"attachment {label!r}: offset"), dtype=float)
        if offset.shape != (blocks[0].shape[0],) or not np.all(np.isfinite(offset)):
            raise ValueError(
                f"attachment {label!r}: offset must be finite of shape ({blocks[0].shape[0]},), "
                f"got {offset.shape}"
            )
    return Attachment(k, tuple(js), tuple(blocks), offset, label)


def weighted_point(component, masters: Sequence, weights, dim: int = 3, name=None) -> Attachment:
    """A point that moves with a weighted average of points: ``v_k = Σ_j w_j v_j``, ``Σ w_j = 1``.

    A point on a segment between two particles, or a node embedded in a mass-spring element
    (ArtiSynth §0.18, the example after eq. 0.35).  The weights must sum to one: only then does
    the point follow a rigid translation of its masters.

    Parameters
    ----------
    component : int
    masters : sequence of int
    weights : array_like, shape (len(masters),)
    dim : int
        Size of every component's velocity (3 for points in space).
    name : str, optional

    Returns
    -------
    Attachment

    Raises
    ------
    ValueError
        If the weights do not match the masters, are complex, not finite or do not sum to one,
        or ``dim`` is not a positive integer.
    """
    masters = list(masters)
    label = name or f"{component}->" + ",".join(str(j) for j in masters)
    w = np.array(real(weights, f"attachment {label!r}: weights"), dtype=float)
    dim = integer(dim, "dim", minimum=1)
    if w.shape != (len(masters),) or not np.all(np.isfinite(w)):
        raise ValueError(
            f"attachment {label!r}: needs one finite weight per master ({len(masters)}), "
            f"got {np.shape(weights)}"
        )
    if abs(w.sum() - 1.0) > WEIGHT_TOL:
        raise ValueError(
            f"attachment {label!r}: the weights of a point attachment must sum to 1, "
            f"they sum to {w.sum():.15g}"
        )
    if len(set(masters)) != len(masters):
        raise ValueError(f"attachment {label!r}: a master is listed twice")
    blocks = {j: wj * np.eye(dim) for j, wj in zip(masters, w, strict=True)}
    return attach(component, blocks, name=label)


class Attachments:
    """Components of given velocity sizes and the attachments among them, checked once.

    Parameters
    ----------
    sizes : sequence of int
        Velocity size ``n_i`` of every component ``i = 0 … n-1`` (3 for a particle, 6 for a
        rigid body).
    attachments : sequence of Attachment
    order : sequence of int, optional
        The elimination order as positions in ``attachments``.  It must be topological: an
        attachment comes before the attachments of its masters (§0.18).  Default: one such order.

    Attributes
    ----------
    sizes : tuple of int
    attachments : tuple of Attachment
    order : tuple of int
        Elimination order (positions in ``attachments``); recovery runs it backwards.
    attached : tuple of int
        The attached components, in elimination order.
    active : tuple of int
        The components that are not attached, ascending (the reduced system's unknowns).
    slices : tuple of slice
        Where each component sits in the stacked vector (sizes in order).
    active_slices : dict
        Where each active component sits in the stacked reduced vector.

    Raises
    ------
    ValueError
        For a size that is not a positive integer (``3.7`` is not truncated to 3), and, naming
        the attachment: a component or master that does not exist, a component attached
        to itself or attached twice, a block whose shape is not ``n_k x n_j``, an attachment
        cycle, or an ``order`` that is not a valid elimination order.

    Examples
    --------
    A particle (component 2) midway between two particles: eliminating it couples its masters'
    masses (ArtiSynth §0.18).

    >>> import numpy as np
    >>> from spatial import attachments as at
    >>> att = at.Attachments([3, 3, 3], [at.weighted_point(2, [0, 1], [0.5, 0.5])])
    >>> att.active, att.attached
    ((0, 1), (2,))
    >>> at.reduce(att, np.diag([1.0] * 3 + [2.0] * 3 + [4.0] * 3)).M[::3, ::3]
    array([[2., 1.],
           [1., 3.]])
    """

    def __init__(self, sizes, attachments, order=None):
        self.sizes = integers(sizes, "sizes", minimum=1)  # no int() truncation of 3.7
        self.attachments = tuple(attachments)
        starts = np.concatenate([[0], np.cumsum(self.sizes)]).astype(int)
        self.slices = tuple(slice(a, b) for a, b in zip(starts[:-1], starts[1:], strict=True))
        self.n = int(starts[-1])
        self._check_each()
        self.order = self._check_order(order) if order is not None else self._default_order()
        self.attached = tuple(self.attachments[i].component for i in self.order)
        self.active = tuple(i for i in range(len(self.sizes)) if i not in set(self.attached))
        offset, self.active_slices = 0, {}
        for i in self.active:
            self.active_slices[i] = slice(offset, offset + self.sizes[i])
            offset += self.sizes[i]
        self.n_active = offset

    def _check_each(self) -> None:
        count = len(self.sizes)
        seen: dict[int, str] = {}
        for a in self.attachments:
            if not isinstance(a, Attachment):
                raise ValueError(f"attachments must be Attachment objects, got {a!r}")
            if not 0 <= a.component < count:
                raise ValueError(
                    f"attachment {a.name!r}: component {a.component} does not exist "
                    f"(components 0 … {count - 1})"
                )
            if a.component in seen:
                raise ValueError(
                    f"attachment {a.name!r}: component {a.component} is already attached by "
                    f"{seen[a.component]!r}"
                )
            seen[a.component] = a.name
            for j, G in zip(a.masters, a.blocks, strict=True):
                if not 0 <= j < count:
                    raise ValueError(
                        f"attachment {a.name!r}: master {j} does not exist "
                        f"(components 0 … {count - 1})"
                    )
                if j == a.component:
                    raise ValueError(f"attachment {a.name!r}: component {j} is attached to itself")
                if G.shape != (self.sizes[a.component], self.sizes[j]):
                    raise ValueError(
                        f"attachment {a.name!r}: G for master {j} must have shape "
                        f"({self.sizes[a.component]}, {self.sizes[j]}), got {G.shape}"
                    )
        self._by_component = {a.component: i for i, a in enumerate(self.attachments)}

    def _dependents(self) -> dict[int, set[int]]:
        """For each attachment ``i``, the attachments that hang on ``i``'s component.

        They must be eliminated before ``i`` (§0.18).
        """
        users: dict[int, set[int]] = {i: set() for i in range(len(self.attachments))}
        for i, a in enumerate(self.attachments):
            for j in a.masters:
                if j in self._by_component:
                    users[self._by_component[j]].add(i)
        return users

    def _default_order(self) -> tuple:
        users = self._dependents()
        pending = {i: len(u) for i, u in users.items()}
        masters_of = {
            i: [self._by_component[j] for j in a.masters if j in self._by_component]
            for i, a in enumerate(self.attachments)
        }
        ready = [i for i, n in pending.items() if n == 0]
        order = []
        while ready:
            i = ready.pop(0)
            order.append(i)
            for m in masters_of[i]:
                pending[m] -= 1
                if pending[m] == 0:
                    ready.append(m)
        if len(order) < len(self.attachments):
            cycle = [self.attachments[i].name for i in pending if i not in order]
            raise ValueError(
                f"attachment cycle: attachments {cycle} depend on each other (the attachments "
                "must form a directed acyclic graph, ArtiSynth §0.18)"
            )
        return tuple(order)

    def _check_order(self, order) -> tuple:
        self._default_order()  # raises on a cycle
        order = integers(order, "order")
        if sorted(order) != list(range(len(self.attachments))):
            raise ValueError(f"order must be a permutation of 0 … {len(self.attachments) - 1}")
        users, done = self._dependents(), set[int]()
        for i in order:
            for u in users[i]:
                if u not in done:
                    raise ValueError(
                        f"attachment {self.attachments[i].name!r} is eliminated before "
                        f"{self.attachments[u].name!r}, which is attached to its component"
                    )
            done.add(i)
        return order

    def __repr__(self) -> str:
        return (
            f"Attachments({len(self.sizes)} components, n={self.n}, "
            f"{len(self.attachments)} attachments, {len(self.active)} active)"
        )
