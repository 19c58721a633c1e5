"""irlab's own writers against the libraries that could replace them (README, "Written here … and why").

    python3 -m pip install latex2mathml orjson    # the peers; not irlab dependencies
    python3 benchmarks/bench_writers.py

1. LaTeX → MathML: every distinct formula of the shipped exercise sets and a few explanations, through
   irlab.render.mathml and latex2mathml: time, failures, formulas whose visible text differs (spaces and the bar
   accent aside), and a hostile system name (the LaTeX text escapes irlab writes for it).
2. The JSON report: a class report of 160,000 answer rows through json.dumps(indent=2), irlab's streamed writer and
   orjson: time (one run), peak memory (tracemalloc, a second run) and whether the bytes are the same.
"""

import glob
import html
import io
import json
import re
import time
import tracemalloc

import irlab.render.html as html_renderer
import irlab.render.mathml as mathml
from irlab.cli import build_parser
from irlab.cli.explain import explain_result
from irlab.exercise_set import solve
from irlab.homework.jsonstream import write_json
from irlab.trace import symbol_latex


def formulas() -> list[str]:
    seen, original = [], mathml.to_mathml

    def spy(latex, *args, **kwargs):
        seen.append(latex)
        return original(latex, *args, **kwargs)

    for module in (mathml, html_renderer):
        for name in dir(module):
            if getattr(module, name) is original:
                setattr(module, name, spy)
    for path in sorted(glob.glob("exercises/*.toml")):
        solve(path).render("html")
    for args in (["ap", "RNNRR", "--relevant", "5"], ["ndcg", "3,2,0,1", "--unretrieved", "2", "--k", "3"],
                 ["err", "3,2,0,1"], ["kappa", "--judge1", "0,0,1,1", "--judge2", "0,1,1,1"],
                 ["11pt", "RNRNNR", "--relevant", "4"], ["fleiss", "--judges", "1,1,0; 1,0,0; 1,1,1"],
                 ["rbp", "RNRR", "--persistence", "0.8"]):
        explain_result(build_parser().parse_args(["explain", *args])).render("html")
    return sorted(set(seen))


def visible(markup: str) -> str:
    text = html.unescape(re.sub(r"<[^>]+>", "", markup))
    return re.sub(r"[\s\u00a0\u2061\u2062]", "", text).replace("\u2212", "-").replace("\u00af", "\u203e")


def mathml_writers() -> None:
    from latex2mathml.converter import convert

    latex = formulas()
    start = time.perf_counter()
    ours = [mathml.to_mathml(f) for f in latex]
    middle = time.perf_counter()
    theirs, failed = [], 0
    for f in latex:
        try:
            theirs.append(convert(f))
        except Exception:  # noqa: BLE001 — a peer's failure is a number here
            theirs.append(None)
            failed += 1
    end = time.perf_counter()
    differ = sum(1 for a, b in zip(ours, theirs) if b is not None and visible(a) != visible(b))
    print(f"MathML: {len(latex)} distinct formulas; irlab {middle - start:.3f} s, latex2mathml {end - middle:.3f} s; "
          f"latex2mathml fails on {failed}; visible text differs on {differ}")
    name = symbol_latex("AP_B\\input{x}")
    print(f"  hostile name {name!r}:\n    irlab:        {visible(mathml.to_mathml(name))}\n"
          f"    latex2mathml: {visible(convert(name))}")


def json_writers() -> None:
    import orjson

    rows = [{"student": f"s{i:05d}", "exercise": "8.9", "question": q, "answer": "0.42", "score": "1/2", "max": 1,
             "mistakes": ["ap-divided-by-relevant-retrieved"], "feedback": "Not quite: 0.4745 is what you get if …",
             "status": "graded", "lines": [i]} for i in range(20000) for q in "abcdefgh"]
    value = {"set": "x", "rows": rows}

    def streamed():
        out = io.StringIO()
        write_json(value, out.write)
        return out.getvalue()

    writers = {"json.dumps(indent=2)": lambda: json.dumps(value, indent=2, ensure_ascii=False),
               "irlab write_json": streamed,
               "orjson OPT_INDENT_2": lambda: orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()}
    reference = None
    for label, write in writers.items():
        start = time.perf_counter()
        text = write()
        seconds = time.perf_counter() - start
        tracemalloc.start()
        write()
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        reference = reference or text
        print(f"JSON: {label:22} {seconds:5.2f} s, peak {peak / 2**20:4.0f} MiB, same bytes: {text == reference} "
              f"({len(rows)} rows, {len(text) / 2**20:.0f} MiB)")


if __name__ == "__main__":
    mathml_writers()
    json_writers()
