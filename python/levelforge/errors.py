"""The exception hierarchy of levelforge.

Every error levelforge raises is a :class:`LevelforgeError`. Errors caused by bad
input also subclass :class:`ValueError`, so ``except ValueError`` keeps working for
callers who do not know levelforge. Messages say what was wrong and where.
"""
from __future__ import annotations


class LevelforgeError(Exception):
    """Base class of every levelforge error."""


class LevelFormatError(LevelforgeError, ValueError):
    """A level text (XSB, JSON) is malformed; the message names line and column."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None,
                 file: str | None = None) -> None:
        where = ""
        if line is not None:
            where = f"line {line}" + (f", column {column}" if column is not None else "") + ": "
        if file is not None:
            where = f"{file}: " + where
        super().__init__(where + message)
        self.message = message
        self.line = line
        self.column = column
        self.file = file

    def in_file(self, file: str) -> LevelFormatError:
        """The same error, its message prefixed with the file it came from."""
        return LevelFormatError(self.message, self.line, self.column, file)

    def __reduce__(self):
        return (type(self), (self.message, self.line, self.column, self.file))


class ConfigError(LevelforgeError, ValueError):
    """A configuration argument (size, count, range, scenario field) is invalid."""


class InvalidMoveError(LevelforgeError, ValueError):
    """A game action is illegal in the current state; the state is unchanged."""


class GenerationError(LevelforgeError, RuntimeError):
    """A generator exhausted every fallback without producing a level."""


class Cancelled(LevelforgeError, RuntimeError):
    """A call was stopped by its :class:`~levelforge.Cancel` token; nothing was produced.

    >>> from levelforge import Cancel, symmetry
    >>> token = Cancel()
    >>> token.cancel()
    >>> try:
    ...     symmetry.generate(5, cancel=token)
    ... except Cancelled as e:
    ...     print(e)
    no 5x5 symmetry puzzle (seed 0): cancelled
    """


class BatchItemError(LevelforgeError, RuntimeError):
    """One item of a batch failed; carries the item's index and seed to reproduce it."""

    def __init__(self, index: int, seed: int, cause: str) -> None:
        super().__init__(f"item {index} (seed {seed}) failed: {cause}")
        self.index = index
        self.seed = seed
        self.cause = cause  # "ExceptionType: message", a string so the error pickles

    def __reduce__(self):
        return (type(self), (self.index, self.seed, self.cause))


class WorkerError(LevelforgeError, RuntimeError):
    """A batch worker process died (killed, out of memory) or failed outside any item."""
