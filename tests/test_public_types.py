"""Issue 9, item 6: ``py.typed`` and type hints on the public API.

The public API is what each package exports in ``__all__`` (modules listed there
included): its functions, and the public methods, class and static methods and
properties of its classes (``__init__`` included). Each must annotate every parameter
(``self``/``cls`` aside) and its return (``__init__`` aside), and every annotation must
resolve to a real type.
"""
import importlib
import inspect
import os
import sys
import types
import typing
from fnmatch import fnmatch

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PUBLIC_PACKAGES = ("levelforge", "levelforge.sokoban", "levelforge.symmetry", "levelforge.mines",
                   "levelforge.defense", "levelforge.batch")



def _members(cls):
    """``(name, function)`` of a class's own public methods, class and static methods
    and property getters, ``__init__`` included."""
    for name, member in vars(cls).items():
        if name.startswith("_") and name != "__init__":
            continue
        if isinstance(member, (classmethod, staticmethod)):
            yield name, member.__func__
        elif isinstance(member, property):
            if member.fget is not None:
                yield name, member.fget
        elif callable(member):
            yield name, member


def public_callables(module, prefix=None):
    """``(qualified name, callable)`` of everything public in ``module``'s ``__all__``."""
    prefix = prefix or module.__name__
    for name in getattr(module, "__all__", ()):
        obj = getattr(module, name)
        if isinstance(obj, types.ModuleType):
            yield from public_callables(obj)
        elif isinstance(obj, type):
            for member, fn in _members(obj):
                yield f"{prefix}.{name}.{member}", fn
        elif callable(obj):
            yield f"{prefix}.{name}", obj


def unannotated(name, fn):
    """What ``fn`` leaves unannotated: parameter names, and ``return``."""
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):  # builtins without a signature
        return []
    missing = [p for p, param in sig.parameters.items()
               if p not in ("self", "cls") and param.annotation is inspect.Parameter.empty]
    if sig.return_annotation is inspect.Signature.empty and not name.endswith(".__init__"):
        missing.append("return")
    return missing


def _all_public():
    seen = {}
    for package in PUBLIC_PACKAGES:
        for name, fn in public_callables(importlib.import_module(package)):
            seen.setdefault(name, fn)
    return seen


def test_public_api_has_type_hints():
    public = _all_public()
    assert len(public) > 100  # the walk found the API, not an empty list
    missing = {name: gaps for name, fn in public.items()
               if (gaps := unannotated(name, fn))}
    assert missing == {}


def test_public_type_hints_resolve():
    bad = {}
    for name, fn in _all_public().items():
        if not inspect.isfunction(fn):
            continue
        try:
            typing.get_type_hints(fn)
        except Exception as exc:  # a NameError or TypeError names the broken hint
            bad[name] = f"{type(exc).__name__}: {exc}"
    assert bad == {}


def test_type_hint_check_finds_a_missing_hint():
    module = types.ModuleType("fake")

    class Thing:
        def __init__(self, size: int) -> None:
            self.size = size

        def grow(self, by) -> int:
            return self.size + by

        @property
        def area(self):
            return self.size ** 2

        @staticmethod
        def make(size: int) -> "Thing":
            return Thing(size)

    def hinted(x: int) -> int:
        return x

    def bare(x):
        return x

    module.__all__ = ["Thing", "hinted", "bare"]
    module.Thing, module.hinted, module.bare = Thing, hinted, bare
    found = {name: unannotated(name, fn) for name, fn in public_callables(module)}
    assert found == {"fake.Thing.__init__": [], "fake.Thing.grow": ["by"],
                     "fake.Thing.area": ["return"], "fake.Thing.make": [],
                     "fake.hinted": [], "fake.bare": ["x", "return"]}


def test_py_typed_ships_in_the_wheel_package_data():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        setuptools_conf = tomllib.load(fh)["tool"]["setuptools"]
    assert "levelforge" in setuptools_conf["packages"]
    source = setuptools_conf["package-dir"]["levelforge"]
    assert os.path.isfile(os.path.join(ROOT, source, "py.typed"))
    data = setuptools_conf["package-data"]
    patterns = data.get("levelforge", []) + data.get("*", []) + data.get("", [])
    assert any(fnmatch("py.typed", p) for p in patterns), patterns
