"""Datasets with proofs (issue 14): Boxoban-format files with JSONL sidecars, splits,
resuming, reproducibility from the seed in a fresh process, and read_boxoban."""
import io
import json
import os
import subprocess
import sys

import pytest

from levelforge import ConfigError, LevelFormatError
from levelforge.seeding import item_seed
from levelforge.sokoban import (Generator, load_boxoban, load_xsb, read_boxoban, read_xsb,
                                replay, solve)
from levelforge.sokoban.cli import main as sokoban_main
from levelforge.sokoban.dataset import build, parse_splits

SMALL = {"width": 7, "height": 7, "boxes": 2, "pushes": [4, 8]}
BOXOBAN_ALPHABET = set("#@$. \n;0123456789")


def sidecar(path):
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def files(directory):
    return {name: open(os.path.join(directory, name), "rb").read()
            for name in sorted(os.listdir(directory))}


def test_every_sidecar_solution_replays_to_solved_with_the_stated_pushes(tmp_path):
    build(tmp_path, 40, seed=4, config={"width": 8, "height": 8, "boxes": 3},
          show_progress=False)
    levels, records = load_boxoban(tmp_path / "000.txt"), sidecar(tmp_path / "000.jsonl")
    assert len(levels) == len(records) == 40
    for number, (level, rec) in enumerate(zip(levels, records)):
        assert level.title == str(number) == str(rec["index"])
        end = replay(level, rec["solution"])
        assert end.is_solved
        assert sum(c.isupper() for c in rec["solution"]) == rec["pushes"]
        assert solve(level).pushes == rec["pushes"]  # and the pushes are optimal
        assert rec["seed"] == item_seed(4, rec["item"])
        assert rec["solve_status"] == "solved" and rec["nodes"] >= 1


def test_levels_are_their_seeds_levels(tmp_path):
    build(tmp_path, 10, seed=9, config=SMALL, show_progress=False)
    gen = Generator(**SMALL)
    for level, rec in zip(load_boxoban(tmp_path / "000.txt"), sidecar(tmp_path / "000.jsonl")):
        made = gen.generate(rec["seed"]).level
        assert (made.walls, made.goals, made.boxes, made.player) == \
            (level.walls, level.goals, level.boxes, level.player)


def test_dataset_is_reproducible_from_its_seed_in_a_fresh_process(tmp_path):
    here = tmp_path / "here"
    build(here, 30, seed=21, config=SMALL, timings=False, show_progress=False)
    there = tmp_path / "there"
    code = ("import sys; from levelforge.cli import main; sys.exit(main(sys.argv[1:]))")
    subprocess.run([sys.executable, "-c", code, "sokoban", "dataset", "--count", "30",
                    "--seed", "21", "--config", json.dumps(SMALL), "--jobs", "2",
                    "--chunk-size", "4", "--no-timings", "--no-progress", "-o", str(there)],
                   check=True, capture_output=True)
    assert files(here) == files(there)


