"""levelforge.mines: 3D minesweeper played from the surface inward, and a logic assistant.

>>> from levelforge.mines import Game, Assistant, autoplay
>>> game = Game("easy", seed=11)
>>> result = autoplay(game, Assistant())
>>> result.status in ("won", "stuck")
True
"""
from .assistant import Analysis, Assistant, Move
from .autoplayer import GUESS_RULES, AutoplayResult, autoplay, guess_policy
from .editor import BoardCheck, check_board, random_mines
from .game import PRESETS, Game, Level
from .endgame import endgame_move, win_probability
from .guess import GuessPolicy, best_guess, fifty_fifty_move
from .observation import PublicObservation

__all__ = ["Analysis", "Assistant", "AutoplayResult", "BoardCheck", "GUESS_RULES", "Game",
           "GuessPolicy", "Level", "Move", "PRESETS", "PublicObservation", "autoplay",
           "best_guess", "check_board", "endgame_move", "fifty_fifty_move", "guess_policy",
           "random_mines", "win_probability"]
