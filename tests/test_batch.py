import json
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import pytest

from levelforge import BatchItemError, ConfigError, batch
from levelforge.seeding import item_seed

from batch_toys import Toy

HERE = os.path.dirname(__file__)


def _values(results):
    return [(r.seed, r.value) for r in results]


def test_items_get_seeds_from_root_seed_and_index():
    results = list(batch.generate(Toy(), 25, seed=5))
    assert [r.seed for r in results] == [item_seed(5, i) for i in range(25)]


@pytest.mark.parametrize("chunk_size", [1, 3, 7, 100, None])
def test_same_items_whatever_the_chunking(chunk_size):
    expected = _values(batch.generate(Toy(), 40, seed=9, chunk_size=1))
    assert _values(batch.generate(Toy(), 40, seed=9, chunk_size=chunk_size)) == expected


def test_same_items_on_two_processes():
    expected = _values(batch.generate(Toy(), 60, seed=3))
    with ProcessPoolExecutor(2) as pool:
        assert _values(batch.generate(Toy(), 60, seed=3, executor=pool, chunk_size=4)) == expected


def test_start_skips_items_for_resuming():
    full = _values(batch.generate(Toy(), 30, seed=2))
    assert _values(batch.generate(Toy(), 30, seed=2, start=17)) == full[17:]


def test_failing_item_reports_its_seed_after_earlier_items():
    gen = Toy(fail_below=100)  # about 1 item in 10 fails
    seeds = [item_seed(1, i) for i in range(200)]
    first_bad = next(i for i, s in enumerate(seeds) if s % 1000 < 100)
    got = []
    with pytest.raises(BatchItemError) as info:
        for r in batch.generate(gen, 200, seed=1, chunk_size=5):
            got.append(r)
    assert info.value.index == first_bad and info.value.seed == seeds[first_bad]
    assert "ValueError" in str(info.value) and str(seeds[first_bad]) in str(info.value)
    assert len(got) == first_bad


def test_failing_item_in_a_worker_process_reports_its_seed():
    gen = Toy(fail_below=100)
    seeds = [item_seed(1, i) for i in range(200)]
    first_bad = next(i for i, s in enumerate(seeds) if s % 1000 < 100)
    with ProcessPoolExecutor(2) as pool, pytest.raises(BatchItemError) as info:
        list(batch.generate(gen, 200, seed=1, executor=pool, chunk_size=5))
    assert info.value.seed == seeds[first_bad]


def test_worker_crash_fails_loudly():
    from concurrent.futures.process import BrokenProcessPool
    with ProcessPoolExecutor(1) as pool, pytest.raises(BrokenProcessPool):
        list(batch.generate(_Crash(), 4, seed=1, executor=pool))


class _Crash(Toy):
    def generate(self, seed):
        os._exit(3)


@pytest.mark.parametrize("bad", [dict(count=-1), dict(count=1.5), dict(chunk_size=0),
                                 dict(seed=-3), dict(start=99)])
def test_bad_arguments_are_rejected(bad):
    args = dict(count=10, seed=1) | bad
    with pytest.raises(ConfigError):
        list(batch.generate(Toy(), **args))


def test_object_without_protocol_is_rejected():
    with pytest.raises(ConfigError, match="generate"):
        list(batch.generate(object(), 3, seed=1))


def _run(path, **kw):
    args = dict(count=50, seed=11, show_progress=False) | kw
    return batch.run(kw.pop("gen", Toy()), path=str(path), **{k: v for k, v in args.items()
                                                              if k != "gen"})


def test_run_writes_one_record_a_line_with_metadata(tmp_path):
    s = _run(tmp_path / "a.jsonl")
    lines = (tmp_path / "a.jsonl").read_text().splitlines()
    assert s.items == s.total == 50 and len(lines) == 50
    rec = [json.loads(line) for line in lines]
    assert [r["index"] for r in rec] == list(range(50))
    assert rec[7]["seed"] == item_seed(11, 7) and rec[7]["config"] == {"modulus": 1000}
    assert "elapsed_ms" in rec[0]
    assert s.figures["mean value"] == pytest.approx(sum(r["value"] for r in rec) / 50)
    assert s.ms_p50 <= s.ms_p95 <= s.ms_max


def test_no_timings_gives_byte_identical_files_across_chunkings_and_processes(tmp_path):
    ref = tmp_path / "ref.jsonl"
    _run(ref, timings=False, chunk_size=1)
    for k, chunk in enumerate([2, 9, None]):
        p = tmp_path / f"c{k}.jsonl"
        _run(p, timings=False, chunk_size=chunk)
        assert p.read_bytes() == ref.read_bytes()
    with ProcessPoolExecutor(2) as pool:
        p = tmp_path / "pool.jsonl"
        _run(p, timings=False, executor=pool, chunk_size=3)
        assert p.read_bytes() == ref.read_bytes()