def test_a_dask_cluster_writes_the_same_dataset(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    build(tmp_path / "here", 12, seed=5, config=SMALL, timings=False, show_progress=False)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        build(tmp_path / "dask", 12, seed=5, config=SMALL, timings=False, chunk_size=5,
              executor=client.get_executor(), show_progress=False)
    assert files(tmp_path / "dask") == files(tmp_path / "here")


def test_files_hold_1000_levels_each(tmp_path):
    config = {"width": 5, "height": 5, "boxes": 1, "pushes": [1, 3]}
    assert build(tmp_path, 1000, seed=1, config=config, show_progress=False).total == 1000
    summary = build(tmp_path, 1003, seed=1, config=config, show_progress=False)  # extend
    assert summary.total == 1003 and summary.written == 3
    first, second = load_boxoban(tmp_path / "000.txt"), load_boxoban(tmp_path / "001.txt")
    assert len(first) == 1000 and [lv.title for lv in second] == ["0", "1", "2"]
    items = [r["item"] for r in sidecar(tmp_path / "000.jsonl") + sidecar(tmp_path / "001.jsonl")]
    assert items == sorted(items) and len(set(items)) == 1003


def test_boxoban_files_use_boxobans_alphabet_only(tmp_path):
    summary = build(tmp_path, 60, seed=3, config=SMALL, show_progress=False)
    text = (tmp_path / "000.txt").read_text()
    assert set(text) <= BOXOBAN_ALPHABET
    rows = [ln for ln in text.splitlines() if ln and not ln.startswith(";")]
    assert all(len(r) == 7 for r in rows)  # full-width rows, as Boxoban's
    skipped = summary.skipped["not in Boxoban's alphabet"]
    assert summary.items == 60 + skipped
    # the XSB format keeps every item
    xsb = build(tmp_path / "x", 60, seed=3, config=SMALL, fmt="xsb", show_progress=False)
    assert xsb.items == 60 and len(load_xsb(tmp_path / "x" / "000.xsb")) == 60


@pytest.mark.parametrize("key", ["pushes", "nodes"])
def test_splits_by_difficulty(tmp_path, key):
    splits = "easy=-5,hard=6-" if key == "pushes" else "few=-20,many=21-"
    summary = build(tmp_path, 40, seed=6, config=SMALL, split_by=key, splits=splits,
                    show_progress=False)
    bounds = parse_splits(splits)
    assert sum(summary.per_split.values()) == 40
    for name, (lo, hi) in bounds.items():
        records = sidecar(tmp_path / name / "000.jsonl")
        assert len(records) == summary.per_split[name] > 0
        assert all(lo <= r[key] and (hi is None or r[key] <= hi) for r in records)
        assert len(load_boxoban(tmp_path / name / "000.txt")) == len(records)


def test_levels_outside_every_split_are_skipped(tmp_path):
    summary = build(tmp_path, 10, seed=6, config=SMALL, splits={"long": (7, None)},
                    show_progress=False)
    assert summary.per_split == {"long": 10} and summary.skipped["outside every split"] > 0
    assert all(r["pushes"] >= 7 for r in sidecar(tmp_path / "long" / "000.jsonl"))


def test_an_unreachable_split_stops_at_the_item_limit(tmp_path):
    summary = build(tmp_path, 5, seed=1, config=SMALL, splits="long=100-", max_items=15,
                    show_progress=False)
    assert summary.exhausted and summary.written == 0 and summary.items == 15
    assert summary.report(stream=io.StringIO()) == 1


def test_resume_after_a_killed_run_gives_the_same_files(tmp_path):
    whole = tmp_path / "whole"
    build(whole, 25, seed=8, config=SMALL, timings=False, show_progress=False)
    cut = tmp_path / "cut"
    build(cut, 12, seed=8, config=SMALL, timings=False, show_progress=False)
    # a kill in the middle of level 12: half its text written, no sidecar line
    text = (whole / "000.txt").read_text()
    start = text.index("; 12\n")
    with open(cut / "000.txt", "a", encoding="utf-8") as fh:
        fh.write(text[start:start + 30])
    with open(cut / "000.jsonl", "a", encoding="utf-8") as fh:
        fh.write('{"index":12,"ite')
    summary = build(cut, 25, seed=8, config=SMALL, timings=False, show_progress=False)
    assert summary.written == 13 and summary.total == 25
    assert files(cut) == files(whole)


def test_another_dataset_in_the_directory_is_refused_unchanged(tmp_path):
    build(tmp_path, 5, seed=1, config=SMALL, show_progress=False)
    before = files(tmp_path)
    with pytest.raises(ConfigError, match="another dataset.*seed"):
        build(tmp_path, 10, seed=2, config=SMALL, show_progress=False)
    assert files(tmp_path) == before
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(ConfigError, match="not empty"):
        build(tmp_path / "other", 5, seed=1, show_progress=False)


@pytest.mark.parametrize("text, match", [
    ("easy", "NAME=LO-HI"), ("a=1-3,b=3-5", "overlap"), ("a=5-2", "lo <= hi"),
    ("../x=1-2", "name"),
])
def test_bad_splits_are_refused(text, match):
    with pytest.raises(ConfigError, match=match):
        parse_splits(text)


def test_cli_dataset_command(tmp_path, capsys):
    code = sokoban_main(["dataset", "--count", "6", "--seed", "2", "--config",
                         json.dumps(SMALL), "--jobs", "1", "--splits", "a=-5,b=6-",
                         "--no-progress", "-o", str(tmp_path / "d")])
    assert code == 0
    err = capsys.readouterr().err
    assert "6 levels this run, 6 in the dataset" in err and "splits: a" in err


# ---------------------------------------------------------------- read_boxoban
BOXOBAN = """; 0
##########
##########
####  # ##
#  $  #@.#
#  ####$ #
###   .  #
# $ ## . #
#    .$  #
#        #
##########

; 1
##########
#   @    #
# $$  .. #
#        #
# $ .    #
# $  .   #
#        #
#        #
#        #
##########
"""


def test_read_boxoban_matches_read_xsb():
    levels = read_boxoban(BOXOBAN)
    assert levels == read_xsb(BOXOBAN)
    assert [lv.title for lv in levels] == ["0", "1"] and len(levels[0].boxes) == 4
    assert levels[1].player == (4, 1)


def test_read_boxoban_needs_the_number_line():
    with pytest.raises(LevelFormatError, match="line 14: a Boxoban board must follow"):
        read_boxoban(BOXOBAN.replace("; 1\n", "\n"))


def test_load_boxoban_names_the_file(tmp_path):
    path = tmp_path / "000.txt"
    path.write_text(BOXOBAN.replace("@", "x", 1))
    with pytest.raises(LevelFormatError, match="000.txt: line 5, column 8: unknown character"):
        load_boxoban(path)
    with pytest.raises(TypeError, match="load_boxoban"):
        read_boxoban(path)
