"""The repository stands on its own: no file refers to a path outside it, and a bare copy
of it works (imports, the bundled Microban set, a CLI call) without installing anything."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _tracked_files():
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True, timeout=60).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the list of tracked files is unknown")
    return [f for f in out.decode().split("\0") if f]


def test_no_file_refers_to_a_path_outside_the_repository():
    outside = ("../shared", "..\\shared", "shared/data/", "shared/DESIGN")
    offenders = []
    for name in _tracked_files():
        if name.endswith((".png", ".xsb")) or name == "tests/test_standalone.py":
            continue
        with open(os.path.join(ROOT, name), encoding="utf-8", errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                if any(p in line for p in outside):
                    offenders.append(f"{name}:{n}: {line.strip()}")
    assert offenders == []


def test_a_bare_copy_of_the_repository_works_in_an_empty_folder(tmp_path):
    copy = tmp_path / "levelforge-copy"
    for name in _tracked_files():
        dest = copy / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(os.path.join(ROOT, name), dest)
    # the layout an install makes, with no install: python/levelforge + engine/ as its engine
    site = tmp_path / "site"
    shutil.copytree(copy / "python" / "levelforge", site / "levelforge")
    shutil.copytree(copy / "engine", site / "levelforge" / "engine")
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CACHE")}
    env["PYTHONPATH"] = str(site)
    run = dict(cwd=copy, env=env, capture_output=True, text=True, timeout=240)
    code = ("import levelforge, levelforge.sokoban as s\n"
            "levels = s.collections.load('microban')\n"
            "assert levelforge.__file__.startswith(%r)\n"
            "print(len(levels), levels[154].comments[0])" % str(site))
    out = subprocess.run([sys.executable, "-c", code], **run)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["155", "'The", "Dungeon'"]
    cli = subprocess.run([sys.executable, "-m", "levelforge.cli", "defense", "show"], **run)
    assert cli.returncode == 0, cli.stderr
    assert "beacon" in cli.stdout.lower()