def test_timings_are_the_only_difference_between_runs(tmp_path):
    _run(tmp_path / "a.jsonl")
    _run(tmp_path / "b.jsonl", chunk_size=4)
    a = [batch.strip_timings(json.loads(x)) for x in (tmp_path / "a.jsonl").read_text().split("\n") if x]
    b = [batch.strip_timings(json.loads(x)) for x in (tmp_path / "b.jsonl").read_text().split("\n") if x]
    assert a == b


def test_truncated_last_line_is_repaired(tmp_path):
    ref, p = tmp_path / "ref.jsonl", tmp_path / "cut.jsonl"
    _run(ref, timings=False)
    data = ref.read_bytes()
    p.write_bytes(data[:-25])  # cut inside the last record
    s = _run(p, timings=False)
    assert p.read_bytes() == data
    assert s.resumed_from == 49 and s.items == 1 and s.repaired_bytes > 0


def test_complete_file_is_left_alone(tmp_path):
    p = tmp_path / "a.jsonl"
    _run(p, timings=False)
    before = p.read_bytes()
    s = _run(p, timings=False)
    assert s.items == 0 and p.read_bytes() == before


def test_file_of_another_seed_is_refused_and_unchanged(tmp_path):
    p = tmp_path / "a.jsonl"
    _run(p, count=10)
    before = p.read_bytes()
    with pytest.raises(ConfigError, match="another --seed"):
        _run(p, count=20, seed=12)
    with pytest.raises(ConfigError, match="configuration"):
        _run(p, count=20, gen=Toy(modulus=7))
    assert p.read_bytes() == before


def test_keyboard_interrupt_leaves_a_valid_resumable_file(tmp_path):
    ref, p = tmp_path / "ref.jsonl", tmp_path / "int.jsonl"
    _run(ref, timings=False, count=200)
    values = [item_seed(11, i) % 1000 for i in range(200)]
    stop = values[120]
    s = _run(p, timings=False, count=200, chunk_size=7, gen=Toy(interrupt_at=stop))
    assert s.interrupted and s.total == values.index(stop)
    lines = p.read_text().split("\n")
    assert lines[-1] == "" and all(json.loads(x) for x in lines[:-1])
    _run(p, timings=False, count=200)
    assert p.read_bytes() == ref.read_bytes()


_KILL_SCRIPT = """
import sys
sys.path.insert(0, {here!r})
from levelforge import batch
from batch_toys import Toy
batch.run(Toy(sleep_ms=2), 400, seed=4, path={path!r}, chunk_size=5, timings=False,
          show_progress=False)
"""


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_resume_after_the_process_is_killed_gives_the_identical_file(tmp_path, sig):
    ref, p = tmp_path / "ref.jsonl", tmp_path / "killed.jsonl"
    batch.run(Toy(), 400, seed=4, path=str(ref), timings=False, show_progress=False)
    proc = subprocess.Popen([sys.executable, "-c", _KILL_SCRIPT.format(here=HERE, path=str(p))])
    deadline = time.time() + 60
    while time.time() < deadline and (not p.exists() or p.stat().st_size < 2000):
        time.sleep(0.01)
    proc.send_signal(sig)
    proc.wait(timeout=60)
    partial = p.read_bytes()
    assert 0 < len(partial) < len(ref.read_bytes())
    s = batch.run(Toy(), 400, seed=4, path=str(p), timings=False, show_progress=False)
    assert s.resumed_from > 0
    assert p.read_bytes() == ref.read_bytes()


