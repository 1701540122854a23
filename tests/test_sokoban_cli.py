import pytest

from levelforge.cli import main as levelforge_main
from levelforge.seeding import item_seed
from levelforge.sokoban import collections, load_xsb, replay, solve


def test_generate_writes_levels_with_seed_pushes_and_ms_comments(tmp_path, capsys):
    out = tmp_path / "levels.xsb"
    code = levelforge_main(["sokoban", "generate", "--count", "5", "--seed", "7", "--width",
                            "8", "--height", "7", "--boxes", "3", "--pushes", "5-9",
                            "-o", str(out)])
    assert code == 0
    err = capsys.readouterr().err
    assert "levels.xsb" in err and "5 items this run" in err  # progress bar and summary
    levels = load_xsb(out)
    assert len(levels) == 5
    for i, lv in enumerate(levels):
        notes = dict(c.split(" ", 1) for c in lv.comments if not c.startswith("levelforge"))
        assert set(notes) >= {"item", "pushes", "solution", "ms"}
        assert notes["item"].split()[:3] == [str(i), "seed", str(item_seed(7, i))]
        assert float(notes["ms"]) > 0
        pushes = int(notes["pushes"].split()[0])
        assert 5 <= pushes <= 9
        assert (lv.width, lv.height, len(lv.boxes)) == (8, 7, 3)
        assert replay(lv, notes["solution"]).is_solved
        assert solve(lv).pushes == pushes


def test_generate_is_reproducible_from_the_root_seed(tmp_path):
    a, b = tmp_path / "a.xsb", tmp_path / "b.xsb"
    for path in (a, b):
        assert levelforge_main(["sokoban", "generate", "--count", "3", "--seed", "11",
                                "--no-progress", "-o", str(path)]) == 0
    strip = [lv.replace(comments=()) for lv in load_xsb(a)]
    assert strip == [lv.replace(comments=()) for lv in load_xsb(b)]


def test_solve_prints_status_pushes_moves_solution_and_ms(tmp_path, capsys):
    path = tmp_path / "two.xsb"
    path.write_text("; one\n\n######\n#@$ .#\n######\n\n; two\n\n#####\n#$ .#\n#@  #\n#####\n")
    assert levelforge_main(["sokoban", "solve", str(path), "--level", "1"]) == 0
    out = capsys.readouterr().out
    assert "level 1 (one): solved pushes=2 moves=2" in out and "ms=" in out
    assert out.splitlines()[1].strip() == "RR"
    assert levelforge_main(["sokoban", "solve", str(path)]) == 1  # level 2 is unsolvable
    out = capsys.readouterr().out
    assert "level 2 (two): unsolvable pushes=None" in out


@pytest.mark.parametrize("argv, message", [
    (["generate", "--pushes", "9-3"], "lo must not exceed hi, got 9-3"),
    (["generate", "--width", "99"], "width"),
    (["solve", "missing.xsb"], "cannot read"),
])
def test_bad_input_exits_2_with_a_message(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert levelforge_main(["sokoban", *argv]) == 2
    assert message in capsys.readouterr().err


def test_level_number_out_of_range_exits_2(tmp_path, capsys):
    path = tmp_path / "one.xsb"
    path.write_text("#####\n#@$.#\n#####\n")
    assert levelforge_main(["sokoban", "solve", str(path), "--level", "4"]) == 2
    assert capsys.readouterr().err.rstrip().endswith("holds 1 level")  # "1 level", not "1 levels"


def test_solve_optimize_shortens_any_mode_solutions(tmp_path, capsys):
    """``--any --optimize`` prints a shorter solution than ``--any`` (Microban 4: 11
    pushes found, 7 after shortening, the push-optimal solver's count), and it replays;
    ``--optimize`` without ``--any`` is refused."""
    level = collections.load("microban")[3]
    path = tmp_path / "four.xsb"
    path.write_text(level.to_xsb())

    def pushes(*flags):
        assert levelforge_main(["sokoban", "solve", str(path), *flags]) == 0
        head, solution = capsys.readouterr().out.splitlines()[:2]
        assert replay(level, solution.strip()).is_solved
        return int(head.split("pushes=")[1].split()[0])

    plain, short = pushes("--any"), pushes("--any", "--optimize")
    assert short < plain
    assert short == solve(level).pushes
    assert levelforge_main(["sokoban", "solve", str(path), "--optimize"]) == 2
    assert "--optimize shortens the solutions of --any" in capsys.readouterr().err
