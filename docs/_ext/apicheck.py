"""Sphinx extension: every public name has an entry in the API reference.

The public names of a module are its ``__all__`` or, for a module without one, the
functions and classes defined in it whose names do not start with ``_``. After reading
all pages, each of :data:`PUBLIC_MODULES`' names must be a documented object of the
Python domain (``automodule`` with ``:members:`` documents only names that have a
docstring, so a public name without one fails too). A miss is a warning, and the
build runs with ``-W``.
"""
import importlib
import inspect
import types

from sphinx.util import logging

PUBLIC_MODULES = (
    "levelforge",
    "levelforge.sokoban",
    "levelforge.sokoban.collections",
    "levelforge.sokoban.env",
    "levelforge.sokoban.dataset",
    "levelforge.symmetry",
    "levelforge.mines",
    "levelforge.defense",
    "levelforge.defense.probes",
    "levelforge.defense.studies",
    "levelforge.batch",
    "levelforge.play",
)

logger = logging.getLogger(__name__)


def public_names(module):
    """The public names of ``module`` (its ``__all__``, or what it defines)."""
    if hasattr(module, "__all__"):
        return list(module.__all__)
    return sorted(name for name, obj in vars(module).items()
                  if not name.startswith("_")
                  and (inspect.isfunction(obj) or inspect.isclass(obj))
                  and obj.__module__ == module.__name__)


def missing_entries(documented, modules=PUBLIC_MODULES):
    """``module.name`` of every public name with no entry in ``documented`` (a set of
    dotted names: the Python domain's objects and modules)."""
    missing = []
    for module_name in modules:
        if module_name not in documented:
            missing.append(module_name)
        module = importlib.import_module(module_name)
        for name in public_names(module):
            obj = getattr(module, name)
            if isinstance(obj, types.ModuleType):
                target = obj.__name__
            else:
                target = f"{module_name}.{name}"
            if target not in documented:
                missing.append(target)
    return missing


def _check(app, env):
    domain = env.get_domain("py")
    documented = {name for name, *_ in domain.get_objects()}
    for name in missing_entries(documented):
        logger.warning("public name %s has no entry in the API reference (docs/api/); "
                       "add it there, or a docstring if it has none", name,
                       type="apicheck", subtype="missing")


def setup(app):
    app.connect("env-check-consistency", _check)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
