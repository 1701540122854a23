"""levelforge.mines: 3D minesweeper played from the surface inward, and a logic assistant.

>>> from levelforge.mines import Game, Assistant, autoplay
>>> game = Game("easy", seed=11)
>>> result = autoplay(game, Assistant())
>>> result.status in ("won", "stuck")
True
"""
from .assistant import Analysis, Assistant, AutoplayResult, Move, autoplay, best_guess
from .editor import BoardCheck, check_board, random_mines
from .game import PRESETS, Game, Level
from .observation import PublicObservation

__all__ = ["Analysis", "Assistant", "AutoplayResult", "BoardCheck", "Game", "Level", "Move",
           "PRESETS", "PublicObservation", "autoplay", "best_guess", "check_board",
           "random_mines"]
