"""Sphinx configuration of the static book: the course's notebooks as one HTML site.

``make book`` first executes the notebooks into ``build/executed``
(``tools/execute_notebooks.py``: two at a time, widgets drawn as static figures of their
teaching defaults with ``SPATIAL_STATIC=1``, see ``spatial.nb.interact``), then builds the site
from those copies into ``build/book`` with MyST-NB's own execution off, warnings as errors.
``make test`` reads the unexecuted notebooks the same way and resolves their references without
writing pages (Sphinx's ``dummy`` builder), so a broken cross-reference or table-of-contents entry
fails the tests.  (``SPATIAL_BOOK_EXECUTE=force`` still lets MyST-NB
execute them, one at a time.)
The table of contents is ``notebooks/_toc.yml`` (read by ``sphinx-external-toc``).  Equations
are typeset by MathJax copied into the site's ``_static`` (``sphinx-mathjax-offline``), so the
book reads without a network; the live widgets stay in JupyterLab.
"""

import os

project = "spatial: rigid-body dynamics, verified"
author = "the spatial developers"
# sphinx-mathjax-offline (its module name has hyphens) points mathjax_path at a copy of MathJax 3
# that it puts into the site's _static: no equation depends on a CDN
extensions = ["myst_nb", "sphinx_external_toc", "sphinx-mathjax-offline"]
external_toc_path = "_toc.yml"
external_toc_exclude_missing = False
exclude_patterns = ["_build", ".ipynb_checkpoints"]

# dollarmath only: every equation of the course sits between $ or $$ (MathJax reads the
# environments inside them).  MyST's "amsmath" extension would also take a line that starts with
# \begin{bmatrix} inside a $$ … $$ running over several lines of a paragraph as a block of its
# own, cutting the paragraph and leaving the rest as raw TeX (notebook 01's inverse transform).
myst_enable_extensions = ["dollarmath"]
myst_dmath_double_inline = True  # $$ … $$ inside a paragraph, as Jupyter renders it
myst_heading_anchors = 3
nb_execution_mode = os.environ.get("SPATIAL_BOOK_EXECUTE", "off")
nb_execution_timeout = 900
nb_execution_raise_on_error = True
nb_merge_streams = True

html_theme = "sphinx_book_theme"
html_title = "spatial"
html_theme_options = {"show_toc_level": 2}
# an explicit default colour mode: without one the theme logs "invalid theme mode" to the
# browser console on a reader's first visit
html_context = {"default_mode": "auto"}

# The API reference (notebooks/api/, written by tools/api_pages.py): autodoc reads the package's
# docstrings, napoleon their NumPy-style sections.  Parameter and return types stay plain text
# (use_param/use_rtype off): as :type: fields Sphinx would turn every word of "array, shape
# (nv,)" into a cross-reference, and "nv" or "shape" matches attributes of unrelated classes.
extensions += ["sphinx.ext.autodoc", "sphinx.ext.napoleon"]
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_param = False
napoleon_use_rtype = False
# an "Attributes" section as a field list like "Parameters", for the same reason: as attribute
# entries its types would be cross-referenced word by word, and a NamedTuple's fields would be
# described twice (the section, and the fields' own "Alias for field number k" docstrings,
# which _skip_namedtuple_aliases leaves out)
napoleon_custom_sections = [("Attributes", "params_style")]
add_module_names = False  # an entry shows aba(model, q, qd, tau); its anchor keeps the full name
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"member-order": "bysource"}

# How to link an API entry from a chapter: a plain Markdown link to its page with the object's
# full name as the anchor, [sp.aba](api/dynamics.md#spatial.dynamics.aba).  JupyterLab opens the
# page; here the link lands on the entry, because the hook below registers every documented
# Python object as a link target of its page (MyST resolves `page.md#id` against headings and
# labels only, and would warn that the entry's id is not found).  A link to an entry that does
# not exist still fails the build.  {py:func}`spatial.dynamics.aba` works too, in the book only.


def _python_objects_as_link_targets(app, env):
    std, py = env.get_domain("std"), env.get_domain("py")
    for name, entry in py.objects.items():
        std.anonlabels.setdefault(name, (entry.docname, entry.node_id))
    return []


def _skip_namedtuple_aliases(app, what, name, obj, skip, options):
    if (getattr(obj, "__doc__", None) or "").startswith("Alias for field number"):
        return True
    return None


def setup(app):
    app.connect("env-updated", _python_objects_as_link_targets)
    app.connect("autodoc-skip-member", _skip_namedtuple_aliases)
