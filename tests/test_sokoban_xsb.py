import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from levelforge import LevelFormatError
from levelforge.sokoban import collections
from levelforge.sokoban.level import MAX_SIDE, Level, load_xsb, read_xsb, write_xsb

MICROBAN = collections.path("microban")


def _boards(text):
    """Board blocks of an XSB file, found independently of the parser: runs of lines
    whose first non-space character is '#'."""
    blocks, cur = [], []
    for line in text.split("\n"):
        if line.strip().startswith("#"):
            cur.append(line.rstrip())
        elif cur:
            blocks.append(cur)
            cur = []
    if cur:
        blocks.append(cur)
    return blocks


def test_microban_reads_155_levels_with_titles():
    levels = load_xsb(MICROBAN)
    assert len(levels) == 155
    assert [lv.title for lv in levels] == [str(i) for i in range(1, 156)]
    assert levels[154].comments == ("'The Dungeon'",)


def test_microban_boards_round_trip_exactly():
    text = open(MICROBAN, encoding="utf-8").read()
    levels = read_xsb(text)
    for level, rows in zip(levels, _boards(text), strict=True):
        assert level.rows() == rows
        assert Level.from_xsb(level.to_xsb()) == level


def test_collection_round_trip():
    levels = load_xsb(MICROBAN)[:20]
    assert read_xsb(write_xsb(levels)) == levels


def test_load_xsb_accepts_path_and_pathlike():
    import pathlib
    assert load_xsb(MICROBAN)[3] == load_xsb(pathlib.Path(MICROBAN))[3]


def test_floor_characters_are_equivalent():
    a = Level.from_xsb("#####\n#@$.#\n#   #\n#####")
    b = Level.from_xsb("#####\n#@$.#\n#-_ #\n#####")
    assert a == b


def test_player_and_box_on_goal():
    level = Level.from_xsb("######\n#+*$ #\n######")
    assert level.player == (1, 1) and (1, 1) in level.goals
    assert (2, 1) in level.boxes and (2, 1) in level.goals
    assert level.rows()[1] == "#+*$ #"
    assert not level.is_solved


def _err(text):
    with pytest.raises(LevelFormatError) as info:
        Level.from_xsb(text)
    return info.value


def test_rejects_unknown_character_with_line_and_column():
    e = _err("; t\n#####\n#@$x#\n#####")
    assert (e.line, e.column) == (3, 4) and "'x'" in str(e)


def test_rejects_zero_players():
    assert "no player" in str(_err("#####\n# $.#\n#####"))


def test_rejects_several_players():
    e = _err("######\n#@$.@#\n######")
    assert (e.line, e.column) == (2, 5) and "2 players" in str(e)


def test_rejects_boxes_not_equal_goals():
    e = _err("; t\n\n######\n#@$$.#\n######")
    assert "2 boxes but 1 goal" in str(e) and "1 goals" not in str(e) and e.line == 3


def test_rejects_no_boxes():
    e = _err("####\n#@ #\n####")
    assert "no boxes" in str(e) and e.line == 1


def test_rejects_player_not_enclosed():
    e = _err("#####\n #$.#\n@####")
    assert "player" in str(e) and "not enclosed" in str(e) and (e.line, e.column) == (3, 1)


def test_rejects_box_not_enclosed():
    e = _err("#####\n#@$.#\n#####\n  $.")
    assert "box" in str(e) and "not enclosed" in str(e) and (e.line, e.column) == (4, 3)


def test_rejects_levels_above_size_limit():
    row = "#" * (MAX_SIDE + 1)
    text = "\n".join([row, "#@$." + " " * (MAX_SIDE - 4) + "#", row])
    e = _err("; big\n" + text)
    assert f"limit is {MAX_SIDE}x{MAX_SIDE}" in str(e) and e.line == 2


def test_rejects_text_without_level_or_with_two():
    assert "no level" in str(_err("; just a comment\n"))
    assert "found 2" in str(_err("####\n#@$.#\n#####\n\n#####\n#@$.#\n#####"))


def test_direct_construction_is_validated():
    with pytest.raises(LevelFormatError, match="inside a wall"):
        Level(3, 3, walls={(1, 1)}, goals={(1, 1)}, boxes={(1, 1)}, player=(0, 0))


