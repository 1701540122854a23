"""Sphinx configuration of the levelforge documentation.

Build (warnings are errors, references checked):
    sphinx-build -W -b html docs docs/_build/html
Serve:
    python -m http.server -d docs/_build/html
"""
import logging
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "_ext"))

import levelforge  # noqa: E402

project = "levelforge"
author = "the levelforge authors"
copyright = "the levelforge authors, MIT licence"
release = version = levelforge.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "apicheck",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "screens/*.py", "figures/charts.py", "figures/_charts/*.json"]

# MyST: Markdown pages; ``(label)=`` targets, ``{py:func}`` roles, ```{directive} fences
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# API reference: the docstrings are reST prose with doctests (no NumPy or Google sections),
# so autodoc renders them as written (napoleon would misread "Beacon health (...: ...)").
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_inherit_docstrings = False  # gymnasium.Env's own docstrings are not ours

# every cross-reference must resolve; names from other projects are not linked
# (no intersphinx: the build must work offline) and are listed here instead
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|np|npt|numba|gymnasium|gym|starlette|uvicorn|dask|distributed|"
               r"concurrent|collections\.abc|typing|pathlib|os|io|enum|dataclasses|"
               r"argparse|contextlib|importlib)(\..*)?"),
    (r"py:class", r"(Any|Callable|Iterable|Iterator|Sequence|Mapping|Literal|Generator|"
                  r"Self|NDArray|ndarray|PathLike|Executor|Future|TextIO|IO|Path|Env|"
                  r"SeedSequence|ArgumentParser)"),
    # type aliases the signatures show by name: Cell = (x, y, z), Point = (x, y)
    (r"py:class", r"(Cell|Point)"),
]

html_theme = "pydata_sphinx_theme"
html_title = "levelforge"
html_static_path = []
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "footer_start": ["copyright"],
    "footer_end": [],
}
html_show_sourcelink = False
html_last_updated_fmt = None


class _PagesToCome(logging.Filter):
    """guide/index.md and figures/index.md list their pages in reading order, then ``*``
    for pages that other branches add: until they land, that ``*`` matches nothing, and
    only that warning is dropped."""

    def filter(self, record):
        return "toctree glob pattern '*' didn't match any documents" not in record.getMessage()


def _dataclass_defaults(app, what, name, obj, options, signature, return_annotation):
    """A dataclass field's ``default_factory`` shows as ``<factory>``, which Sphinx
    cannot parse as a default; show ``...`` instead."""
    if signature and "<factory>" in signature:
        return signature.replace("<factory>", "..."), return_annotation
    return None


def setup(app):
    logging.getLogger("sphinx.sphinx.directives.other").addFilter(_PagesToCome())
    app.connect("autodoc-process-signature", _dataclass_defaults)
