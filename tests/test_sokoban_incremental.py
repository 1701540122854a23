"""The best-first searches with the incremental matching (``search_run(..., mw)``, the
solver's default) against the same searches with every child's matching solved from
scratch (``Solver._incremental = False``, ``mw`` empty): the same states stored and
expanded and the same solution, push-optimal and in every search of the any mode."""
import numpy as np
import pytest

from levelforge.sokoban import Solver

from test_sokoban_solver import MICROBAN, pulled_level, random_level


def _levels():
    """Microban levels of 5 to 16 boxes (some end at the cap: the counts still agree)
    and small random ones."""
    rng = np.random.default_rng(4242)
    out = [MICROBAN[k] for k in (6, 35, 92, 97, 104, 106, 110, 125, 142, 143)]
    while len(out) < 16:
        level = random_level(rng, 8, 5) if len(out) % 2 else pulled_level(rng, 8, 6)
        if level is not None:
            out.append(level)
    return out


def _outcome(level, optimal, incremental):
    # a fresh solver each time: a search stopped at its cap can expand a few states
    # more when its workspace grows during the search (not the matching's doing)
    solver = Solver(max_nodes=30_000)
    solver._incremental = incremental
    r = solver.solve(level, optimal=optimal)
    return r.status, r.nodes, r.expanded, r.solution


@pytest.mark.parametrize("optimal", [True, False])
def test_incremental_matching_searches_exactly_as_the_fresh_one(optimal):
    # a small cap: the any mode's feature-space search stops at it and weighted A* and
    # A* run too
    for level in _levels():
        assert _outcome(level, optimal, True) == _outcome(level, optimal, False)


def test_by_default_the_matching_is_repaired_from_incremental_from_boxes_on(monkeypatch):
    """The default (``_incremental`` None) solves children's matchings from scratch
    below ``INCREMENTAL_FROM`` boxes, where that is cheaper, and repairs them from it
    on; either way the search is the one above."""
    from levelforge.sokoban import solver as S
    seen = []
    run = S._k.search_run

    def spy(*args):
        seen.append(args[-2] is not None and args[-2].shape[0] > 0)  # mw, empty: scratch
        return run(*args)

    monkeypatch.setattr(S._k, "search_run", spy)
    few = next(lv for lv in MICROBAN if 1 < len(lv.boxes) < S.INCREMENTAL_FROM)
    many = next(lv for lv in MICROBAN if len(lv.boxes) >= S.INCREMENTAL_FROM)
    for level, repaired in ((few, False), (many, True)):
        seen.clear()
        Solver(max_nodes=2_000).solve(level)
        assert seen and set(seen) == {repaired}


def _signatures():
    """How many specialisations each kernel of ``levelforge.engine`` has loaded."""
    import importlib
    import pkgutil

    from numba.core.registry import CPUDispatcher

    import levelforge.engine as engine
    counts = {}
    for info in pkgutil.iter_modules(engine.__path__):
        module = importlib.import_module(f"levelforge.engine.{info.name}")
        for name, obj in vars(module).items():
            if isinstance(obj, CPUDispatcher):
                counts[f"{info.name}.{name}"] = len(obj.signatures)
    return counts


def test_the_warm_ups_load_every_kernel_a_solve_of_few_or_many_boxes_needs():
    """After the solver's warm-ups (what a first solve of each kind runs outside its
    timing), no solve loads or compiles a kernel specialisation inside its timing:
    neither with few boxes (the matching from scratch) nor with many (repaired), in
    either mode, on a plain or a symmetric board."""
    from levelforge.sokoban import solver as S
    S._load_kernels()
    S._load_any_kernels()
    S._load_symmetric_kernels()
    before = _signatures()
    few = next(lv for lv in MICROBAN if 1 < len(lv.boxes) < S.INCREMENTAL_FROM)
    many = MICROBAN[92]  # 8 boxes
    symmetric = MICROBAN[143]  # 16 boxes, symmetric
    assert len(many.boxes) >= S.INCREMENTAL_FROM <= len(symmetric.boxes)
    for level in (few, many, symmetric):
        for optimal in (True, False):
            Solver(max_nodes=3_000).solve(level, optimal=optimal)
    after = _signatures()
    assert {k: v for k, v in after.items() if v != before.get(k)} == {}
