"""Package-level promises: light import, stated conventions, lazy optional modules."""

import subprocess
import sys

import spatial


def _run(code: str) -> str:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_import_loads_no_plotting_widget_or_scipy_library():
    """``import spatial`` stays quick: SciPy, plotting and widgets load where they are used."""
    out = _run(
        "import sys, spatial; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('matplotlib', 'ipywidgets', 'IPython', 'scipy')))"
    )
    assert out == "[]"


def test_conventions_are_stated_in_the_package_docstring():
    doc = spatial.__doc__
    phrases = ("angular part first", "X_BA", "scalar first", "Ad(T_AB) == X_AB", "9.81")
    phrases += ("Sueda writes E for this 4x4 frame", "``0`` is the fixed base/world")
    phrases += ("How the package is organised", "the one system interface", "the one loop")
    for phrase in phrases:
        assert phrase in doc


def test_lazy_submodules_resolve_and_unknown_names_raise():
    assert spatial.nb.setup is not None
    for name in ("solvers", "forces", "maximal", "contact", "viz", "exercises"):
        assert getattr(spatial, name).__name__ == f"spatial.{name}" and name in dir(spatial)
    try:
        spatial.no_such_thing  # noqa: B018
    except AttributeError as err:
        assert "no_such_thing" in str(err)
    else:
        raise AssertionError("unknown attribute did not raise")


def test_no_function_level_import_of_the_package_dodges_a_layer():
    """Every import of a spatial module is at module level, where import-linter sees it.

    Functions may defer only heavy third-party imports (matplotlib, ipywidgets, IPython);
    ``spatial.maximal`` in particular imports the solvers at the top, not ``spatial.contact``
    inside a function.
    """
    import ast
    import pathlib

    root = pathlib.Path(spatial.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        for function in ast.walk(ast.parse(path.read_text())):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom) and (
                    node.level > 0 or (node.module or "").startswith("spatial")
                ):
                    found.append(f"{path.relative_to(root)}:{node.lineno}")
                elif isinstance(node, ast.Import) and any(
                    a.name.startswith("spatial") for a in node.names
                ):
                    found.append(f"{path.relative_to(root)}:{node.lineno}")
    assert found == []
