"""levelforge play: the games in a web browser, backed by the same Python API.

``levelforge play [FILE]`` serves Sokoban (generator, campaign, Microban, pasted XSB),
symmetry puzzles and a gallery of a level file on 127.0.0.1. The rules stay in the API:
the browser sends actions and draws the state the server returns. Every page rebuilds
itself from its URL, so a URL is a share link. Needs the ``play`` extra
(``pip install -e '.[play]'``: Starlette and uvicorn).

>>> from levelforge import play
>>> with play.running() as url:
...     url.startswith("http://127.0.0.1:")
True
"""
__all__ = ["create_app", "running", "serve"]


def __getattr__(name):  # Starlette and uvicorn load on first use, so the CLI can say
    if name == "create_app":  # which extra is missing
        from .app import create_app
        return create_app
    if name in ("running", "serve"):
        from . import server
        return getattr(server, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
