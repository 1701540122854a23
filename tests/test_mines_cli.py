"""``levelforge mines play`` with a scripted stdin, and ``levelforge mines autoplay``."""
import io
import json

import numpy as np

from levelforge.cli import main as levelforge_main
from levelforge.engine import mines as K
from levelforge.mines import Game
from levelforge.mines.cli import main


def _run(monkeypatch, capsys, argv, script=""):
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    rc = main(argv)
    return rc, capsys.readouterr().out


def test_play_reads_commands_from_stdin(monkeypatch, capsys):
    script = "help\nopen 3 3 0\nhint\nshow 1\nflag 0 0 0\nflag 0 0 0\ncode\nopen 3 3 3 3\n" \
             "open 3 3 0\nbogus\nquit\nopen 0 0 0\n"
    rc, out = _run(monkeypatch, capsys, ["play", "--level", "normal", "--seed", "1"], script)
    assert rc == 0
    assert "commands (cells are x y z" in out
    assert "opened " in out and "assistant: " in out and "z=1" in out
    assert "flagged (0, 0, 0)" in out and "unflagged (0, 0, 0)" in out
    assert "seed=1&level=normal&start=3,3,0" in out
    assert "illegal: a cell is three integers" in out
    assert "illegal: open: cell (3, 3, 0) is already open" in out
    assert "unknown command 'bogus'" in out
    assert out.count("opened ") == 1          # nothing read after quit


def test_play_to_a_win_and_a_loss(monkeypatch, capsys):
    game = Game("6x6x1-4", seed=2)
    game.open((0, 0, 0))
    safe = np.flatnonzero((game._mine == 0) & (game.observe().state.reshape(-1) == K.CLOSED))
    obs = game.observe()
    script = "open 0 0 0\n" + "".join("open %d %d\n" % obs.cell_of(i)[:2] for i in safe)
    _, out = _run(monkeypatch, capsys, ["play", "--level", "6x6x1-4", "--seed", "2"], script)
    assert "you win!" in out and "won" in out
    mine = obs.cell_of(int(np.flatnonzero(game._mine)[0]))
    _, out = _run(monkeypatch, capsys, ["play", "--share", game.share_code()],
                  "open %d %d %d\n" % mine)
    assert "BOOM" in out and "game over" in out and "X" in out and "*" in out


def test_autoplay_prints_rates_and_json(monkeypatch, capsys):
    rc, out = _run(monkeypatch, capsys, ["autoplay", "--level", "easy", "--games", "12",
                                         "--seed", "4", "--json", "--quiet"])
    summary = json.loads(out)
    assert rc == 0 and summary["games"] == 12
    assert summary["won"] + summary["stuck"] + summary["contradiction"] + summary["lost"] == 12
    assert summary["lost"] == 0 and summary["contradiction"] == 0
    assert summary["win_rate"] == summary["won"] / 12
    _, again = _run(monkeypatch, capsys, ["autoplay", "--level", "easy", "--games", "12",
                                          "--seed", "4", "--json", "--quiet"])
    assert json.loads(again)["won"] == summary["won"]           # reproducible
    rc, table = _run(monkeypatch, capsys, ["autoplay", "--level", "9x9-10", "--games", "3",
                                           "--quiet", "--start", "4,4,0"])
    assert "| 9x9x1-10 | 3 |" in table


def test_bad_arguments_exit_2(capsys):
    assert levelforge_main(["mines", "autoplay", "--level", "zz", "--quiet"]) == 2
    assert "unknown level" in capsys.readouterr().err
    assert levelforge_main(["mines", "autoplay", "--games", "0"]) == 2
    assert levelforge_main(["mines", "play", "--share", "seed=1&level=easy"]) == 2


def test_no_guess_play_rates_the_board_and_hints_complete(monkeypatch, capsys):
    script = "rate\nopen 15 8 0\nrate\nhint complete\ncode\nquit\n"
    rc, out = _run(monkeypatch, capsys, ["play", "--level", "30x16x1-99", "--seed", "3",
                                         "--no-guess"], script)
    assert rc == 0 and "no guessing needed" in out
    assert "illegal: rating: open the first cell first" in out
    assert "certain moves win from the first open" in out
    assert "seed=3&level=30x16x1-99&start=15,8,0&no_guess=1" in out
    assert "assistant: moves" in out
    _, out = _run(monkeypatch, capsys, ["play", "--share",
                                        "seed=3&level=30x16x1-99&start=15,8,0&no_guess=1"],
                  "rate\nquit\n")
    assert "certain moves win from the first open" in out


def test_autoplay_no_guess_complete_wins_every_game(monkeypatch, capsys):
    rc, out = _run(monkeypatch, capsys, ["autoplay", "--level", "normal", "--games", "20",
                                         "--no-guess", "--complete", "--json", "--quiet"])
    summary = json.loads(out)
    assert rc == 0 and summary["won"] == 20 and summary["no_guess"] is True
    assert summary["assistant"]["complete"] is True
    _, out = _run(monkeypatch, capsys, ["autoplay", "--level", "9x9-10", "--games", "20",
                                        "--guess", "best", "--json", "--quiet"])
    summary = json.loads(out)
    assert summary["stuck"] == 0 and summary["won"] + summary["lost"] == 20
    assert summary["guesses_per_game"] > 0
    assert levelforge_main(["mines", "autoplay", "--no-guess", "hard", "--quiet"]) == 2


def test_autoplay_says_it_compiles_before_the_progress_bar(monkeypatch, capsys):
    """A first run compiles in the warm-up game, under the compile notice, before the bar
    (a kernel never compiled before stands in for a cold cache)."""
    from numba import njit

    from levelforge.mines import autoplay

    calls = []

    def play(game, assistant=None, **kw):
        if not calls:
            @njit(cache=False)
            def twice(x):
                return 2 * x
            twice(3)
        calls.append(game.level.name)
        return autoplay(game, assistant, **kw)

    monkeypatch.setattr("levelforge.mines.cli.autoplay", play)
    assert levelforge_main(["mines", "autoplay", "--level", "easy", "--games", "2"]) == 0
    err = capsys.readouterr().err
    notice = err.find("compiling kernels, first run only")
    assert notice >= 0 and err.count("compiling kernels") == 1
    assert notice < err.find("autoplay:")
    assert calls == ["5x5x1-3", "easy", "easy"]          # the warm-up game comes first
