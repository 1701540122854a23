"""One line, no traceback, exit code 2 for every bad input; the small things a user notices
(issue 9, parts 5 and 6)."""
import inspect
import json
import glob
import os
import re
import socket
import subprocess
import sys
import time
from fnmatch import fnmatch

import pytest

from levelforge import ConfigError, InvalidMoveError, __version__, batch
from levelforge.cli import main

from batch_toys import Toy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LATIN1 = "; caf\u00e9\n#####\n#@$.#\n#####\n".encode("latin-1")


def _one_line_error(capsys, argv, code=2):
    """Run the CLI; assert it exits with ``code`` after exactly one line on stderr."""
    got = main(argv)
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if x.strip()]
    assert got == code and len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("content, words", [
    (b"", "no level"),
    (b"#####\n", "no player"),  # one line of XSB is a board, never a path
    (LATIN1, "not UTF-8 text: byte 5 is 0xe9"),
    ("#####\n#@$.#\n#####\n".encode("utf-16"), "UTF-16"),
])
def test_sokoban_solve_bad_files_give_one_line_and_exit_2(tmp_path, capsys, content, words):
    path = tmp_path / "bad.xsb"
    path.write_bytes(content)
    line = _one_line_error(capsys, ["sokoban", "solve", str(path)])
    assert words in line and str(path) in line


