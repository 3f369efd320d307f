"""Package-level promises: light import, stated conventions, lazy optional modules."""

import subprocess
import sys

import spatial


def _run(code: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_import_loads_no_plotting_or_widget_library():
    out = _run(
        "import sys, spatial; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('matplotlib', 'ipywidgets', 'IPython')))"
    )
    assert out == "[]"


def test_conventions_are_stated_in_the_package_docstring():
    doc = spatial.__doc__
    phrases = ("angular part first", "X_BA", "scalar first", "Ad(T_AB) == X_AB", "9.81")
    phrases += ("Sueda writes E for this 4x4 frame", "``0`` is the fixed base/world")
    for phrase in phrases:
        assert phrase in doc


def test_lazy_submodules_resolve_and_unknown_names_raise():
    assert spatial.nb.setup is not None
    try:
        spatial.no_such_thing  # noqa: B018
    except AttributeError as err:
        assert "no_such_thing" in str(err)
    else:
        raise AssertionError("unknown attribute did not raise")
