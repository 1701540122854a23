"""SVG pictures of symmetry puzzles: :meth:`Puzzle.to_svg`, Jupyter's ``_repr_svg_``, and
the boards the browser game draws on.

Lattice point ``(x, y)`` sits at ``(pad + x * cell, pad + y * cell)`` with ``pad =
0.75 * cell``; a board's root carries ``data-size``, ``data-cell`` and ``data-pad`` so a page
maps pointer positions to points. Each board holds an (initially empty) ``polyline.stroke``
for the drawn path and a ``g.marks`` group for highlights, in the right drawing order.

>>> from levelforge.symmetry import Board
>>> svg = board_svg(Board(3, (0, 0), (2, 2), required={(1, 1)}), path=[(0, 0), (1, 0)])
>>> 'data-size="3"' in svg and 'class="required"' in svg and 'points="30,30 70,30"' in svg
True
"""
from html import escape

from .board import mirror_point

GRID, DOT, BACK, EDGE = "#cfd5df", "#98a2b3", "#fbfaf7", "#dde1e8"
FORBIDDEN = "#e63946"
REQUIRED = "#277da1"
START, GOAL = "#2a9d8f", "#264653"
STROKE = "#f4a261"
MARK = "#e63946"


def _n(v):
    return f"{v:.2f}".rstrip("0").rstrip(".")


def geometry(size, cell=40):
    """``(pad, side)``: the margin around the lattice and the board's side in pixels."""
    pad = cell * 0.75
    return pad, 2 * pad + (size - 1) * cell


def _xy(point, pad, cell):
    return pad + point[0] * cell, pad + point[1] * cell


def _body(board, path, cell, marks):
    """The drawing of one board (elements, no ``<svg>``), path and marks on top of the grid."""
    n = board.size
    pad, side = geometry(n, cell)

    def xy(p):
        return _xy(p, pad, cell)

    out = [f'<rect class="back" x="1" y="1" width="{_n(side - 2)}" height="{_n(side - 2)}" '
           f'rx="{_n(cell * .3)}" fill="{BACK}" stroke="{EDGE}" stroke-width="2"/>']
    grid = "".join(f"M{_n(pad)} {_n(pad + k * cell)}h{_n((n - 1) * cell)}"
                   f"M{_n(pad + k * cell)} {_n(pad)}v{_n((n - 1) * cell)}" for k in range(n))
    out.append(f'<path class="grid" d="{grid}" stroke="{GRID}" stroke-width="{_n(cell * .06)}" '
               f'stroke-linecap="round"/>')
    for a, b in sorted(board.forbidden):
        (x0, y0), (x1, y1) = xy(a), xy(b)
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        dx, dy = (0, cell * .2) if y0 == y1 else (cell * .2, 0)
        sx, sy = (x1 - x0) * .2, (y1 - y0) * .2  # leave the points at both ends visible
        out.append(f'<g class="forbidden" data-edge="{a[0]},{a[1]} {b[0]},{b[1]}">'
                   f'<line x1="{_n(x0 + sx)}" y1="{_n(y0 + sy)}" x2="{_n(x1 - sx)}" '
                   f'y2="{_n(y1 - sy)}" stroke="{FORBIDDEN}" stroke-width="{_n(cell * .1)}" '
                   f'stroke-linecap="round"/>'
                   f'<line x1="{_n(mx - dx)}" y1="{_n(my - dy)}" x2="{_n(mx + dx)}" '
                   f'y2="{_n(my + dy)}" stroke="{FORBIDDEN}" stroke-width="{_n(cell * .12)}" '
                   f'stroke-linecap="round"/></g>')
    points = " ".join(f"{_n(x)},{_n(y)}" for x, y in map(xy, path))
    out.append(f'<polyline class="stroke" points="{points}" fill="none" stroke="{STROKE}" '
               f'stroke-width="{_n(cell * .18)}" stroke-linecap="round" '
               f'stroke-linejoin="round" opacity=".9"/>')
    dots = "".join(f"M{_n(x)} {_n(y)}h0" for x, y in
                   (xy((i, j)) for j in range(n) for i in range(n)))
    out.append(f'<path class="dots" d="{dots}" stroke="{DOT}" stroke-width="{_n(cell * .13)}" '
               f'stroke-linecap="round"/>')
    for p in sorted(board.required):
        x, y = xy(p)
        out.append(f'<circle class="required" data-point="{p[0]},{p[1]}" cx="{_n(x)}" '
                   f'cy="{_n(y)}" r="{_n(cell * .17)}" fill="{REQUIRED}" stroke="white" '
                   f'stroke-width="{_n(cell * .04)}"/>')
    for cls, p, fill in (("start", board.start, START), ("goal", board.goal, GOAL)):
        x, y = xy(p)
        out.append(f'<g class="{cls}" data-point="{p[0]},{p[1]}"><circle cx="{_n(x)}" '
                   f'cy="{_n(y)}" r="{_n(cell * .26)}" fill="{fill}"/><text x="{_n(x)}" '
                   f'y="{_n(y + cell * .1)}" font-size="{_n(cell * .28)}" font-family='
                   f'"sans-serif" font-weight="bold" text-anchor="middle" fill="white">'
                   f'{cls[0].upper()}</text></g>')
    out.append('<g class="marks">')
    for item in marks:
        if isinstance(item[0], tuple):  # an edge
            (x0, y0), (x1, y1) = xy(item[0]), xy(item[1])
            out.append(f'<line x1="{_n(x0)}" y1="{_n(y0)}" x2="{_n(x1)}" y2="{_n(y1)}" '
                       f'stroke="{MARK}" stroke-width="{_n(cell * .3)}" opacity=".45" '
                       f'stroke-linecap="round"/>')
        else:
            x, y = xy(item)
            out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(cell * .34)}" fill="none" '
                       f'stroke="{MARK}" stroke-width="{_n(cell * .08)}"/>')
    out.append("</g>")
    return out, side


