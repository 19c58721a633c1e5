"""The ``irlab`` command: list metrics, explain one computation, evaluate TREC runs, solve exercise sets.

Every bad input ends with one line ``irlab: error: …`` on stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import io
import json
import sys

from . import conventions as conv
from .errors import IrlabError, ParameterError
from .render import FORMATS


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors are one line in irlab's own format."""

    def error(self, message):
        raise ParameterError(message)


class _IntermixedParser(_Parser):
    """A subcommand whose options may come before, between or after its positionals
    (``irlab explain ap --relevant 5 RNNRR``): argparse's intermixed parsing."""

    _intermixing = False

    def parse_known_args(self, args=None, namespace=None):
        if self._intermixing:  # parse_known_intermixed_args calls back here for each of its two passes
            return super().parse_known_args(args, namespace)
        self._intermixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._intermixing = False


def _add_format(parser, formats=FORMATS):
    parser.add_argument("--format", default="text", choices=formats, help="output format (default: text)")


def _add_printable(parser, pdf_help="also write a printable PDF (pdflatex; the .tex is kept beside it); FILE ends in .pdf"):
    parser.add_argument("--pdf", metavar="FILE", help=pdf_help)
    parser.add_argument("--html", metavar="FILE", help="also write a self-contained HTML page (no LaTeX needed)")