def test_utf8_byte_order_mark_is_accepted_everywhere(tmp_path, capsys):
    from levelforge.defense import Scenario
    from levelforge.symmetry import generate
    xsb = tmp_path / "bom.xsb"
    xsb.write_bytes(b"\xef\xbb\xbf#####\n#@$.#\n#####\n")
    assert main(["sokoban", "solve", str(xsb)]) == 0
    puzzles = tmp_path / "bom.jsonl"
    puzzles.write_bytes(b"\xef\xbb\xbf" + generate(3, seed=1).to_json().encode() + b"\n")
    assert main(["symmetry", "show", str(puzzles)]) == 0
    scenario = tmp_path / "bom.json"
    scenario.write_bytes(b"\xef\xbb\xbf" + json.dumps(Scenario.lighthouse().to_dict()).encode())
    assert main(["defense", "show", "--scenario", str(scenario)]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16"])
def test_symmetry_show_and_defense_scenario_refuse_non_utf8_with_one_line(tmp_path, capsys,
                                                                          encoding):
    from levelforge.symmetry import generate
    puzzles = tmp_path / "p.jsonl"
    puzzles.write_bytes((generate(3, seed=1).to_json() + ' \u00e9\n').encode(encoding))
    assert "not UTF-8 text" in _one_line_error(capsys, ["symmetry", "show", str(puzzles)])
    scenario = tmp_path / "s.toml"
    scenario.write_bytes('name = "caf\u00e9"\n'.encode(encoding))
    line = _one_line_error(capsys, ["defense", "show", "--scenario", str(scenario)])
    assert "not UTF-8 text" in line and str(scenario) in line


@pytest.mark.parametrize("target", ["missing/x", "."])
@pytest.mark.parametrize("argv", [
    ["sokoban", "generate", "--count", "2"],
    ["symmetry", "generate", "--size", "3"],
    ["batch", "sokoban", "--count", "2", "--jobs", "1"],
])
def test_unwritable_output_gives_one_line_and_exit_2(tmp_path, capsys, monkeypatch, argv,
                                                     target):
    monkeypatch.chdir(tmp_path)
    line = _one_line_error(capsys, argv + ["--no-progress", "-o", target])
    assert ("No such file or directory" in line) if target != "." else ("directory" in line)


@pytest.mark.parametrize("name", ["missing.json", "folder"])
def test_config_file_that_cannot_be_read_gives_one_line(tmp_path, capsys, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    line = _one_line_error(capsys, ["batch", "sokoban", "--count", "2", "--config", f"@{name}",
                                    "-o", "x.jsonl"])
    assert "--config file" in line and name in line


def test_unreachable_scheduler_is_given_up_quickly_with_one_line(tmp_path, capsys):
    pytest.importorskip("dask.distributed")
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    start = time.monotonic()
    line = _one_line_error(capsys, ["batch", "sokoban", "--count", "2", "--scheduler",
                                    f"tcp://127.0.0.1:{port}", "-o", str(tmp_path / "x.jsonl")])
    # the CLI waits 5 s for the scheduler (not Dask's default 30 s); 15 s leaves margin
    assert time.monotonic() - start < 15 and "cannot reach a Dask scheduler" in line


@pytest.mark.parametrize("argv", [
    ["sokoban", "generate", "--count", "0"],
    ["symmetry", "generate", "--size", "3", "--count", "0"],
    ["batch", "sokoban", "--count", "0", "-o", "x.jsonl"],
    ["mines", "autoplay", "--games", "0"],
])
def test_count_0_is_refused_with_one_line(capsys, argv):
    assert "must be at least 1, got 0" in _one_line_error(capsys, argv)


def test_run_with_nothing_to_do_prints_no_nan(tmp_path):
    s = batch.run(Toy(), 0, seed=1, path=str(tmp_path / "a.jsonl"), show_progress=False)
    assert s.lines() == [f"{tmp_path / 'a.jsonl'}: no items to make"] and s.ms_p50 is None


def test_rerunning_a_finished_file_says_already_complete(tmp_path, capsys):
    out = str(tmp_path / "a.xsb")
    argv = ["sokoban", "generate", "--count", "3", "--no-progress", "-o", out]
    assert main(argv) == 0
    before = open(out, "rb").read()
    capsys.readouterr()
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert err.strip() == f"{out}: already complete: 3 items"
    assert open(out, "rb").read() == before


def test_singular_counts_read_one_item_and_one_box(tmp_path):
    s = batch.run(Toy(), 1, seed=1, path=str(tmp_path / "a.jsonl"), show_progress=False)
    assert s.lines()[0].endswith("1 item this run, 1 in the file")


def test_unreachable_push_range_warns_with_the_count_and_exits_1(tmp_path, capsys):
    out = tmp_path / "far.xsb"
    code = main(["sokoban", "generate", "--count", "3", "--pushes", "25-30", "--no-progress",
                 "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 1
    assert "warning: 3 of 3 levels of this run are outside the target push range 25-30" in err
    assert "unreachable" in err


def test_push_range_lo_above_hi_says_so(capsys):
    line = _one_line_error(capsys, ["sokoban", "generate", "--pushes", "9-3"])
    assert "lo must not exceed hi, got 9-3" in line


@pytest.mark.parametrize("code", ["", "seed=1&level=easy&start=2,2,0&cheat=1",
                                  "seed=1&seed=2&level=easy&start=2,2,0"])
def test_empty_or_extra_key_share_codes_are_refused(capsys, code):
    line = _one_line_error(capsys, ["mines", "play", "--share", code])
    assert "share code" in line


def test_float_coordinates_are_refused_by_one_rule_everywhere():
    import numpy as np

    from levelforge.defense import Defense, distance_field
    from levelforge.mines import Game
    from levelforge.symmetry import Board
    words = "coordinates must be integers"
    game = Game("easy", seed=1)
    with pytest.raises(InvalidMoveError, match=words):
        game.open((2.0, 2, 0))
    assert game.opened == 0
    game.open((np.int64(2), 2, 0))  # NumPy integers are integers
    with pytest.raises(ConfigError, match=words):
        Defense().check_placement(2.0, 0, "cannon")
    with pytest.raises(ConfigError, match=words):
        distance_field(np.zeros((3, 3), bool), (2.0, 0))
    with pytest.raises(ConfigError, match=words):
        Board(3, (0, 0), (2.0, 2))


def test_strategy_names_follow_one_rule_in_the_cli_and_the_api(tmp_path, capsys):
    from levelforge.symmetry import Generator
    assert Generator(3, "edge_walk").strategy.value == "EDGE_WALK"
    out = tmp_path / "p.jsonl"
    assert main(["symmetry", "generate", "--size", "3", "--strategy", "edge_walk",
                 "--no-progress", "-o", str(out)]) == 0
    assert json.loads(out.read_text())["strategy"] == "EDGE_WALK"
    capsys.readouterr()


def test_seeds_default_to_0_in_sokoban_and_symmetry_generate():
    from levelforge import sokoban, symmetry
    for fn in (sokoban.generate, symmetry.generate):
        assert inspect.signature(fn).parameters["seed"].default == 0
    assert sokoban.generate().seed == sokoban.generate(0).seed == 0
    same = [batch.strip_timings(json.loads(p.to_json())) for p in
            (symmetry.generate(3), symmetry.generate(3, seed=0))]
    assert same[0] == same[1]


def test_sokoban_generate_lists_its_options_in_its_signature():
    from levelforge import sokoban
    params = inspect.signature(sokoban.generate).parameters
    assert {"width", "height", "boxes", "pushes", "inner_walls", "spread"} <= set(params)
    assert all(p.kind != p.VAR_KEYWORD for p in params.values())
    with pytest.raises(TypeError):
        sokoban.generate(1, wdith=9)


def test_version(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0 and capsys.readouterr().out.strip() == f"levelforge {__version__}"


COMMANDS = [["sokoban", "generate"], ["sokoban", "solve"], ["symmetry", "generate"],
            ["symmetry", "show"], ["mines", "play"], ["mines", "autoplay"],
            ["defense", "show"], ["defense", "probe"], ["sokoban", "dataset"], ["play"],
            ["batch"], ["warm-up"]]


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_every_command_help_has_a_description(capsys, argv):
    with pytest.raises(SystemExit) as info:
        main(argv + ["--help"])
    out = capsys.readouterr().out
    paragraphs = out.split("\n\n")
    assert info.value.code == 0 and paragraphs[0].startswith("usage:")
    assert not paragraphs[1].startswith(("positional", "options"))  # a description first
    assert len(paragraphs[1].split()) >= 6


def test_defense_show_has_a_legend_for_every_symbol(capsys):
    assert main(["defense", "show"]) == 0
    out = capsys.readouterr().out
    legend = next(line for line in out.splitlines() if "beacon" in line)
    grid = out.split("map:")[1].split(legend)[0]
    for symbol in set(grid.split()):
        assert re.search(rf"(^|[ ,]){re.escape(symbol)}( |$)", legend.strip()), symbol


def test_mines_play_prints_a_legend_for_every_symbol(capsys):
    import io

    from levelforge.mines import Game
    from levelforge.mines.cli import LEGEND, play
    out = io.StringIO()
    play(Game("easy", seed=1), ["open 2 2 0", "open 0 0 4", "quit"], out)
    text = out.getvalue()
    assert LEGEND in text
    boards = [ln.split(None, 1)[1] for ln in text.splitlines()
              if re.match(r"^\s+\d+  ", ln)]
    for symbol in set(" ".join(boards).split()):
        if not symbol.isdigit():
            assert f"{symbol} " in LEGEND or f", {symbol}" in LEGEND, symbol


def test_symmetry_show_legend_names_every_symbol(tmp_path, capsys):
    from levelforge.symmetry import generate
    from levelforge.symmetry.cli import LEGEND, draw_puzzle
    drawing = draw_puzzle(generate(5, seed=3), solution=True).split("\n", 1)[1]  # no title
    tokens = LEGEND.split()
    for char in set(drawing) - {" ", "\n"}:
        assert any(set(token) == {char} for token in tokens), char


def test_package_is_typed():
    from importlib import resources
    assert resources.files("levelforge").joinpath("py.typed").is_file()


def test_readme_example_outputs_are_ignored_by_git():
    pages = [os.path.join(ROOT, "README.md"),
             *glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True)]
    text = "\n".join(open(p, encoding="utf-8").read() for p in pages)
    outputs = set(re.findall(r" -o ([\w.-]+(?:\.(?:xsb|jsonl|json)|/))", text))
    assert {"levels.xsb", "puzzles.jsonl", "levels.jsonl"} <= outputs
    patterns = [p.strip() for p in open(os.path.join(ROOT, ".gitignore")).read().splitlines()
                if p.strip() and not p.startswith("#")]
    for name in outputs:  # a folder (name/) is matched by its pattern /name/
        assert any(fnmatch(name, p.lstrip("/")) for p in patterns), name


def test_python_dash_m_levelforge_is_the_command():
    out = subprocess.run([sys.executable, "-m", "levelforge", "--version"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == f"levelforge {__version__}"
