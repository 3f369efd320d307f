"""Write the book's API reference, ``notebooks/api/*.md``, from the package's ``__all__`` lists.

The reference has one page per layer of the package (README.md, "How the package is organised";
layer 6 is split in three pages, it is the largest), and on each page one section per module or
subpackage, with the module's docstring, the chapter(s) that teach it and every public name of
its ``__all__`` as a Sphinx autodoc entry (NumPy-style docstrings, read by napoleon).  A
subpackage is split further by the submodule that defines each name.

Every object is documented once, at its *canonical* name: the innermost documented module (or
subpackage) that defines it, e.g. ``spatial.dynamics.aba`` for ``sp.aba``.  A name re-exported
from elsewhere (``spatial.contact`` re-exports the solvers) is listed with a link to its entry,
and the API index lists what ``import spatial as sp`` offers (``sp.aba``, ...) the same way.
A name that only a submodule exports (``spatial.forces.bezier.QuinticBezierSpline``) is
documented under that submodule.

The pages are generated, never edited by hand: after changing an ``__all__``, run
``python tools/api_pages.py`` (``make api``); ``tests/test_book_pages.py`` checks that the pages
on disk are what this script writes and that every public name is documented.

How to link an entry from a notebook or a page: a plain Markdown link to the page with the
object's full name as the anchor, ``[sp.aba](api/dynamics.md#spatial.dynamics.aba)``.  In the
book it lands on the entry (``book/conf.py`` makes the entries Markdown link targets, and a
link to a missing entry fails the build); in JupyterLab it opens the page.  The role
``{py:func}`spatial.dynamics.aba``` works in the book only (JupyterLab shows it as typed).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
API = NOTEBOOKS / "api"


@dataclass(frozen=True)
class Page:
    """One page of the reference: a layer of the package, or part of one."""

    stem: str
    title: str
    layer: int
    intro: str
    modules: tuple[str, ...]


#: The pages in the order of the package's layers (README.md, "How the package is organised").
PAGES = (
    Page(
        "algebra",
        "Algebra: spatial vectors, rotations, SE(3), inertia",
        2,
        "Spatial vectors and Plücker transforms, planar vectors, rotations and quaternions, "
        "frames and twists on SE(3), spatial inertia, and the finite-difference checks every "
        "derivative of the package is tested with.",
        (
            "spatial.vectors",
            "spatial.planar",
            "spatial.rotations",
            "spatial.se3",
            "spatial.inertia",
            "spatial.checks",
        ),
    ),
    Page(
        "solvers-forces",
        "Solvers and forces",
        3,
        "Matrix-level solvers that know nothing about bodies (LCP, QP, mixed LCP, KKT systems, "
        "friction), and force models on body frames and twists, each with its stiffness and "
        "damping matrices.",
        ("spatial.solvers", "spatial.forces"),
    ),
    Page(
        "joints-model",
        "Joints and models",
        4,
        "The one joint library every formulation reads, and the kinematic tree of Featherstone's "
        "Table 4.3 with its loop joints.",
        ("spatial.joints", "spatial.model"),
    ),
    Page(
        "kinematics-builders",
        "Kinematics, builders and URDF",
        5,
        "Positions, velocities, Jacobians and energy of a tree; ready-made models; real robots "
        "from URDF files and back.",
        ("spatial.kinematics", "spatial.builders", "spatial.urdf"),
    ),
    Page(
        "dynamics",
        "Dynamics: Featherstone's recursive algorithms",
        6,
        "Inverse dynamics, the joint-space inertia matrix and its sparse factorizations, the "
        "articulated-body algorithm, hybrid and floating-base dynamics, gears, dynamic "
        "equivalence, articulated bodies with several handles, and the closed loops of "
        "Featherstone ch. 8.",
        ("spatial.dynamics", "spatial.dynamics.loops"),
    ),
    Page(
        "reduced",
        "REDMAX: reduced coordinates from maximal ones",
        6,
        "Sueda's part 2: the Jacobian from joint rates to body twists, the reduced equations of "
        "motion, joint springs with the implicit step, deformable coupling, constraints, the "
        "recursive algorithms, staggered projections and BISP.",
        ("spatial.reduced",),
    ),
    Page(
        "studies",
        "Studies of the algorithms: cost, accuracy, symbolic code",
        6,
        "Featherstone ch. 10 and App. A: operation counts, compact transforms and inertias, the "
        "symbolic executer, round-off and sensitivity; and the book's remaining items, the "
        "constrained body of §3.6–3.7 and the derivative formulae of Table 2.4.",
        (
            "spatial.cost",
            "spatial.compact",
            "spatial.symbolic",
            "spatial.accuracy",
            "spatial.timing",
            "spatial.constrained",
            "spatial.derivatives",
        ),
    ),
    Page(
        "simulation",
        "Systems, integrators and the simulation loop",
        7,
        "The one interface every formulation offers, the steppers the loop takes by name, and "
        "the one simulation loop with its one result type.",
        ("spatial.systems", "spatial.integrators", "spatial.simulation"),
    ),
    Page(
        "formulations",
        "Formulations on top: maximal coordinates, contact, attachments",
        8,
        "Bodies on SE(3) with joints and contact as constraint rows, contact geometry, impacts "
        "and contact stepping, and components attached to others.",
        ("spatial.maximal", "spatial.contact", "spatial.attachments"),
    ),
    Page(
        "teaching",
        "Teaching: drawings, notebook helpers, exercise checkers",
        9,
        "What the notebooks use around the algorithms: drawings and animations of models, the "
        "set-up, widget and checking helpers, and the reference checkers of the exercises.",
        ("spatial.viz", "spatial.nb", "spatial.exercises"),
    ),
)

#: The chapters that teach each module (README.md, "What is implemented"); the longest prefix
#: of a module's name decides.
CHAPTERS = {
    "spatial.vectors": ("01",),
    "spatial.planar": ("01",),
    "spatial.rotations": ("02",),
    "spatial.se3": ("02",),
    "spatial.inertia": ("03",),
    "spatial.checks": ("03",),
    "spatial.solvers": ("17",),
    "spatial.solvers.impulses": ("11", "17"),
    "spatial.forces": ("13",),
    "spatial.joints": ("04",),
    "spatial.joints.composite": ("04", "14"),
    "spatial.joints.euler_angles": ("04", "14"),
    "spatial.joints.exponential": ("04", "14"),
    "spatial.joints.spline": ("14",),
    "spatial.model": ("04", "06"),
    "spatial.kinematics": ("04",),
    "spatial.builders": ("04",),
    "spatial.builders.closed_loops": ("08",),
    "spatial.urdf": ("04", "05", "06", "07", "09", "11"),
    "spatial.dynamics": ("05", "06", "07", "09"),
    "spatial.dynamics.rnea": ("05",),
    "spatial.dynamics.crba": ("06",),
    "spatial.dynamics.sparse": ("06",),
    "spatial.dynamics.aba": ("07",),
    "spatial.dynamics.handles": ("07", "09"),
    "spatial.dynamics.hybrid": ("09",),
    "spatial.dynamics.floating": ("09",),
    "spatial.dynamics.gears": ("09",),
    "spatial.dynamics.equivalence": ("09",),
    "spatial.dynamics.loops": ("08",),
    "spatial.reduced": ("14", "15"),
    "spatial.reduced.jacobian": ("14",),
    "spatial.reduced.maximal_terms": ("14",),
    "spatial.reduced.redmax": ("14",),
    "spatial.reduced.implicit": ("14",),
    "spatial.reduced.deformable": ("14",),
    "spatial.reduced.constraints": ("15",),
    "spatial.reduced.constrained": ("15",),
    "spatial.reduced.products": ("15",),
    "spatial.reduced.recursive": ("15",),
    "spatial.reduced.inverse_inertia": ("15",),
    "spatial.reduced.staggered": ("15",),
    "spatial.reduced.bisp": ("15",),
    "spatial.cost": ("10",),
    "spatial.compact": ("10",),
    "spatial.symbolic": ("10",),
    "spatial.accuracy": ("10",),
    "spatial.timing": ("10",),
    "spatial.constrained": ("04b", "10"),
    "spatial.derivatives": ("10",),
    "spatial.systems": ("08", "12", "16"),
    "spatial.integrators": ("16",),
    "spatial.simulation": ("08", "12", "16"),
    "spatial.maximal": ("12",),
    "spatial.maximal.rigid_body": ("03", "12"),
    "spatial.contact": ("11",),
    "spatial.attachments": ("18",),
    "spatial.viz": ("04", "07"),
    "spatial.nb": ("01",),
    "spatial.exercises": (),
    **{f"spatial.exercises.ch{k:02d}": (f"{k:02d}",) for k in range(1, 19)},
}

GENERATED = (
    "<!-- Generated by tools/api_pages.py from the package's __all__ lists and docstrings: "
    "do not edit; run `python tools/api_pages.py` after changing an __all__. -->"
)


# --- what is public and where it is documented -------------------------------------------------


def public_modules() -> dict[str, types.ModuleType]:
    """Every module of the package with an ``__all__`` and no private part in its name."""
    import spatial

    found = {"spatial": spatial}
    for info in pkgutil.walk_packages(spatial.__path__, "spatial."):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        module = importlib.import_module(info.name)
        if hasattr(module, "__all__"):
            found[info.name] = module
    return dict(sorted(found.items()))


def sections() -> list[str]:
    """The documented modules, in page order."""
    return [name for page in PAGES for name in page.modules]


def _defining_module(obj: object, name: str, candidates: dict[str, types.ModuleType]) -> str:
    """The module that defines ``obj``: its ``__module__``, or for data the innermost module
    whose ``__all__`` holds the same object under ``name``."""
    module = getattr(obj, "__module__", None)
    if isinstance(module, str) and (inspect.isclass(obj) or inspect.isroutine(obj)):
        return module
    holders = [
        m for m, mod in candidates.items() if name in mod.__all__ and getattr(mod, name) is obj
    ]
    return max(holders, key=lambda m: m.count("."))


def _section_of(module: str) -> str | None:
    """The documented module (section) that ``module`` belongs to, the innermost one."""
    owners = [s for s in sections() if module == s or module.startswith(s + ".")]
    return max(owners, key=len) if owners else None


@dataclass
class Entry:
    """One documented object: where it is defined and the full name it is documented under."""

    name: str
    obj: object
    defined_in: str
    documented_as: str

    @property
    def kind(self) -> str:
        if inspect.isclass(self.obj):
            return "class" if not issubclass(self.obj, BaseException) else "exception"
        if inspect.isroutine(self.obj):
            return "function"
        return "data"


@dataclass
class Reference:
    """Every public name of the package and the entry that documents it."""

    entries: dict[str, Entry] = field(default_factory=dict)  # by documented full name
    exported: dict[str, dict[str, str]] = field(default_factory=dict)  # module → name → entry

    def entry_for(self, module: str, name: str) -> Entry:
        return self.entries[self.exported[module][name]]


def collect() -> Reference:
    """Find every public name and the one full name each object is documented under.

    An object is documented in the innermost section (documented module) that defines it: as
    ``<section>.<name>`` if the section exports it, else under the shallowest module of the
    section that does (``spatial.forces.bezier.QuinticBezierSpline``).
    """
    modules = public_modules()
    exporters: dict[object, list[tuple[str, str]]] = {}  # key → [(module, name)]
    objects: dict[object, tuple[object, str]] = {}  # key → (object, defining module)
    for module_name, module in modules.items():
        for name in module.__all__:
            obj = getattr(module, name)
            if isinstance(obj, types.ModuleType):
                continue
            defined = _defining_module(obj, name, modules)
            key = id(obj) if inspect.isclass(obj) or inspect.isroutine(obj) else (defined, name)
            exporters.setdefault(key, []).append((module_name, name))
            objects[key] = (obj, defined)
    ref = Reference()
    for key, where in exporters.items():
        obj, defined = objects[key]
        section = _section_of(defined)
        if section is None:
            raise ValueError(f"{defined} (defines {where[0][1]}) belongs to no page of PAGES")
        inside = [(m, n) for m, n in where if m == section or m.startswith(section + ".")]
        home, name = min(inside or where, key=lambda mn: (mn[0].count("."), mn[0]))
        full = f"{home}.{name}"
        ref.entries[full] = Entry(name, obj, defined, full)
        for module_name, exported_name in where:
            ref.exported.setdefault(module_name, {})[exported_name] = full
    return ref


# --- writing the pages -------------------------------------------------------------------------


def _chapters(module: str) -> tuple[str, ...]:
    keys = [k for k in CHAPTERS if module == k or module.startswith(k + ".")]
    return CHAPTERS[max(keys, key=len)] if keys else ()


def _chapter_links(module: str, prefix: str = "../") -> str:
    sys.path.insert(0, str(ROOT / "tools"))
    import navigation

    links = []
    for number in _chapters(module):
        (path,) = sorted(NOTEBOOKS.glob(f"{number}-*.ipynb"))
        links.append(f"[{navigation.title(path)}]({prefix}{path.name})")
    return "; ".join(links)


def _doc_comment(module: str, name: str) -> list[str]:
    """The ``#:`` comment above ``name = ...`` in ``module``'s source (autodoc reads these only
    from the module it documents, so they are carried along for a name documented elsewhere)."""
    source = inspect.getsource(importlib.import_module(module)).splitlines()
    for k, line in enumerate(source):
        if re.match(rf"{re.escape(name)}\s*(:[^=]*)?=", line):
            comment = []
            j = k - 1
            while j >= 0 and source[j].startswith("#:"):
                comment.insert(0, source[j][2:].strip())
                j -= 1
            return comment
    return []


def _directive(entry: Entry) -> list[str]:
    full = entry.documented_as
    if entry.kind in ("class", "exception"):
        return [f".. auto{entry.kind}:: {full}", "   :members:", ""]
    if entry.kind == "function":
        return [f".. autofunction:: {full}", ""]
    # data: autodoc would show the docstring of the value's type (dict, tuple), so the entry is
    # written here, with the "#:" comment of its assignment and its value if that is short
    lines = [f".. py:data:: {full}"]
    value = repr(entry.obj)
    if len(value) <= 70:
        lines.append(f"   :value: {value}")
    comment = _doc_comment(entry.defined_in, entry.name)
    if comment:
        lines += [""] + [f"   {line}" for line in comment]
    return lines + [""]


def _rst_block(lines: list[str]) -> list[str]:
    while lines and not lines[-1]:
        lines = lines[:-1]
    return ["```{eval-rst}", *lines, "```", ""]


def _source_order(entry: Entry) -> tuple[int, str]:
    try:
        return inspect.getsourcelines(entry.obj)[1], entry.name
    except (TypeError, OSError):
        return 10**6, entry.name


def _section_text(ref: Reference, section: str) -> list[str]:
    out = [f"## `{section}`", ""]
    out += _rst_block([f".. automodule:: {section}"])
    links = _chapter_links(section)
    if links:
        out += [f"Taught in {links}.", ""]
    own = [e for e in ref.entries.values() if _section_of(e.defined_in) == section]
    groups: dict[str, list[Entry]] = {}
    for entry in own:
        groups.setdefault(entry.defined_in, []).append(entry)
    # names the section exports but documents elsewhere
    foreign = sorted(
        (name, full)
        for name, full in ref.exported.get(section, {}).items()
        if _section_of(ref.entries[full].defined_in) != section
    )
    if foreign:
        listed = ", ".join(f"{{py:obj}}`{name} <{full}>`" for name, full in foreign)
        out += [f"Also exported by `{section}`, documented with their own modules: {listed}.", ""]
    # the package's own names first, then its submodules in the order the chapters teach them
    for module in sorted(groups, key=lambda m: (m != section, _chapters(m), m)):
        entries = sorted(groups[module], key=_source_order)
        if module != section:
            out += [f"### `{module.removeprefix('spatial.')}`", ""]
            out += _rst_block([f".. automodule:: {module}", "   :no-index:"])
            if _chapters(module) != _chapters(section):
                out += [f"Taught in {_chapter_links(module)}.", ""]
        body: list[str] = []
        for entry in entries:
            body += _directive(entry)
        out += _rst_block(body)
    return out


def page_text(page: Page, ref: Reference) -> str:
    out = [GENERATED, "", f"# {page.title}", ""]
    out += [
        f"Layer {page.layer} of the package (see the [API reference](index.md) for the layers). "
        + page.intro,
        "",
    ]
    for section in page.modules:
        out += _section_text(ref, section)
    return "\n".join(out).rstrip() + "\n"


def index_text(ref: Reference) -> str:
    import spatial

    out = [GENERATED, "", "# API reference", ""]
    out += [
        "Every public name of the package, generated from its docstrings. The package is "
        "built in layers, read here from the bottom up; a module imports only from the layers "
        "below its own. Each section says which chapters teach it, and each entry cites the "
        "table or equation of the texts it implements.",
        "",
        "1. **Validation and kernels** (`spatial._validate`, `spatial._batched`): private; "
        "every public function checks its input once, at its entry, then calls kernels.",
    ]
    for page in PAGES:
        modules = ", ".join(f"`{m.removeprefix('spatial.')}`" for m in page.modules)
        out.append(f"{page.layer}. [{page.title}]({page.stem}.md): {modules}")
    out = _renumber(out)
    out += [
        "",
        "## Linking an entry from a chapter",
        "",
        "Write a plain Markdown link to the entry's page with the object's full name as the "
        "anchor, `[sp.aba](api/dynamics.md#spatial.dynamics.aba)` (from this folder: "
        "`[sp.aba](dynamics.md#spatial.dynamics.aba)`). In the book the link lands on the entry "
        "and a link to a missing entry fails the build; in JupyterLab it opens the page. The "
        "full name is the one the entry shows: for a name of `import spatial as sp`, the "
        "table below gives it. For example, "
        "[sp.aba](dynamics.md#spatial.dynamics.aba) is the articulated-body algorithm of "
        "Table 7.1. (A Sphinx role, {py:func}`spatial.dynamics.aba`, also works in the book, "
        "but JupyterLab shows it as typed.)",
        "",
        "## The names of `import spatial as sp`",
        "",
        "```{eval-rst}",
        ".. automodule:: spatial",
        "```",
        "",
        "| `sp.` name | documented as |",
        "|---|---|",
    ]
    for name in spatial.__all__:
        obj = getattr(spatial, name)
        if isinstance(obj, types.ModuleType):
            page = _page_of(obj.__name__)
            out.append(f"| `sp.{name}` | [`{obj.__name__}`]({page.stem}.md) (module) |")
            continue
        full = ref.exported["spatial"][name]
        page = _page_of(_section_of(ref.entries[full].defined_in))
        out.append(f"| `sp.{name}` | [`{full}`]({page.stem}.md#{full}) |")
    lazy = sorted(getattr(spatial, "_LAZY", ()))
    out += [
        "",
        "Subpackages loaded on first use (`sp.solvers`, ...): "
        + ", ".join(f"[`sp.{m}`]({_page_of('spatial.' + m).stem}.md)" for m in lazy)
        + ".",
    ]
    return "\n".join(out).rstrip() + "\n"


def _renumber(lines: list[str]) -> list[str]:
    """Markdown list items keep the layer number, except that pages of one layer share it."""
    seen: set[str] = set()
    out = []
    for line in lines:
        match = re.match(r"(\d+)\. (.*)", line)
        if match and match.group(1) in seen:
            out[-1] += f"; [{_strip_link(match.group(2))}"
            continue
        if match:
            seen.add(match.group(1))
        out.append(line)
    return out


def _strip_link(text: str) -> str:
    return text[1:] if text.startswith("[") else text


def _page_of(section: str) -> Page:
    return next(p for p in PAGES if section in p.modules)


def pages() -> dict[str, str]:
    """File name (relative to ``notebooks/api``) → its text."""
    ref = collect()
    out = {"index.md": index_text(ref)}
    for page in PAGES:
        out[f"{page.stem}.md"] = page_text(page, ref)
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    target = Path(argv[0]) if argv else API
    target.mkdir(parents=True, exist_ok=True)
    written = pages()
    for stale in sorted(set(p.name for p in target.glob("*.md")) - set(written)):
        (target / stale).unlink()
        print(f"removed {stale}")
    for name, text in written.items():
        (target / name).write_text(text)
    count = len(collect().entries)
    print(f"wrote {len(written)} API pages ({count} entries) to {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
