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
from .editor import Check, Improvement, check, dead_squares, from_rle, improve, to_rle
from .boxoban import load_boxoban, read_boxoban
from .difficulty import Difficulty, difficulty
from .level import Level, load_xsb, read_xsb
from .optimizer import optimize
from .replay import replay
from .solver import SolveResult, Solver, solve

__all__ = ["Check", "Difficulty", "GenerateResult", "Generator", "Improvement", "Level",
           "SolveResult", "Solver", "campaign", "check", "collections", "dead_squares",
           "difficulty", "from_rle", "generate", "improve", "load_boxoban", "load_xsb",
           "optimize", "read_boxoban", "read_xsb", "replay", "solve", "to_rle"]