def board_svg(board, path=(), cell=40, marks=(), label=None):
    """One board drawn as an SVG string, with ``path`` (points on this board) as its stroke
    and ``marks`` (points or edges) ringed in red; ``label`` becomes its ``<title>``."""
    body, side = _body(board, list(path), cell, list(marks))
    pad, _ = geometry(board.size, cell)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(side)} {_n(side)}" '
            f'width="{_n(side)}" height="{_n(side)}" class="levelforge-symmetry-board" '
            f'data-size="{board.size}" data-cell="{_n(cell)}" data-pad="{_n(pad)}">')
    title = f"<title>{escape(label)}</title>" if label else ""
    return head + title + "".join(body) + "</svg>"


def puzzle_svg(puzzle, path=(), cell=40):
    """Boards A and B side by side, ``path`` (points on A) drawn on A and mirrored on B.

    >>> from levelforge.symmetry import Board, Puzzle
    >>> p = Puzzle(2, Board(2, (0, 0), (1, 0)), Board(2, (1, 0), (0, 0)))
    >>> puzzle_svg(p, [(0, 0), (1, 0)]).count('class="stroke"')
    2
    """
    n = puzzle.size
    path = [tuple(p) for p in path]
    mirrored = [mirror_point(p, n) for p in path]
    gap, label_h = cell * .6, cell * .8
    out = []
    side = 0
    for k, (name, board, stroke) in enumerate((("A", puzzle.board_a, path),
                                               ("B", puzzle.board_b, mirrored))):
        body, side = _body(board, stroke, cell, ())
        dx = k * (side + gap)
        out.append(f'<g class="board" data-board="{name}" transform="translate({_n(dx)} '
                   f'{_n(label_h)})">' + "".join(body) + "</g>")
        out.append(f'<text x="{_n(dx + side / 2)}" y="{_n(label_h * .72)}" font-size='
                   f'"{_n(cell * .45)}" font-family="sans-serif" font-weight="bold" '
                   f'text-anchor="middle" fill="#475467">{name}</text>')
    width, height = 2 * side + gap, side + label_h
    title = f"symmetry puzzle {n}x{n}" + (f", seed {puzzle.seed}" if puzzle.seed is not None
                                          else "")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(width)} {_n(height)}" '
            f'width="{_n(width)}" height="{_n(height)}" class="levelforge-symmetry">'
            f"<title>{escape(title)}</title>" + "".join(out) + "</svg>")
