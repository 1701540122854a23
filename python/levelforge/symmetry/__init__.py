"""Symmetry line puzzles: two mirrored boards, one stroke, a proved unique solution.

Board B mirrors board A across the vertical axis; the path drawn on A appears mirrored on
B and must satisfy both boards' required points and forbidden edges. Generation finds a
long answer path with Z3, adds required points and forbids edges until a Numba counting
DFS proves the answer unique, then reduces the conditions.

>>> from levelforge import symmetry
>>> p = symmetry.generate(5, seed=1)
>>> p.check(p.solution), symmetry.count_solutions(p.master())
(True, 1)
"""
from .board import Board, count_solutions
from .editor import Answer, Finished, check, finish
from .generator import Generator, Strategy, generate
from .judge import Verdict, judge
from .puzzle import Puzzle
from .zpath import longest_path_points

__all__ = ["Answer", "Board", "Finished", "Generator", "Puzzle", "Strategy", "Verdict", "check",
           "count_solutions", "finish", "generate", "judge", "longest_path_points"]
