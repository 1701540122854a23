"""Sokoban: levels in XSB, a push-optimal solver, a reverse-play generator.

>>> from levelforge import sokoban
>>> result = sokoban.generate(11, width=7, height=7, boxes=2, pushes=(4, 8))
>>> sokoban.replay(result.level, result.solution).is_solved
True
>>> sokoban.solve(result.level).pushes == result.pushes
True
"""

from .generator import GenerateResult, Generator, campaign, generate
from . import collections
from .boxoban import load_boxoban, read_boxoban
from .difficulty import Difficulty, difficulty
from .level import Level, load_xsb, read_xsb
from .replay import replay
from .solver import SolveResult, Solver, solve

__all__ = ["Difficulty", "GenerateResult", "Generator", "Level", "SolveResult", "Solver",
           "campaign", "collections", "difficulty", "generate", "load_boxoban", "load_xsb",
           "read_boxoban", "read_xsb", "replay", "solve"]
