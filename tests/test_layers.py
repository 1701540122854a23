"""The import graph of levelforge: no cycles, and every import goes down the layers that
``docs/architecture.md`` describes (kernels never import the API, the API never imports
the browser layer or the commands, ...).

Read with ``ast`` from the source, so every import counts, those inside functions too.
"""
import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = {"levelforge": os.path.join(ROOT, "python", "levelforge"),
           "levelforge.engine": os.path.join(ROOT, "engine")}

SYSTEMS = ("sokoban", "symmetry", "mines", "defense")
# each part of the package, and the parts it may import (itself always included)
ALLOWED = {
    "engine": set(),
    "core": set(),  # errors, seeding, timing, cells, textfile, progress, compile_notice
    **{system: {"engine", "core"} for system in SYSTEMS},
    "batch": {"core"},
    "datasets": {"sokoban", "batch", "core"},  # levelforge.sokoban.dataset
    "play": {*SYSTEMS, "core"},  # the browser layer: the public API, never engine/
    "rl": {"sokoban", "play", "core"},  # levelforge.sokoban.env; render_mode="human" is /watch
    "commands": {*SYSTEMS, "engine", "core", "batch", "datasets", "play", "rl"},
}


def part(module):
    """The part of the package ``module`` belongs to (a key of :data:`ALLOWED`)."""
    name = module.split(".")
    if name[1:2] == ["engine"]:
        return "engine"
    if name[-1] in ("cli", "__main__", "warmup"):
        return "commands"
    if module == "levelforge.sokoban.env":
        return "rl"
    if module == "levelforge.sokoban.dataset":
        return "datasets"
    if name[1:2] and name[1] in (*SYSTEMS, "batch", "play"):
        return name[1]
    return "core"


def modules():
    """``{module name: file}`` of every module under python/levelforge and engine/."""
    found = {}
    for package, folder in SOURCES.items():
        for dirpath, _, files in os.walk(folder):
            for f in files:
                if not f.endswith(".py"):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, f[:-3]), folder).split(os.sep)
                if rel[-1] == "__init__":
                    rel = rel[:-1]
                found[".".join([package, *rel])] = os.path.join(dirpath, f)
    return found


def imports(module, path, known):
    """The levelforge modules that ``module`` (the file ``path``) imports, anywhere in it."""
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    package = module if path.endswith("__init__.py") else module.rsplit(".", 1)[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]
        else:
            continue
        for target in targets:
            while target not in known and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in known and target != module:
                out.add(target)
    return out


def graph():
    known = modules()
    return {m: imports(m, path, known) for m, path in known.items()}


def cycles(edges):
    """Every import cycle, each as a list of modules (one per strongly connected part)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def upward(edges):
    """``(importer, imported)`` pairs that break :data:`ALLOWED`."""
    return sorted((a, b) for a, targets in edges.items() for b in targets
                  if part(b) != part(a) and part(b) not in ALLOWED[part(a)])


def test_the_walk_sees_the_package():
    edges = graph()
    assert "levelforge.engine.sokoban" in edges and "levelforge.play.app" in edges
    assert "levelforge.engine.sokoban" in edges["levelforge.sokoban.solver"]
    assert "levelforge.sokoban.level" in edges["levelforge.sokoban.replay"]  # relative import


def test_no_import_cycles():
    assert cycles(graph()) == []


def test_imports_go_down_the_layers():
    assert upward(graph()) == []


def test_the_checks_find_a_cycle_and_an_upward_import():
    edges = {"levelforge.sokoban.level": {"levelforge.sokoban.svg"},
             "levelforge.sokoban.svg": {"levelforge.sokoban.level"},
             "levelforge.mines.game": {"levelforge.cli", "levelforge.engine.mines"},
             "levelforge.engine.mines": {"levelforge.errors"},
             "levelforge.play.app": {"levelforge.engine.grid", "levelforge.sokoban"}}
    assert cycles(edges) == [["levelforge.sokoban.level", "levelforge.sokoban.svg"]]
    assert upward(edges) == [("levelforge.engine.mines", "levelforge.errors"),
                             ("levelforge.mines.game", "levelforge.cli"),
                             ("levelforge.play.app", "levelforge.engine.grid")]


def test_every_module_has_a_part():
    assert {part(m) for m in graph()} == set(ALLOWED)
