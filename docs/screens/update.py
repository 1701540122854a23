"""Copy the browser tests' screenshots into docs/screens/ as small palette PNGs for the README
and the documentation pages (docs/index.md, getting-started.md, guide/play.md).

    pytest -q tests/test_play_*.py && python docs/screens/update.py   # needs Pillow

(the editors' screens come from tests/test_play_edit_*.py, the workbench guide shows them)

The tests save full-size screenshots to tests/screenshots/ (gitignored); this keeps one of
each screen, reduced to a 128-colour palette.
"""
import os
import sys

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
SHOTS = os.path.join(HERE, "..", "..", "tests", "screenshots")
CHOSEN = ["sokoban-solved", "symmetry-broken", "gallery-filtered", "mines-hint",
          "mines-no-guess-won", "defense-wave", "sokoban-edit", "sokoban-edit-improved",
          "symmetry-edit-unique", "mines-edit", "defense-edit-balance"]


def main():
    missing = []
    for name in CHOSEN:
        source = os.path.join(SHOTS, name + ".png")
        if not os.path.exists(source):
            missing.append(name)
            continue
        image = Image.open(source).convert("RGB")
        small = image.quantize(colors=128, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        target = os.path.join(HERE, name + ".png")
        small.save(target, optimize=True)
        print(f"{name}.png: {os.path.getsize(source) // 1024} kB -> "
              f"{os.path.getsize(target) // 1024} kB")
    if missing:
        print("not found (run the browser tests first): " + ", ".join(missing), file=sys.stderr)


if __name__ == "__main__":
    main()
