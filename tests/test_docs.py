"""The documentation cannot drift from the code (issue 20).

1. The site builds with warnings as errors (``sphinx-build -W -n``): broken links, missing
   references, and public names with no API entry (``docs/_ext/apicheck.py``) fail it.
2. Every ```python block of every guide page (and of the README and getting started)
   runs, page by page, each page's blocks in order in one namespace, in a fresh
   directory. A block marked ```python no-run (it needs a browser or a cluster) is
   skipped.
"""
import glob
import importlib.util
import os
import re
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = os.path.join(ROOT, "docs")
PAGES = ["README.md", "docs/getting-started.md",
         *sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(DOCS, "guide", "*.md"))
                 if os.path.basename(p) != "index.md")]

FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$",
                   re.M | re.S)


def code_blocks(text):
    """``(info, code, line)`` of each fenced block of ``text``, in order."""
    for m in FENCE.finditer(text):
        yield m.group("info").strip(), m.group("body"), text.count("\n", 0, m.start()) + 1


def python_blocks(text):
    """``(code, line)`` of each block to run: ```python, not ```python no-run."""
    return [(code, line) for info, code, line in code_blocks(text)
            if info.split()[:1] == ["python"] and "no-run" not in info.split()[1:]]


def test_the_extractor_finds_the_blocks_to_run():
    text = ("# Page\n\n```python\nx = 1\n```\n\n```bash\nls\n```\n\n```python no-run\n"
            "client()\n```\n\n````md\n```python\nnot = code\n```\n````\n\n```python\ny = x + 1\n```\n")
    assert python_blocks(text) == [("x = 1\n", 3), ("y = x + 1\n", 21)]


@pytest.mark.parametrize("page", PAGES)
def test_guide_examples_run(page, tmp_path, monkeypatch, capsys):
    with open(os.path.join(ROOT, page), encoding="utf-8") as fh:
        blocks = python_blocks(fh.read())
    if not blocks:
        pytest.skip(f"{page} has no python example")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LEVELFORGE_NO_BROWSER", "1")
    namespace = {"__name__": "__docs__"}
    for code, line in blocks:
        exec(compile(code, f"{page}:{line}", "exec"), namespace)


def test_site_builds_without_warnings(tmp_path):
    if importlib.util.find_spec("sphinx") is None:
        pytest.skip("Sphinx is not installed (pip install -e '.[docs]')")
    from sphinx.cmd.build import build_main

    warnings = tmp_path / "warnings.txt"
    code = build_main(["-W", "-n", "-q", "-b", "html", "-w", str(warnings),
                       "-d", str(tmp_path / "doctrees"), DOCS, str(tmp_path / "html")])
    assert code == 0, warnings.read_text()
    assert (tmp_path / "html" / "api" / "sokoban.html").exists()


def test_api_check_names_a_public_name_with_no_entry():
    sys.path.insert(0, os.path.join(DOCS, "_ext"))
    try:
        import apicheck
    finally:
        sys.path.remove(os.path.join(DOCS, "_ext"))
    everything = {"levelforge.batch", "levelforge.batch.Summary", "levelforge.batch.generate",
                  "levelforge.batch.run", "levelforge.batch.strip_timings"}
    assert apicheck.missing_entries(everything, ["levelforge.batch"]) == []
    assert apicheck.missing_entries(everything - {"levelforge.batch.run"},
                                    ["levelforge.batch"]) == ["levelforge.batch.run"]
    assert "build" in apicheck.public_names(importlib.import_module("levelforge.sokoban.dataset"))
