"""Build irlab's course site offline: python3 docs/site/build.py [OUTPUT]  (default: build/site).

Writes the exercise sets solved (``irlab solve --format markdown``) into docs/site/_generated/, then runs Sphinx
with warnings as errors. Open OUTPUT/docs/site/index.html in a browser; nothing is fetched from the network.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
SETS = ["chapter8-book.toml", "chapter8-seed.toml", "chapter8-systems.toml"]


def write_solutions(folder: Path) -> None:
    from contextlib import redirect_stdout
    from io import StringIO

    from irlab.cli import main as irlab

    folder.mkdir(exist_ok=True)
    for name in SETS:
        text = StringIO()
        with redirect_stdout(text):
            code = irlab(["solve", str(ROOT / "exercises" / name), "--format", "markdown"])
        if code != 0:
            raise SystemExit(f"build.py: error: irlab solve exercises/{name} failed (exit {code})")
        title = f"# exercises/{name}, solved\n\n"
        (folder / (Path(name).stem + ".md")).write_text(title + text.getvalue(), encoding="utf-8")


def main(argv):
    output = Path(argv[0]) if argv else ROOT / "build" / "site"
    write_solutions(HERE / "_generated")
    from sphinx.cmd.build import build_main

    code = build_main(["-W", "--keep-going", "-q", "-b", "html", "-c", str(HERE), str(ROOT), str(output)])
    if code == 0:  # sphinx -q is silent on success: say where the site is
        print(f"build.py: wrote the site to {output}/ (open {output / 'index.html'})")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
