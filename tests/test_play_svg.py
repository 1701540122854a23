"""Pictures in Python: Level.to_svg / _repr_svg_ and Puzzle.to_svg / _repr_svg_ draw exactly
the level or puzzle they are called on (read back from the SVG's elements)."""
import xml.etree.ElementTree as ET

from levelforge import sokoban, symmetry
from levelforge.symmetry.board import mirror_point
from levelforge.symmetry.svg import board_svg, geometry

NS = "{http://www.w3.org/2000/svg}"


def _cells(d, cell):
    """The cells of a path made of ``M x y h c v c h -c z`` squares."""
    out = set()
    for part in d.split("M")[1:]:
        x, y = part.split("h")[0].split()
        out.add((int(float(x)) // cell, int(float(y)) // cell))
    return out


def test_level_svg_draws_every_wall_goal_box_and_the_player():
    levels = sokoban.collections.load("microban")[:40] + [sokoban.generate(3).level]
    for level in levels:
        svg = level.to_svg(cell=20)
        root = ET.fromstring(svg)
        assert root.get("data-player") == "%d,%d" % level.player
        walls = root.find(f"{NS}path[@class='wall']").get("d")
        assert _cells(walls, 20) == set(level.walls)
        goals = {(int(float(c.get("cx"))) // 20, int(float(c.get("cy"))) // 20)
                 for c in root.iter(f"{NS}circle") if c.get("class") == "goal"}
        assert goals == set(level.goals)
        boxes = {tuple(int(v) for v in g.get("data-cell").split(","))
                 for g in root.iter(f"{NS}g") if g.get("class", "").startswith("box")}
        on_goal = {tuple(int(v) for v in g.get("data-cell").split(","))
                   for g in root.iter(f"{NS}g") if g.get("class") == "box on-goal"}
        assert boxes == set(level.boxes) and on_goal == set(level.boxes) & set(level.goals)
        title = root.find(f"{NS}title")
        assert (title.text if title is not None else "") == level.title
    assert levels[0]._repr_svg_() == levels[0].to_svg()


def test_puzzle_svg_draws_both_boards_and_the_stroke_mirrored_on_b():
    p = symmetry.generate(5, 2)
    root = ET.fromstring(p.to_svg(p.solution, cell=40))
    boards = {g.get("data-board"): g for g in root.iter(f"{NS}g") if g.get("data-board")}
    pad, _ = geometry(5, 40)

    def points(group, cls):
        return {tuple(int(v) for v in el.get("data-point").split(","))
                for el in group.iter() if el.get("class") == cls}

    for name, board, path in (("A", p.board_a, p.solution),
                              ("B", p.board_b, [mirror_point(q, 5) for q in p.solution])):
        g = boards[name]
        assert points(g, "required") == set(board.required)
        assert points(g, "start") == {board.start} and points(g, "goal") == {board.goal}
        edges = {tuple(tuple(int(v) for v in pt.split(",")) for pt in e.get("data-edge").split())
                 for e in g.iter() if e.get("class") == "forbidden"}
        assert edges == set(board.forbidden)
        stroke = g.find(f"{NS}polyline").get("points").split()
        assert stroke == [f"{pad + x * 40:g},{pad + y * 40:g}" for x, y in path]
    assert ET.fromstring(p._repr_svg_()).find(f"{NS}g/{NS}polyline").get("points") == ""


def test_board_svg_carries_its_geometry():
    b = symmetry.Board(4, (0, 0), (3, 3))
    root = ET.fromstring(board_svg(b, cell=50, marks=[(1, 1), ((0, 0), (1, 0))]))
    assert (root.get("data-size"), root.get("data-cell"), root.get("data-pad")) == \
        ("4", "50", "37.5")
    marks = root.find(f"{NS}g[@class='marks']")
    assert [el.tag for el in marks] == [f"{NS}circle", f"{NS}line"]