def build_parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = _Parser(prog="irlab", description="Exact, step-by-step explained IR evaluation metrics.")
    parser.add_argument("--version", action="version", version=f"irlab {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True

    listing = commands.add_parser("metrics", help="list every metric with its formula and conventions")
    _add_format(listing, ("text", "markdown", "json"))

    explain = commands.add_parser("explain", help="compute one metric exactly and explain it step by step")
    explain.__class__ = _IntermixedParser  # add_parser takes no per-command class; this one only adds a method
    explain.add_argument("metric", help="metric name (irlab metrics lists them)")
    explain.add_argument("rankings", nargs="*", metavar="RANKING",
                         help="an R/N string (RNNRR) or grades (3,2,0,1); several rankings give the mean over queries")
    ranking = explain.add_argument_group("what is known about the ranking")
    ranking.add_argument("--relevant", metavar="R", help="total number of relevant documents (one per ranking, comma-separated)")
    ranking.add_argument("--unretrieved", metavar="GRADES", help="grades of judged documents not retrieved ('2,1'; ';' between rankings)")
    ranking.add_argument("--collection", metavar="N", help="number of documents in the collection")
    ranking.add_argument("--threshold", metavar="T", help="a grade >= T counts as relevant (default 1)")
    trec = explain.add_argument_group("one topic of TREC files instead of a RANKING")
    trec.add_argument("--qrels", metavar="FILE", help="TREC qrels file (qid iter docno grade)")
    trec.add_argument("--run", metavar="FILE", help="TREC run file (qid Q0 docno rank score runid)")
    trec.add_argument("--topic", metavar="QID", help="the topic to explain")
    trec.add_argument("--depth", metavar="M", help="keep only the top M documents of the run (trec_eval -M)")
    params = explain.add_argument_group("metric parameters")
    params.add_argument("--k", metavar="K", help="cut-off rank")
    params.add_argument("--recall-level", metavar="X", help="recall level in [0, 1] (0.25 or 25%%)")
    params.add_argument("--beta", metavar="B", help="F-measure weight (default 1)")
    params.add_argument("--max-grade", metavar="G", help="top of the grade scale for ERR (default: highest judged grade)")
    params.add_argument("--gains", metavar="TABLE", help="dcg/ndcg: a gain per grade, '1=1,2=5' (trec_eval ndcg.l=g)")
    params.add_argument("--log-base", metavar="B", help="dcg/ndcg: base of the discount's logarithm (default 2; "
                        "scikit-learn dcg_score log_base)")
    params.add_argument("--judge1", metavar="COLUMN", help="kappa: first judge's 0/1 judgments")
    params.add_argument("--judge2", metavar="COLUMN", help="kappa: second judge's 0/1 judgments")
    params.add_argument("--counts", metavar="COUNTS", help="set metrics: tp=20,fp=40,fn=60,tn=880 instead of a ranking; "
                        "kappa: the judges' 2x2 table yes-yes,yes-no,no-yes,no-no (300,20,10,70)")
    params.add_argument("--levels", metavar="R1,R2,…", help="kpt: the recall levels to average (0.2,0.5,0.8)")
    params.add_argument("--persistence", metavar="P", help="rbp: probability of reading on to the next rank (default 9/10)")
    params.add_argument("--judges", metavar="COLUMNS", help="fleiss/pairwise-kappa: every judge's column, ';' between "
                        "judges ('1,1,0; 1,0,0; 1,1,1')")
    params.add_argument("--a", metavar="IDS", help="kendall/spearman: first ranking of document ids; kendall-tau/"
                        "spearman-scores and the paired tests: first list of scores (0.31,0.25,0.25)")
    params.add_argument("--b", metavar="IDS", help="kendall/spearman: second ranking of document ids; kendall-tau/"
                        "spearman-scores and the paired tests: second list of scores, paired by position")
    choices = explain.add_argument_group("conventions (where the literature disagrees)")
    for convention in conv.ALL:
        keys = [c.key for c in convention.choices]
        choices.add_argument(convention.option, dest=convention.name, metavar="|".join(keys),
                             help=f"{convention.question} (default {convention.default})")
    _add_format(explain)
    explain.add_argument("--standalone", action="store_true", help="a complete LaTeX document or HTML page")
    _add_printable(explain)

    solve = commands.add_parser("solve", help="solve an exercise set (TOML) step by step")
    solve.add_argument("file", help="exercise set, e.g. exercises/chapter8-seed.toml")
    solve.add_argument("--exercise", metavar="ID", help="solve only this exercise (e.g. 8/1)")
    _add_format(solve)
    solve.add_argument("--standalone", action="store_true", help="a complete LaTeX document or HTML page")
    solve.add_argument("--answers-only", action="store_true", help="only the answers, without the working (a key)")
    _add_printable(solve)

    from .homework.cli import add_homework_parsers
    from .trec.cli import add_eval_parser

    add_homework_parsers(commands)
    _add_printable(commands.choices["sheet"], "also write the sheet as PDF, and its answer key beside it as FILE-key.pdf")
    add_eval_parser(commands)
    _add_printable(commands.choices["eval"], "also write a printable report (per-topic tables and bars) as PDF")
    from .compare import add_compare_parser

    add_compare_parser(commands)
    from .explorer import add_conventions_parser

    add_conventions_parser(commands)
    _add_printable(commands.choices["compare"], "also write the comparison with its per-topic difference plot as PDF")
    from .solvers.pooling import add_pool_parser

    add_pool_parser(commands)
    _add_printable(commands.choices["pool"], "also write the pool report as PDF")
    _add_printable(commands.choices["conventions"], "also write the comparison as a printable PDF (a handout)")
    return parser


# ------------------------------------------------------------------------------------------------

def _integer(text, what, minimum=None):
    """An integer option as typed: ASCII digits only ('３' and '1_0' are refused), at most 15 of them."""
    import re

    from .limits import LimitError

    if text is None:
        return None
    cleaned = str(text).strip()
    if not re.fullmatch(r"[+-]?[0-9]+", cleaned, re.ASCII):
        shown = repr(cleaned) if len(cleaned) <= 40 else f"{cleaned[:40]!r}…"
        raise ParameterError(f"{what} must be an integer written with the digits 0-9, got {shown}")
    if len(cleaned.lstrip("+-")) > 15:
        raise LimitError(f"{what} has {len(cleaned.lstrip('+-'))} digits; irlab's limit is 15 (no exercise needs more)")
    value = int(cleaned)
    if minimum is not None and value < minimum:
        raise ParameterError(f"{what} must be an integer >= {minimum}, got {value}")
    return value


def _per_query(text, count, option, separator, parse):
    """One value per ranking: ``text`` split at ``separator`` into ``count`` parsed items."""
    if text is None:
        return [None] * count
    parts = text.split(separator)
    if len(parts) != count:
        raise ParameterError(f"{option} gives {len(parts)} values for {count} rankings; give one per ranking, "
                             f"separated by {separator!r}")
    return [parse(part) for part in parts]


_RANKING_OPTIONS = ("relevant", "unretrieved", "collection", "threshold", "qrels", "run", "topic", "depth")
_ALL_OPTIONS = _RANKING_OPTIONS + ("k", "recall_level", "beta", "max_grade", "gains", "log_base", "judge1", "judge2", "a", "b", "counts", "judges", "persistence", "levels")


def _check_options(args, metric):
    allowed = {p.name for p in metric.parameters} | {c.name for c in metric.conventions}
    from .metrics import COUNTS_METRICS

    if metric.name in COUNTS_METRICS or metric.inputs == "judges":
        allowed.add("counts")
    if metric.inputs in ("ranking", "queries"):  # queries: several rankings, one answer (gmap)
        allowed |= set(_RANKING_OPTIONS)
    elif metric.inputs == "judges":
        allowed |= {"judge1", "judge2"}
    elif metric.inputs == "many-judges":
        allowed |= {"judges"}
    else:
        allowed |= {"a", "b"}
    given = [name for name in _ALL_OPTIONS + tuple(c.name for c in conv.ALL) if getattr(args, name) is not None]
    for name in given:
        if name not in allowed:
            raise ParameterError(f"option --{name.replace('_', '-')} does not apply to {metric.name}")


def _explain_inputs(args):
    """The metric, its options, its inputs (rankings, judge columns or rankings of ids) and notes on them."""
    from .metrics import get_metric
    from .ranking import Ranking, parse_grade_list

    metric = get_metric(args.metric)
    _check_options(args, metric)
    options = {c.name: getattr(args, c.name) for c in metric.conventions}
    for parameter in metric.parameters:
        raw = getattr(args, parameter.name)
        if raw is None:
            continue
        if parameter.name == "k":
            options["k"] = _integer(raw, "cut-off k", 1)
        elif parameter.name == "max_grade":
            options["max_grade"] = _integer(raw, "max grade", 0)
        else:
            options[parameter.name] = raw
    if args.counts is not None:
        return metric, options, *_counts_inputs(args, metric)
    if metric.inputs == "judges":
        if args.rankings or args.judge1 is None or args.judge2 is None:
            raise ParameterError("kappa takes two judge columns: irlab explain kappa --judge1 0,1,1 --judge2 1,1,0")
        return metric, options, (args.judge1, args.judge2), []
    if metric.inputs == "rankings-of-ids":
        if args.rankings or args.a is None or args.b is None:
            raise ParameterError(f"{metric.name} takes two rankings of ids: irlab explain {metric.name} --a d1,d2,d3 --b d3,d1,d2")
        return metric, options, (args.a, args.b), []
    if metric.inputs == "many-judges":
        if args.rankings or args.judges is None:
            raise ParameterError(f"{metric.name} takes every judge's column: irlab explain {metric.name} "
                                 "--judges '1,1,0; 1,0,0; 1,1,1'")
        return metric, options, (args.judges,), []
    if metric.inputs == "paired-values":
        if args.rankings or args.a is None or args.b is None:
            raise ParameterError(f"{metric.name} compares two systems' per-topic scores: "
                                 f"irlab explain {metric.name} --a 0.5,0.4,0.7 --b 0.3,0.4,0.5")
        return metric, options, (args.a, args.b), []
    if args.qrels or args.run or args.topic:
        return (metric, options, *_topic_inputs(args, options))
    if args.depth is not None:
        raise ParameterError("--depth applies to a TREC run (--qrels, --run, --topic)")
    if not args.rankings:
        raise ParameterError(f"{metric.name} needs a ranking, e.g. irlab explain {metric.name} RNNRR")
    count = len(args.rankings)
    relevant = _per_query(args.relevant, count, "--relevant", ",", lambda t: _integer(t, "R (--relevant)", 0))
    unretrieved = _per_query(args.unretrieved, count, "--unretrieved", ";", lambda t: parse_grade_list(t, "--unretrieved"))
    collection = _integer(args.collection, "collection size N (--collection)", 1)
    threshold = _integer(args.threshold, "relevance threshold (--threshold)", 1)
    rankings = []
    for text, rel, unret in zip(args.rankings, relevant, unretrieved):
        known = {"relevant": rel, "unretrieved": unret or (), "collection": collection}
        if threshold is not None:
            known["threshold"] = threshold
        rankings.append(Ranking.parse(text, **known))
    return metric, options, rankings, []


def _counts_inputs(args, metric):
    """Counts instead of a ranking (tp, fp, fn, tn), or the judges' 2x2 table for kappa."""
    from .metrics import Counts
    from .metrics.counts import table_columns

    if args.rankings or any(getattr(args, name) is not None for name in _RANKING_OPTIONS + ("judge1", "judge2")):
        raise ParameterError("give either --counts or a ranking (or judge columns), not both")
    if metric.inputs == "judges":
        return table_columns(args.counts), []
    return [Counts.parse(args.counts)], []


def _topic_inputs(args, options):
    """One topic of a TREC run as a ranking; conventions default to trec_eval's choices (topic_ranking), and say so."""
    from .topic_ranking import topic_ranking, trec_eval_options

    if not (args.qrels and args.run and args.topic):
        raise ParameterError("explaining a TREC topic needs --qrels FILE --run FILE --topic QID")
    if args.rankings or args.relevant is not None or args.unretrieved is not None or args.collection is not None:
        raise ParameterError("give either a RANKING (with --relevant/--unretrieved/--collection) or --qrels/--run/--topic")
    threshold = _integer(args.threshold, "relevance threshold (--threshold)", 1) or 1
    depth = _integer(args.depth, "depth (--depth)", 1)
    ranking, _ = topic_ranking(args.qrels, args.run, args.topic, threshold=threshold, depth=depth)
    # the ranking's own remarks travel with it; these notes are about the conventions switched to trec_eval's
    return [ranking], trec_eval_options(options)


def _compute(metric, options, inputs, notes):
    """The metric on its inputs; several rankings give the mean over queries."""
    from .metrics import mean_over_queries

    if metric.inputs != "ranking":
        return metric.compute(*inputs, **options)
    results = [metric.compute(ranking, **options) for ranking in inputs]
    for result in results:
        result.notes[:0] = notes
    return results[0] if len(results) == 1 else mean_over_queries(results, metric.averaged_as)


def explain_result(args):
    """Compute the metric the arguments name, with its explanation."""
    return _compute(*_explain_inputs(args))


def _explain_document(args):
    """The explanation with its figure, for printable output, and the result it explains."""
    from .document import Document
    from .printable import illustrate, with_figures

    metric, options, inputs, notes = _explain_inputs(args)
    result = _compute(metric, options, inputs, notes)
    if metric.inputs == "ranking":
        figures = illustrate(metric.name, rankings=inputs, options=options)
    else:
        figures = illustrate(metric.name, judges=inputs, options=options) if metric.inputs == "judges" else []
    section = with_figures(result.section(), figures)
    return Document(result.title, section.blocks, result.meta()), result


# the files each command reads, as (argument, how a message names it); an argument may hold several files
_INPUTS = {
    "explain": (("qrels", "the --qrels file"), ("run", "the --run file")),
    "conventions": (("qrels", "the --qrels file"), ("run", "the --run file")),
    "solve": (("file", "the exercise set"),),
    "sheet": (("file", "the exercise set"), ("roster", "the --roster file")),
    "grade": (("file", "the exercise set"), ("answers", "the answers CSV"), ("manifest", "the --manifest file"),
              ("roster", "the --roster file")),
    "eval": (("qrels", "the qrels"), ("run", "the run")),
    "compare": (("qrels", "the qrels"), ("runs", "one of the runs")),
    "pool": (("runs", "one of the runs"),),
}
# the files a command writes besides its printables (--pdf, --html)
_OUTPUTS = (("judging_list", "-o/--judging-list"), ("output", "-o/--output"))


def _command_inputs(args) -> list:
    """Every file the command reads, as (label, path); --manifest DIR reads DIR/manifest.json."""
    from pathlib import Path

    inputs = []
    for name, label in _INPUTS.get(args.command, ()):
        value = getattr(args, name, None)
        for path in value if isinstance(value, list) else [value]:
            if path is not None and name == "manifest" and Path(path).is_dir():
                path = Path(path) / "manifest.json"
            inputs.append((label, path))
    return inputs


def _printable_outputs(pdf, html, whose="") -> list:
    """The files --pdf and --html write, as (label, path): the PDF, its LaTeX source beside it, the HTML page."""
    from pathlib import Path

    outputs = []
    if pdf:
        outputs += [(f"{whose}--pdf", pdf), (f"the LaTeX source of {whose}--pdf", Path(pdf).with_suffix(".tex"))]
    if html:
        outputs.append((f"{whose}--html", html))
    return outputs


def _command_outputs(args) -> list:
    """Every file the command writes (known before it runs), as (label, path); a sheet's key is written beside it."""
    pdf, html = getattr(args, "pdf", None), getattr(args, "html", None)
    outputs = _printable_outputs(pdf, html)
    if args.command == "sheet" and not getattr(args, "roster", None):
        outputs += _printable_outputs(pdf and _key_path(pdf), html and _key_path(html), "the answer key of ")
    return outputs + [(label, getattr(args, name, None)) for name, label in _OUTPUTS]


def _check_printable_paths(args) -> None:
    """Before anything is computed or written: --pdf names a .pdf (its LaTeX source goes beside it as .tex), and no
    output path is one of the command's inputs or another output (outputs.check_outputs)."""
    from pathlib import Path

    from .outputs import check_outputs

    pdf = getattr(args, "pdf", None)
    if pdf and Path(pdf).suffix.lower() != ".pdf":
        raise ParameterError(f"--pdf {pdf}: the file name must end in .pdf (the LaTeX source is written beside it "
                             f"as {Path(pdf).with_suffix('.tex').name})")
    check_outputs(_command_inputs(args), _command_outputs(args))


def _write_printable(document, args, pdf=None, html=None, announce=True) -> tuple[list, list]:
    """Write the PDF and/or HTML asked for with --pdf/--html; returns the files written and what to say."""
    from .printable import write_printables

    return write_printables(document, pdf or getattr(args, "pdf", None), html or getattr(args, "html", None), announce)


def _key_path(path):
    """The answer key's file beside the sheet's: sheet.pdf -> sheet-key.pdf."""
    from pathlib import Path

    path = Path(path)
    return path.with_name(f"{path.stem}-key{path.suffix}")


def _write_sheet_printables(args) -> None:
    """The student's sheet and, in a separate file, its answer key: both are written, or neither."""
    from pathlib import Path

    from .homework import answer_key_document, sheet_document

    sheet = sheet_document(args.file, args.student, args.seed, args.exercise)
    key = answer_key_document(args.file, args.student, args.seed, args.exercise)
    if getattr(args, "answers_only", False):  # a key of answers only, without the working
        from .document import answers_only

        key = answers_only(key)
    paths = [Path(p) for p in (args.pdf, args.html) if p]
    paths += [p.with_suffix(".tex") for p in paths if p.suffix.lower() == ".pdf"]
    existed = {str(p) for p in paths if p.exists()}
    written, said = _write_printable(sheet, args, announce=False)
    try:
        _, said_too = _write_printable(key, args, pdf=args.pdf and _key_path(args.pdf), html=args.html and _key_path(args.html),
                                       announce=False)
    except BaseException:  # both or neither: a sheet without its key is not handed out by mistake
        for path in written:
            if str(path) not in existed:
                Path(path).unlink(missing_ok=True)
        raise
    print("\n".join(said + said_too), file=sys.stderr)


def list_metrics(fmt: str) -> str:
    from .metrics import METRICS

    if fmt == "json":
        data = [
            {
                "name": m.name, "title": m.title, "formula": m.formula_text, "latex": m.formula_latex,
                "aliases": list(m.aliases), "reference": m.reference,
                "parameters": [{"name": p.name, "type": p.kind, "description": p.description} for p in m.parameters],
                "conventions": {c.name: {"default": c.default, "choices": [ch.key for ch in c.choices]} for c in m.conventions},
            }
            for m in METRICS
        ]
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    lines = []
    for m in METRICS:
        if fmt == "markdown":
            lines.append(f"- **{m.name}** — {m.title}: ${m.formula_latex}$ ({m.reference})")
        else:
            aliases = f" (also: {', '.join(m.aliases)})" if m.aliases else ""
            lines.append(f"{m.name:<15} {m.title}{aliases}")
            lines.append(f"{'':<15} {m.formula_text}")
            for p in m.parameters:
                lines.append(f"{'':<15} --{p.name.replace('_', '-')}: {p.description}")
            for c in m.conventions:
                keys = " | ".join(f"{ch.key}{' (default)' if ch.key == c.default else ''}" for ch in c.choices)
                lines.append(f"{'':<15} {c.option}: {keys}")
            lines.append(f"{'':<15} reference: {m.reference}")
    if fmt != "markdown":
        lines += ["", "Conventions:"]
        for c in conv.ALL:
            lines.append(f"  {c.option}: {c.question}")
            for ch in c.choices:
                lines.append(f"    {ch.key:<18} {ch.formula}  [{ch.reference}]")
    return "\n".join(lines) + "\n"


def _check_argv(argv) -> list[str]:
    """The arguments as text; bytes that are not UTF-8 (``--seed $'\\xff'``) are refused here, once, by position."""
    argv = sys.argv[1:] if argv is None else list(argv)
    for position, argument in enumerate(argv, 1):
        try:
            str(argument).encode("utf-8")
        except UnicodeEncodeError:
            shown = str(argument).encode("utf-8", "surrogateescape")
            raise ParameterError(f"argument {position} ({shown!r}) is not valid UTF-8 text") from None
    return [str(argument) for argument in argv]


def _run(argv) -> int:
    args = build_parser().parse_args(_check_argv(argv))
    _check_printable_paths(args)
    printable = bool(getattr(args, "pdf", None) or getattr(args, "html", None))
    if args.command == "metrics":
        sys.stdout.write(list_metrics(args.format))
    elif args.command == "explain":
        page = args.standalone and args.format == "html"  # a page carries its figure, exactly as --html writes it
        if printable or page:  # the files, then the explanation on stdout as without --pdf/--html
            document, result = _explain_document(args)
            if printable:
                _write_printable(document, args)
        else:
            result = explain_result(args)
        sys.stdout.write(document.render("html", standalone=True) if page else
                         result.render(args.format, standalone=args.standalone))
    elif args.command == "solve":
        from .exercise_set import solve

        from .document import answers_only
        from .printable import solution_document

        def shown(document):  # --answers-only: a key of answers without the working
            return answers_only(document) if args.answers_only else document

        if printable:
            _write_printable(shown(solution_document(args.file, args.exercise)), args)
        if args.standalone and args.format == "html":  # the page with its figures, as --html writes it
            sys.stdout.write(shown(solution_document(args.file, args.exercise)).render("html", standalone=True))
        else:
            sys.stdout.write(shown(solve(args.file, args.exercise)).render(args.format, standalone=args.standalone))
        from .homework.diagnosis import too_close_notes

        for note in too_close_notes(args.file, exercise_id=args.exercise):  # for the instructor, beside the solution
            print(f"irlab: note: {note}", file=sys.stderr)
    elif args.command == "sheet":
        from .homework.cli import run_sheet

        if printable and not getattr(args, "roster", None):  # a class (--roster) is refused by run_sheet
            _write_sheet_printables(args)
        return run_sheet(args)
    elif args.command == "grade":
        from .homework.cli import run_grade

        return run_grade(args)
    elif args.command == "eval":
        from .trec.cli import run_eval

        return run_eval(args)
    elif args.command == "compare":
        from .compare import run_compare

        return run_compare(args)
    elif args.command == "pool":
        from .solvers.pooling import run_pool

        return run_pool(args)
    elif args.command == "conventions":
        from .explorer import run_conventions

        return run_conventions(args)
    return 0


def _error(message) -> int:
    """The one line every failure ends with (exit code 2)."""
    message = " ".join(str(message).split("\n"))
    try:
        print(f"irlab: error: {message}", file=sys.stderr)
    except (OSError, ValueError, AttributeError):  # stderr closed too: the exit code still says it
        pass
    return 2


def _silence_stdout() -> None:
    """After a closed pipe (``irlab … | head``), point stdout at /dev/null so Python's final flush stays quiet."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        pass


def main(argv=None) -> int:
    """Run ``irlab ARGV``: 0 (or the command's own code), 2 with one ``irlab: error:`` line, 130 on Ctrl-C."""
    if sys.stdout is None:  # started with stdout closed (irlab … >&-): there is nowhere to put the result
        return _error("standard output is closed: nowhere to write the result")
    try:
        return _run(argv)
    except IrlabError as error:
        return _error(error)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (| head): the output is no longer wanted
        _silence_stdout()
        return 0
    except OSError as error:  # a file that cannot be read or written: say which, no traceback
        where = f"{error.filename}: " if error.filename else ""
        return _error(f"{where}{error.strerror or error}")
    except UnicodeEncodeError as error:  # a terminal that cannot show irlab's characters (≈, β)
        return _error(f"the output cannot be encoded as {error.encoding}: set PYTHONIOENCODING=utf-8 or a UTF-8 locale")
    except MemoryError:
        return _error("out of memory; irlab's limits (irlab/limits.py) should have refused this input first")


if __name__ == "__main__":
    sys.exit(main())