@st.composite
def levels(draw):
    w = draw(st.integers(4, 9))
    h = draw(st.integers(4, 9))
    inner = [(x, y) for x in range(1, w - 1) for y in range(1, h - 1)]
    border = {(x, y) for x in range(w) for y in range(h)} - set(inner)
    free = draw(st.permutations(inner))
    n_walls = draw(st.integers(0, max(0, len(inner) - 3)))
    walls = border | set(free[:n_walls])
    rest = free[n_walls:]
    n_boxes = draw(st.integers(1, max(1, (len(rest) - 1) // 2)))
    boxes = set(rest[1:1 + n_boxes])
    goals = set(draw(st.permutations(rest))[:n_boxes])
    title = draw(st.text("abc 12", max_size=5)).strip()
    comments = tuple(c.strip() for c in draw(st.lists(st.text("xyz 9'", max_size=6), max_size=2)))
    return Level(w, h, walls, goals, boxes, rest[0], title, comments)


@given(levels())
@settings(max_examples=200, deadline=None)
def test_xsb_round_trip_is_exact(level):
    assert Level.from_xsb(level.to_xsb()) == level
    assert Level.from_xsb(level.to_xsb()).to_xsb() == level.to_xsb()


@given(levels())
@settings(max_examples=100, deadline=None)
def test_arrays_round_trip(level):
    walls, goals, boxes, player = level.arrays()
    assert walls.dtype == np.uint8 and walls.shape == (level.width * level.height,)
    back = Level.from_arrays(level.width, level.height, walls, goals, boxes, player,
                             level.title, level.comments)
    assert back == level


# ---------------------------------------------------------------- text vs file
def test_read_xsb_takes_text_only_and_load_xsb_takes_paths(tmp_path):
    with pytest.raises(LevelFormatError, match="no level"):
        read_xsb("")
    with pytest.raises(LevelFormatError, match="no player"):
        read_xsb("#####")  # one line is text, never a path
    with pytest.raises(TypeError, match="load_xsb"):
        read_xsb(tmp_path / "x.xsb")


def test_load_xsb_errors_name_the_file(tmp_path):
    missing = tmp_path / "missing.xsb"
    with pytest.raises(LevelFormatError, match="missing.xsb: .*cannot read|cannot read .*missing"):
        load_xsb(missing)
    empty = tmp_path / "empty.xsb"
    empty.write_bytes(b"")
    with pytest.raises(LevelFormatError, match=r"empty\.xsb: no level"):
        load_xsb(empty)
    with pytest.raises(LevelFormatError, match="cannot read"):
        load_xsb(tmp_path)  # a directory


def test_load_xsb_refuses_non_utf8_and_names_utf16(tmp_path):
    latin = tmp_path / "latin.xsb"
    latin.write_bytes("; caf\u00e9\n#####\n#@$.#\n#####\n".encode("latin-1"))
    with pytest.raises(LevelFormatError, match="not UTF-8 text: byte 5 is 0xe9"):
        load_xsb(latin)
    wide = tmp_path / "wide.xsb"
    wide.write_text("#####\n#@$.#\n#####\n", encoding="utf-16")
    with pytest.raises(LevelFormatError, match="UTF-16"):
        load_xsb(wide)


def test_utf8_byte_order_mark_is_accepted(tmp_path):
    path = tmp_path / "bom.xsb"
    path.write_bytes(b"\xef\xbb\xbf#####\n#@$.#\n#####\n")
    assert load_xsb(path)[0] == Level.from_xsb("#####\n#@$.#\n#####")
    assert read_xsb("\ufeff#####\n#@$.#\n#####")[0].player == (1, 1)


def test_format_errors_in_a_file_keep_line_and_column(tmp_path):
    path = tmp_path / "bad.xsb"
    path.write_text("; t\n#####\n#@$x#\n#####\n", encoding="utf-8")
    with pytest.raises(LevelFormatError) as info:
        load_xsb(path)
    assert (info.value.line, info.value.column) == (3, 4)
    assert str(info.value).startswith(f"{path}: line 3, column 4: ")
