"""Real robots of example-robot-data, or a builder's model standing in for them.

The chapters and their exercise checkers compute on real robots (the Panda arm, the Talos
humanoid, the Solo-12 and Go1 quadrupeds…) whose URDF files come with the ``robots`` extra (the
``example-robot-data`` package, installed by ``make setup``).  Without it, a builder's model of
the same kind is written to URDF and read back, so the same code runs, and says so.
"""

from __future__ import annotations

import importlib.metadata
import warnings
from collections.abc import Callable

from ..model import Model
from .read import load_urdf
from .write import to_urdf

__all__ = ["example_robot"]


def example_robot(name: str, stand_in: Callable[[], Model], *, quiet: bool = False, **load):
    """Load ``name`` from example-robot-data, or ``stand_in()`` through URDF when it is absent.

    Parameters
    ----------
    name : str
        The file name in example-robot-data, e.g. ``"panda.urdf"``.
    stand_in : callable
        A function of no arguments returning a :class:`~spatial.Model` (a builder).
    quiet : bool
        False (a notebook): print when the stand-in is used, and let :func:`load_urdf` warn
        about repaired inertias.  True (an exercise checker, which loads what the notebook
        already showed): neither.
    **load
        Passed to :func:`load_urdf` (``floating=True``, ``inertia="repair"``, …).

    Returns
    -------
    Model

    Raises
    ------
    FileNotFoundError
        If example-robot-data is installed but has no file called ``name``.
    """
    try:
        files = importlib.metadata.distribution("example-robot-data").files or []
    except importlib.metadata.PackageNotFoundError:
        if not quiet:
            print(
                f"example-robot-data is not installed: {stand_in.__name__}() stands in for {name}"
            )
        return load_urdf(to_urdf(stand_in()), **load)
    found = [f.locate() for f in files if f.name == name]
    if not found:
        raise FileNotFoundError(f"example-robot-data has no file {name!r}")
    with warnings.catch_warnings():
        if quiet:
            warnings.simplefilter("ignore")
        return load_urdf(found[0], **load)
