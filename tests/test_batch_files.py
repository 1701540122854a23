"""Never destroy a file: what a resumed batch accepts, repairs and refuses (issue 9, part 2).

A refused file is checked unchanged byte for byte; every refusal is one ConfigError
(one line and exit code 2 on the command line).
"""
import json

import pytest

from levelforge import ConfigError, batch
from levelforge.cli import main

from batch_toys import Toy

README_TEXT = b"# levelforge\n\nGenerate, solve and verify levels.\n" * 50


def _run(path, **kw):
    args = dict(count=20, seed=11, show_progress=False) | kw
    gen = args.pop("gen", Toy())
    return batch.run(gen, path=str(path), **args)


def _sokoban():
    from levelforge.sokoban import Generator
    return Generator(width=7, height=7, boxes=2, pushes=(4, 8))


FOREIGN = {
    "a README copy": README_TEXT,
    "JSON without a trailing newline": json.dumps({"index": 0, "seed": 1}).encode(),
    "one JSON object on one line": b'{"name": "not a batch record"}\n',
    "binary data": bytes(range(256)) * 8,
    "an XSB collection": b"; 1\n#####\n#@$.#\n#####\n\n; 2\n#####\n#.$@#\n#####\n",
}


@pytest.mark.parametrize("what", sorted(FOREIGN))
def test_foreign_file_is_refused_and_unchanged_byte_for_byte(tmp_path, what):
    path = tmp_path / "out.jsonl"
    path.write_bytes(FOREIGN[what])
    with pytest.raises(ConfigError, match="use another output file"):
        _run(path)
    assert path.read_bytes() == FOREIGN[what]


def test_foreign_file_is_refused_by_the_cli_with_one_line_and_exit_2(tmp_path, capsys):
    for argv, name in ((["batch", "sokoban", "--count", "3", "--jobs", "1", "--format",
                         "jsonl"], "levels.xsb"),
                       (["symmetry", "generate", "--size", "3"], "README.md")):
        path = tmp_path / name
        data = FOREIGN["an XSB collection"] if name.endswith("xsb") else README_TEXT
        path.write_bytes(data)
        assert main(argv + ["--no-progress", "-o", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err and str(path) in err
        assert path.read_bytes() == data


def test_xsb_file_that_is_not_a_batch_is_refused_unchanged(tmp_path):
    path = tmp_path / "mine.xsb"
    path.write_bytes(FOREIGN["an XSB collection"])
    with pytest.raises(ConfigError, match="not a levelforge batch header"):
        _run(path, gen=_sokoban(), count=3)
    assert path.read_bytes() == FOREIGN["an XSB collection"]


def test_empty_file_is_filled(tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"")
    assert _run(path).total == 20


def test_only_a_torn_last_line_after_valid_records_is_dropped(tmp_path):
    ref, p = tmp_path / "ref.jsonl", tmp_path / "p.jsonl"
    _run(ref, timings=False)
    data = ref.read_bytes()
    p.write_bytes(data[:-7])  # the last record torn: dropped, then made again
    s = _run(p, timings=False)
    assert p.read_bytes() == data and s.repaired_bytes > 0 and s.resumed_from == 19
    damaged = data + b'{"index": 20, "garbage": true}\n'  # a whole line that is not item 20
    p.write_bytes(damaged)
    with pytest.raises(ConfigError, match="line 21"):
        _run(p, count=30, timings=False)
    assert p.read_bytes() == damaged


def test_a_torn_first_record_alone_is_refused(tmp_path):
    ref, p = tmp_path / "ref.jsonl", tmp_path / "p.jsonl"
    _run(ref, timings=False)
    torn = ref.read_bytes()[:40]
    p.write_bytes(torn)
    with pytest.raises(ConfigError, match="does not start with a line of JSON"):
        _run(p, timings=False)
    assert p.read_bytes() == torn


@pytest.mark.parametrize("suffix", ["jsonl", "xsb"])
def test_no_timings_and_timed_records_are_never_mixed(tmp_path, suffix):
    gen = _sokoban if suffix == "xsb" else Toy
    for first, second, fix in ((False, True, "with --no-timings"),
                               (True, False, "without --no-timings")):
        path = tmp_path / f"{first}.{suffix}"
        _run(path, gen=gen(), count=4, timings=first)
        before = path.read_bytes()
        with pytest.raises(ConfigError, match=f"continue it {fix}"):
            _run(path, gen=gen(), count=8, timings=second)
        assert path.read_bytes() == before


def test_config_mismatch_names_the_differing_keys(tmp_path):
    from levelforge.sokoban import Generator
    for suffix in ("jsonl", "xsb"):
        path = tmp_path / f"a.{suffix}"
        _run(path, gen=Generator(width=10, height=10, boxes=2), count=2)
        before = path.read_bytes()
        with pytest.raises(ConfigError) as info:
            _run(path, gen=Generator(width=12, height=10, boxes=2), count=4)
        message = str(info.value)
        assert "width 10 in the file, 12 now" in message
        assert "height" not in message and "boxes" not in message
        assert path.read_bytes() == before


def test_seed_mismatch_is_named_as_such(tmp_path):
    for gen, suffix in ((Toy(), "jsonl"), (_sokoban(), "xsb")):
        path = tmp_path / f"a.{suffix}"
        _run(path, gen=gen, count=3, seed=1)
        before = path.read_bytes()
        with pytest.raises(ConfigError, match="another --seed|made with --seed 1"):
            _run(path, gen=gen, count=6, seed=2)
        assert path.read_bytes() == before


def test_symmetry_job_against_a_sokoban_file_says_so(tmp_path):
    from levelforge.symmetry import Generator as Symmetry
    path = tmp_path / "levels.jsonl"
    _run(path, gen=_sokoban(), count=3)
    before = path.read_bytes()
    with pytest.raises(ConfigError, match="holds sokoban records and this is a symmetry job"):
        _run(path, gen=Symmetry(3), count=5)
    assert path.read_bytes() == before


def test_xsb_text_after_the_last_level_that_is_not_a_record_is_refused(tmp_path):
    path = tmp_path / "a.xsb"
    _run(path, gen=_sokoban(), count=3, timings=False)
    data = path.read_bytes() + b"some notes the user added\n"
    path.write_bytes(data)
    with pytest.raises(ConfigError, match="not a level record"):
        _run(path, gen=_sokoban(), count=5, timings=False)
    assert path.read_bytes() == data


def test_config_difference_lists_every_key():
    from levelforge.batch.output import config_difference
    assert config_difference({"a": 1, "b": 2}, {"a": 1, "b": 2}) == ""
    diff = config_difference({"a": 1, "b": 2}, {"a": 3, "c": 4})
    assert diff == "a 1 in the file, 3 now; b 2 in the file, not set now; c not in the file, 4 now"
