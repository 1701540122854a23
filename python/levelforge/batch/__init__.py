"""Batch generation: thousands of levels on every core or a Dask cluster, nothing lost.

:func:`generate` yields results in item order from any generator object (one with
``generate(seed)``, ``warm_up()`` and ``to_dict()``, such as
:class:`levelforge.sokoban.Generator`); :func:`run` writes them to a JSONL or XSB file,
resumably. Item ``i`` always gets ``levelforge.seeding.item_seed(seed, i)``.

>>> from levelforge import batch
>>> from levelforge.sokoban import Generator
>>> results = list(batch.generate(Generator(width=7, height=7, boxes=2), count=4, seed=1))
>>> len(results)
4
"""
from .job import Summary, run
from .output import strip_timings
from .runner import generate

__all__ = ["Summary", "generate", "run", "strip_timings"]
