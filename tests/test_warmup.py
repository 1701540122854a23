"""The first run must not look hung (issue 9, part 4): a notice when Numba compiles,
compile time kept out of the rate and the summary, ``levelforge warm-up``."""
import io
import time

from numba import njit

from levelforge import batch
from levelforge.cli import main
from levelforge.compile_notice import CompileNotice

from batch_toys import Toy


def _fresh_kernel():
    @njit(cache=False)  # a new function: Numba must compile it on its first call
    def twice(x):
        return 2 * x
    return twice


def test_compile_notice_is_printed_once_when_numba_compiles():
    out = io.StringIO()
    kernel = _fresh_kernel()
    with CompileNotice(stream=out) as notice:
        assert kernel(3) == 6 and kernel(4.5) == 9.0  # two compilations, one notice
    assert notice.compiled and out.getvalue().count("compiling kernels, first run only") == 1
    out = io.StringIO()
    with CompileNotice(stream=out) as again:
        kernel(5)
    assert not again.compiled and out.getvalue() == ""


class _Compiling(Toy):
    """A toy whose warm-up compiles a kernel, then takes a while longer."""

    def warm_up(self):
        _fresh_kernel()(1)
        time.sleep(0.3)


def test_compile_time_is_kept_out_of_the_rate_and_the_summary(tmp_path, capsys):
    s = batch.run(_Compiling(modulus=997), 20, seed=1, path=str(tmp_path / "a.jsonl"))
    err = capsys.readouterr().err
    assert err.index("compiling kernels, first run only") < err.index("a.jsonl:")  # before the bar
    assert s.compiled and s.warm_up_seconds >= 0.3 > s.seconds
    assert s.items_per_second == s.items / s.seconds
    assert any(line.startswith("kernels compiled in") for line in s.lines())


def test_no_notice_when_nothing_is_compiled(tmp_path, capsys):
    s = batch.run(Toy(modulus=996), 5, seed=1, path=str(tmp_path / "a.jsonl"))
    assert not s.compiled and "compiling" not in capsys.readouterr().err
    assert not any("compiled" in line for line in s.lines())


def test_warm_up_command_reports_each_system(capsys):
    assert main(["warm-up", "defense"]) == 0
    err = capsys.readouterr().err
    assert "defense: compiled in" in err or "defense: loaded from the cache in" in err
    assert main(["warm-up", "chess"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown system 'chess'" in err


def test_every_command_says_when_it_compiles(tmp_path, capsys):
    from levelforge.defense import cli as defense_cli
    kernel = _fresh_kernel()
    original = defense_cli.render
    defense_cli.render = lambda d: str(kernel(21))  # a command whose run compiles a kernel
    try:
        assert main(["defense", "show"]) == 0
    finally:
        defense_cli.render = original
    captured = capsys.readouterr()
    assert captured.out.strip() == "42"
    assert captured.err.count("compiling kernels, first run only") == 1
