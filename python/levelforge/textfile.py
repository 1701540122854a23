"""Reading the text files users hand to levelforge (XSB, JSON lines, TOML, JSON): UTF-8
with or without a byte-order mark; anything else is refused with one line naming the file.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "a.txt")
>>> with open(path, "wb") as fh:
...     _ = fh.write(b"\\xef\\xbb\\xbfhello\\nworld\\n")
>>> read_text(path)
'hello\\nworld\\n'
>>> [line for line in read_lines(path)]
['hello\\n', 'world\\n']
>>> read_text(os.path.dirname(path))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
levelforge.errors.LevelFormatError: cannot read ...: it is a directory
"""
import os

from .errors import LevelFormatError


def _open(path, what, error, caller):
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{caller} takes a file path, not {type(path).__name__}")
    name = os.fspath(path)
    if os.path.isdir(path):
        raise error(f"cannot read {what}{name}: it is a directory")
    try:
        return open(path, "rb")
    except OSError as exc:
        raise error(f"cannot read {what}{name}: {exc.strerror}") from None


def _decode(data, path, what, error, offset=0):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        utf16 = " (it looks like UTF-16; save it as UTF-8)" \
            if offset == 0 and data[:2] in (b"\xff\xfe", b"\xfe\xff") else ""
        raise error(f"{what}{os.fspath(path)}: not UTF-8 text{utf16}: byte "
                    f"{offset + exc.start} is 0x{data[exc.start]:02x}") from None
    return text[1:] if offset == 0 and text.startswith("\ufeff") else text


def read_text(path, what="", error=LevelFormatError, caller="read_text"):
    """The text of the UTF-8 file ``path`` (a leading byte-order mark is dropped).

    Raises ``error`` (a :class:`~levelforge.LevelforgeError` class taking a message) when
    the file is missing, a directory, unreadable or not UTF-8 (UTF-16 is named as such).
    The message names the file, after ``what`` (e.g. ``"scenario "``). A ``path`` that is
    not a path (e.g. XSB text) is a TypeError naming ``caller``.
    """
    with _open(path, what, error, caller) as fh:
        try:
            data = fh.read()
        except OSError as exc:
            raise error(f"cannot read {what}{os.fspath(path)}: {exc.strerror}") from None
    return _decode(data, path, what, error)


def read_lines(path, what="", error=LevelFormatError, caller="read_lines"):
    """The lines of the UTF-8 file ``path`` one at a time (for files too large to read at
    once), with the same checks and messages as :func:`read_text`."""
    with _open(path, what, error, caller) as fh:
        offset = 0
        for raw in fh:
            yield _decode(raw, path, what, error, offset)
            offset += len(raw)
