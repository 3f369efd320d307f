"""The conventions every rotation parameterization shares (Sueda §1.1, Featherstone eq. 4.12).

Two matrices describe the same orientation and the package uses both, so it helps to fix names:

* the *active* rotation ``R`` maps the coordinates of a vector in the rotated (body) frame to
  its coordinates in the base frame, ``v_base = R v_body`` (Sueda eq. 1.1).  Every rotation
  matrix in :mod:`spatial.rotations` is an ``R``;
* the *coordinate* rotation ``E = Rᵀ`` maps base coordinates to body coordinates.  It is the
  ``E`` of Featherstone's Plücker transforms (:func:`spatial.rx` and friends, eq. 2.24), and
  his quaternion formula eq. 4.12 gives ``E``, not ``R``.

An angular velocity ``ω`` can be given in body coordinates (``Ṙ = R [ω]``, Sueda eq. 1.9) or in
base coordinates (``Ṙ = [ω] R``).  The two differ by ``R`` and mixing them up is a classic bug,
so every function whose formula depends on the choice takes a ``frame`` argument, checked here.
"""

from __future__ import annotations

__all__: list[str] = []  # only the private check below, for the modules of this package


def _frame_arg(frame: str) -> str:
    """``frame`` itself if it is ``"body"`` or ``"base"``; ``ValueError`` naming it otherwise."""
    if frame not in ("body", "base"):
        raise ValueError(f"frame must be 'body' or 'base', got {frame!r}")
    return frame
