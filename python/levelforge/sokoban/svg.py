"""SVG pictures of Sokoban levels: :meth:`Level.to_svg` and Jupyter's ``_repr_svg_``.

One ``<svg>`` element, standalone (colours inline, no stylesheet), scaled by its
``viewBox``. The root carries the board as data (``data-player``, ``data-boxes``) so a page
or a test can read the position it shows. Floor outside the walls is left transparent.

>>> from levelforge.sokoban import Level
>>> svg = level_svg(Level.from_xsb('#####\\n#@$.#\\n#####'), cell=10)
>>> svg.startswith('<svg') and 'data-player="1,1"' in svg and 'data-boxes="2,1"' in svg
True
"""
from html import escape

from .enclosure import outside as outside_cells

WALL, WALL_EDGE = "#4b4f6b", "#3a3d55"
FLOOR, FLOOR_LINE = "#f3ece0", "#e3d8c6"
GOAL = "#e76f51"
BOX, BOX_EDGE = "#dda15e", "#9c6a2f"
BOX_DONE, BOX_DONE_EDGE = "#6ab187", "#3d7a56"
PLAYER, PLAYER_EDGE = "#3a86ff", "#1f4f9c"


def _cells_path(cells, cell):
    return "".join(f"M{x * cell} {y * cell}h{cell}v{cell}h-{cell}z" for x, y in sorted(cells))


def _num(v):
    return f"{v:.2f}".rstrip("0").rstrip(".")


def level_svg(level, cell=32, title=None):
    """The level drawn as an SVG string, ``cell`` pixels a square.

    Walls, floor, goals (rings), boxes (green on a goal) and the player; ``title``
    (default: the level's title) becomes the SVG's ``<title>``.
    """
    w, h = level.width, level.height
    outside = outside_cells(w, h, level.walls)
    floor = [(x, y) for y in range(h) for x in range(w)
             if (x, y) not in level.walls and (x, y) not in outside]
    px, py = level.player
    boxes = sorted(level.boxes)
    title = level.title if title is None else title
    c = cell
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w * c} {h * c}" '
           f'width="{w * c}" height="{h * c}" class="levelforge-sokoban" '
           f'data-width="{w}" data-height="{h}" data-player="{px},{py}" '
           f'data-boxes="{";".join(f"{x},{y}" for x, y in boxes)}" role="img" '
           f'aria-label="Sokoban level {w}x{h}, {len(boxes)} boxes">']
    if title:
        out.append(f"<title>{escape(str(title))}</title>")
    out.append(f'<path class="floor" d="{_cells_path(floor, c)}" fill="{FLOOR}" '
               f'stroke="{FLOOR_LINE}" stroke-width="{_num(c / 32)}"/>')
    out.append(f'<path class="wall" d="{_cells_path(level.walls, c)}" fill="{WALL}" '
               f'stroke="{WALL_EDGE}" stroke-width="{_num(c / 16)}" stroke-linejoin="round"/>')
    for x, y in sorted(level.goals):
        out.append(f'<circle class="goal" cx="{_num((x + .5) * c)}" cy="{_num((y + .5) * c)}" '
                   f'r="{_num(c * .2)}" fill="none" stroke="{GOAL}" '
                   f'stroke-width="{_num(c * .08)}"/>')
    inset, side = c * .1, c * .8
    for x, y in boxes:
        done = (x, y) in level.goals
        fill, edge = (BOX_DONE, BOX_DONE_EDGE) if done else (BOX, BOX_EDGE)
        x0, y0 = x * c + inset, y * c + inset
        out.append(f'<g class="box{" on-goal" if done else ""}" data-cell="{x},{y}">'
                   f'<rect x="{_num(x0)}" y="{_num(y0)}" width="{_num(side)}" '
                   f'height="{_num(side)}" rx="{_num(c * .12)}" fill="{fill}" stroke="{edge}" '
                   f'stroke-width="{_num(c * .06)}"/>'
                   f'<rect x="{_num(x0 + c * .16)}" y="{_num(y0 + c * .16)}" '
                   f'width="{_num(side - c * .32)}" height="{_num(side - c * .32)}" '
                   f'rx="{_num(c * .06)}" fill="none" stroke="{edge}" '
                   f'stroke-width="{_num(c * .04)}" opacity=".6"/></g>')
    out.append(f'<circle class="player" cx="{_num((px + .5) * c)}" cy="{_num((py + .5) * c)}" '
               f'r="{_num(c * .32)}" fill="{PLAYER}" stroke="{PLAYER_EDGE}" '
               f'stroke-width="{_num(c * .06)}"/>')
    out.append("</svg>")
    return "".join(out)