def test_dask_cluster_gives_the_byte_identical_file(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    ref, p = tmp_path / "ref.jsonl", tmp_path / "dask.jsonl"
    _run(ref, timings=False, count=120)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        client.run(sys.path.insert, 0, HERE)  # workers import the toy generator from tests/
        _run(p, timings=False, count=120, executor=client.get_executor(), chunk_size=8)
    assert p.read_bytes() == ref.read_bytes()


# ------------------------------------------------------------------ Sokoban output
def _sokoban():
    from levelforge.sokoban import Generator
    return Generator(width=7, height=7, boxes=2, pushes=(4, 8))


def test_sokoban_xsb_file_reads_back_as_the_generated_levels(tmp_path):
    from levelforge.sokoban import load_xsb, replay
    p = tmp_path / "levels.xsb"
    s = batch.run(_sokoban(), 30, seed=8, path=str(p), show_progress=False)
    levels = load_xsb(p)
    results = list(batch.generate(_sokoban(), 30, seed=8))
    assert [lv.title for lv in levels] == [str(i) for i in range(30)]
    assert [(lv.walls, lv.goals, lv.boxes, lv.player) for lv in levels] == \
        [(r.level.walls, r.level.goals, r.level.boxes, r.level.player) for r in results]
    for lv, r in zip(levels, results):
        assert f"item {results.index(r)} seed {r.seed} rows {lv.height}" in lv.comments
        assert f"pushes {r.pushes} moves {len(r.solution)}" in lv.comments
        assert f"solution {r.solution}" in lv.comments
        assert replay(lv, r.solution).is_solved
    assert 0.0 <= s.figures["in_target_share"] <= 1.0


def test_sokoban_xsb_truncated_mid_board_is_repaired(tmp_path):
    ref, p = tmp_path / "ref.xsb", tmp_path / "cut.xsb"
    batch.run(_sokoban(), 12, seed=2, path=str(ref), timings=False, show_progress=False)
    data = ref.read_bytes()
    for cut in (3, 12, 30):  # inside the blank line, the last rows, the board's middle
        p.write_bytes(data[:-cut])
        s = batch.run(_sokoban(), 12, seed=2, path=str(p), timings=False, show_progress=False)
        assert p.read_bytes() == data and s.resumed_from == 11 and s.repaired_bytes > 0


def test_sokoban_in_process_two_processes_and_dask_give_identical_files(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    files = {}
    for name in ("inproc", "pool", "dask"):
        files[name] = tmp_path / f"{name}.jsonl"
    batch.run(_sokoban(), 80, seed=21, path=str(files["inproc"]), timings=False,
              show_progress=False)
    with ProcessPoolExecutor(2) as pool:
        batch.run(_sokoban(), 80, seed=21, path=str(files["pool"]), executor=pool,
                  chunk_size=6, timings=False, show_progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        batch.run(_sokoban(), 80, seed=21, path=str(files["dask"]),
                  executor=client.get_executor(), chunk_size=9, timings=False,
                  show_progress=False)
    ref = files["inproc"].read_bytes()
    assert files["pool"].read_bytes() == ref and files["dask"].read_bytes() == ref


def test_cli_batch_sokoban_resumes_to_the_same_file(tmp_path):
    from levelforge.cli import main
    ref, p = tmp_path / "ref.xsb", tmp_path / "out.xsb"
    args = ["batch", "sokoban", "--count", "20", "--seed", "3", "--no-timings",
            "--no-progress", "--jobs", "1"]
    assert main(args + ["-o", str(ref)]) == 0
    assert main(args[:3] + ["12"] + args[4:] + ["-o", str(p)]) == 0
    assert main(args + ["-o", str(p)]) == 0
    assert p.read_bytes() == ref.read_bytes()


def test_cli_batch_unknown_config_key_lists_the_valid_keys(tmp_path, capsys):
    from levelforge.cli import main
    code = main(["batch", "sokoban", "--count", "2", "--config", '{"wdith": 1}',
                 "-o", str(tmp_path / "x.jsonl")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "unknown key 'wdith'" in err and "valid keys: width, height, boxes" in err
    assert not (tmp_path / "x.jsonl").exists()


def test_symmetry_in_process_and_two_processes_give_identical_files(tmp_path):
    from levelforge.symmetry import Generator as Symmetry, Puzzle
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    batch.run(Symmetry(5), 8, seed=4, path=str(a), timings=False, show_progress=False)
    with ProcessPoolExecutor(2) as pool:
        batch.run(Symmetry(5), 8, seed=4, path=str(b), executor=pool, chunk_size=3,
                  timings=False, show_progress=False)
    assert a.read_bytes() == b.read_bytes()
    puzzles = [Puzzle.from_json(line) for line in a.read_text().splitlines()]
    assert [p.seed for p in puzzles] == [item_seed(4, i) for i in range(8)]
    assert all(p.check(p.solution) for p in puzzles)


def test_run_streams_records_to_stdout_for_dash(tmp_path, capfdbinary):
    ref = tmp_path / "ref.jsonl"
    _run(ref, timings=False, count=12)
    capfdbinary.readouterr()
    s = batch.run(Toy(), 12, seed=11, path="-", timings=False, show_progress=False)
    out = capfdbinary.readouterr().out
    assert out == ref.read_bytes() and s.total == 12 and s.resumed_from == 0


def test_cli_scheduler_option_runs_on_a_dask_cluster(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    from levelforge.cli import main
    ref, p = tmp_path / "ref.jsonl", tmp_path / "dask.jsonl"
    args = ["batch", "sokoban", "--count", "30", "--seed", "5", "--no-timings", "--no-progress"]
    assert main(args + ["--jobs", "1", "-o", str(ref)]) == 0
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        assert main(args + ["--scheduler", cluster.scheduler_address, "-o", str(p)]) == 0
    assert p.read_bytes() == ref.read_bytes()
