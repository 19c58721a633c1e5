"""ir_measures' measure names, read as ir_measures reads them, and what irlab computes for each.

ir_measures (MacAvaney, Macdonald & Ounis 2022), and PyTerrier through it, name a measure with a Python expression:
``Name``, ``Name(param=value, ...)`` and an ``@`` cut-off (``nDCG@10``, ``AP(rel=2)``, ``P(rel=2)@5``,
``nDCG(dcg='exp-log2')@10``, ``IPrec@0.5``). This module reads that grammar with :mod:`ast` (nothing is evaluated)
and knows ir_measures' registry and aliases (MAP is AP, MRR is RR, NDCG is nDCG ...) without importing ir_measures,
which is only a test dependency (the tests hold every name read here against ``ir_measures.parse_measure``).

>>> name = parse("AP(rel=2)@10")
>>> name.measure, name.param("rel"), name.param("cutoff"), name.text
('AP', 2, 10, 'AP(rel=2)@10')
>>> parse("MRR").measure
'RR'
>>> explain_target("RBP(p=0.8)")
('rbp', {'persistence': '0.8'})
"""

from __future__ import annotations

import ast
import difflib
from dataclasses import dataclass

from .errors import ParameterError
from .limits import MAX_MEASURE_NAME

__all__ = ["MeasureName", "parse", "is_measure_name", "is_diversity_name", "explain_target", "suggestion", "REGISTRY",
           "ALIASES", "DIVERSITY"]

_ABSENT = object()

# ir_measures 0.4's registry: measure -> (the parameter '@' sets, {parameter: (type, default)}); a required
# parameter has the default _ABSENT and is marked by REQUIRED below
REGISTRY = {
    "AP": ("cutoff", {"cutoff": (int, None), "rel": (int, 1), "judged_only": (bool, False)}),
    "AP_IA": ("cutoff", {"rel": (int, 1), "judged_only": (bool, False)}),
    "Accuracy": ("cutoff", {"cutoff": (int, None), "rel": (int, 1)}),
    "BPM": ("cutoff", {"cutoff": (int, None), "T": (float, 1.0), "min_rel": (int, 0), "max_rel": (int, None)}),
    "Bpref": ("cutoff", {"rel": (int, 1)}),
    "Compat": ("cutoff", {"p": (float, 0.95), "normalize": (bool, True)}),
    "ERR": ("cutoff", {"cutoff": (int, None)}),
    "ERR_IA": ("cutoff", {"cutoff": (int, None), "rel": (int, 1), "judged_only": (bool, False)}),
    "INSQ": ("cutoff", {"T": (float, 1.0), "min_rel": (int, 0), "max_rel": (int, None)}),
    "INST": ("cutoff", {"T": (float, 1.0), "min_rel": (int, 0), "max_rel": (int, None)}),
    "IPrec": ("recall", {"recall": (float, None), "rel": (int, 1), "judged_only": (bool, False)}),
    "Judged": ("cutoff", {"cutoff": (int, None)}),
    "NERR8": ("cutoff", {"cutoff": (int, None), "min_rel": (int, 0), "max_rel": (int, None)}),
    "NERR9": ("cutoff", {"cutoff": (int, None), "min_rel": (int, 0), "max_rel": (int, None)}),
    "NERR10": ("cutoff", {"p": (float, 0.9), "min_rel": (int, 0), "max_rel": (int, None)}),
    "NERR11": ("cutoff", {"T": (float, 1.0), "min_rel": (int, 0), "max_rel": (int, None)}),
    "NRBP": ("cutoff", {"rel": (int, 1), "alpha": (float, 0.5), "beta": (float, 0.5)}),
    "NumQ": ("cutoff", {}),
    "NumRel": ("cutoff", {"rel": (int, 1)}),
    "NumRet": ("cutoff", {"rel": (int, None)}),
    "P": ("cutoff", {"cutoff": (int, None), "rel": (int, 1), "judged_only": (bool, False)}),
    "P_IA": ("cutoff", {"cutoff": (int, None), "rel": (int, 1), "judged_only": (bool, False)}),
    "R": ("cutoff", {"cutoff": (int, None), "rel": (int, 1), "judged_only": (bool, False)}),
    "RBP": ("cutoff", {"cutoff": (int, None), "p": (float, 0.8), "rel": (int, None)}),
    "RR": ("cutoff", {"cutoff": (int, None), "rel": (int, 1), "judged_only": (bool, False)}),
    "Rprec": ("cutoff", {"rel": (int, 1), "judged_only": (bool, False)}),
    "SDCG": ("cutoff", {"cutoff": (int, None), "dcg": (str, "log2"), "min_rel": (int, 0), "max_rel": (int, None)}),
    "SetAP": ("cutoff", {"rel": (int, 1), "judged_only": (bool, False)}),
    "SetF": ("cutoff", {"rel": (int, 1), "beta": (float, 1.0), "judged_only": (bool, False)}),
    "SetP": ("cutoff", {"rel": (int, 1), "relative": (bool, False), "judged_only": (bool, False)}),
    "SetR": ("cutoff", {"rel": (int, 1)}),
    "StRecall": ("cutoff", {"cutoff": (int, None), "rel": (int, 1)}),
    "Success": ("cutoff", {"cutoff": (int, None), "rel": (int, 1), "judged_only": (bool, False)}),
    "alpha_DCG": ("cutoff", {"cutoff": (int, None), "rel": (int, 1), "alpha": (float, 0.5), "judged_only": (bool, False)}),
    "alpha_nDCG": ("cutoff", {"cutoff": (int, None), "rel": (int, 1), "alpha": (float, 0.5), "judged_only": (bool, False)}),
    "infAP": ("cutoff", {"rel": (int, 1)}),
    "nDCG": ("cutoff", {"cutoff": (int, None), "dcg": (str, "log2"), "gains": (dict, None), "judged_only": (bool, False)}),
    "nERR_IA": ("cutoff", {"cutoff": (int, None), "rel": (int, 1), "judged_only": (bool, False)}),
    "nNRBP": ("cutoff", {"rel": (int, 1), "alpha": (float, 0.5), "beta": (float, 0.5)}),
}
# parameters ir_measures requires (its ParamInfo(required=True)); not max_rel, the top of the grade scale of the
# C/W/L measures (INST, SDCG ...): without it irlab takes the topic's top grade, as irlab explain inst does
REQUIRED = {"P": ("cutoff",), "R": ("cutoff",), "Success": ("cutoff",), "IPrec": ("recall",), "SDCG": ("cutoff",),
            "BPM": ("cutoff",), "NERR8": ("cutoff",), "NERR9": ("cutoff",)}
CHOICES = {("nDCG", "dcg"): ("log2", "exp-log2"), ("SDCG", "dcg"): ("log2",)}
# the diversity measures: they read qrels with subtopics (topic subtopic docno judgment), by irlab's ndeval
DIVERSITY = ("alpha_nDCG", "alpha_DCG", "ERR_IA", "nERR_IA", "P_IA", "StRecall", "NRBP", "nNRBP", "AP_IA")
# ir_measures' other names: alias -> (measure, parameters the alias sets)
ALIASES = {"MAP": ("AP", {}), "MRR": ("RR", {}), "NDCG": ("nDCG", {}), "Precision": ("P", {}), "Recall": ("R", {}),
           "RPrec": ("Rprec", {}), "BPref": ("Bpref", {}), "MAP_IA": ("AP_IA", {}), "α_nDCG": ("alpha_nDCG", {}),
           "α_DCG": ("alpha_DCG", {}), "SetRelP": ("SetP", {"relative": True}), "NumRelRet": ("NumRet", {"rel": 1})}


@dataclass(frozen=True)
class MeasureName:
    """An ir_measures measure name: ``text`` as written, ``measure`` its registry name (AP for MAP) and the
    parameters given (the ``@`` one under its own name: cutoff, or recall for IPrec)."""

    text: str
    measure: str
    given: tuple   # ((parameter, value), ...) in the order written, the alias's own first

    def param(self, key, default=_ABSENT):
        """The parameter's value: as given, else ir_measures' default (None when it has none)."""
        for k, v in self.given:
            if k == key:
                return v
        if default is not _ABSENT:
            return default
        return REGISTRY[self.measure][1][key][1]

    def has(self, key) -> bool:
        return any(k == key for k, _ in self.given)


_GRAMMAR = "an ir_measures name is Name, Name(param=value, ...) or either with @cutoff, e.g. nDCG@10, AP(rel=2)@5"


def _value(node, text):
    """A constant of the expression: a number, string, True/False, or a dict of them (nDCG's gains); no names."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, bool)):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) in (int, float):
        return -node.operand.value
    if isinstance(node, ast.Dict) and None not in node.keys:
        return {_value(k, text): _value(v, text) for k, v in zip(node.keys, node.values)}
    raise ParameterError(f"measure {text!r}: a parameter's value must be a number, a quoted string, True/False or a "
                         f"{{grade: gain}} dict ({_GRAMMAR})")


def _syntax(text):
    """(name, {param: value}, at-value or _ABSENT) of the expression, or a ParameterError naming what is wrong."""
    if len(text) > MAX_MEASURE_NAME:
        raise ParameterError(f"measure name of {len(text):,} characters: at most {MAX_MEASURE_NAME} "
                             "(limits.MAX_MEASURE_NAME; ir_measures' longest names have about 40)")
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        raise ParameterError(f"measure {text!r} cannot be read: {_GRAMMAR}") from None
    at = _ABSENT
    if isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.MatMult):
        at = _value(tree.right, text)
        tree = tree.left
    params = {}
    if isinstance(tree, ast.Call):
        if tree.args or any(k.arg is None for k in tree.keywords):
            raise ParameterError(f"measure {text!r}: parameters are named, e.g. AP(rel=2) ({_GRAMMAR})")
        for keyword in tree.keywords:
            params[keyword.arg] = _value(keyword.value, text)
        tree = tree.func
    if not isinstance(tree, ast.Name):
        raise ParameterError(f"measure {text!r} cannot be read: {_GRAMMAR}")
    return tree.id, params, at


def _checked(text, measure, key, value):
    kind, _ = REGISTRY[measure][1][key]
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        ok, value = True, float(value)   # T=3 for T=3.0: ir_measures' own check wants the float
    if not ok:
        raise ParameterError(f"measure {text!r}: {key} must be {kind.__name__}, got {value!r}")
    choices = CHOICES.get((measure, key))
    if choices and value not in choices:
        raise ParameterError(f"measure {text!r}: {key} is one of {', '.join(map(repr, choices))}, got {value!r}")
    if key in ("cutoff",) and value < 1:
        raise ParameterError(f"measure {text!r}: the cut-off must be at least 1, got {value}")
    if key == "recall" and not 0 <= value <= 1:
        raise ParameterError(f"measure {text!r}: the recall level must be in [0, 1], got {value}")
    return value


def parse(text: str) -> MeasureName:
    """``text`` read as ir_measures' ``parse_measure`` reads it, checked against its registry.

    A ParameterError names what is wrong: the grammar, an unknown measure (with the nearest names), an unknown or
    ill-typed parameter."""
    if not isinstance(text, str):
        raise ParameterError(f"a measure name is text such as 'nDCG@10', got {type(text).__name__}")
    name, params, at = _syntax(text)
    measure, preset = ALIASES.get(name, (name, {}))
    if measure not in REGISTRY:
        raise ParameterError(f"unknown measure {text.strip()!r}{suggestion(text)}")
    at_key, known = REGISTRY[measure]
    if at is not _ABSENT:
        if at_key in params:
            raise ParameterError(f"measure {text!r} gives {at_key} twice (in the parentheses and after @)")
        params[at_key] = at
    given = dict(preset)
    for key, value in params.items():
        if key not in known:
            raise ParameterError(f"measure {text!r}: {measure} has no parameter {key!r} (it takes "
                                 f"{', '.join(known) or 'none'})")
        given[key] = _checked(text, measure, key, value)
    for key in REQUIRED.get(measure, ()):
        if key not in given:
            raise ParameterError(f"measure {text!r}: ir_measures' {measure} needs {key}"
                                 + (f", e.g. {measure}@10" if key == "cutoff" else
                                    f", e.g. {measure}@0.5"))
    return MeasureName(text.strip(), measure, tuple(given.items()))


def is_measure_name(text) -> bool:
    """Whether ``text`` reads as a name of ir_measures' registry (its parameters may still be wrong)."""
    try:
        name = _syntax(text)[0]
    except ParameterError:
        return False
    return name in REGISTRY or name in ALIASES


def is_diversity_name(text) -> bool:
    """Whether ``text`` is an ir_measures name of a diversity measure (alpha_nDCG@20, ERR_IA@20, NRBP ...)."""
    return isinstance(text, str) and is_measure_name(text) and parse(text).measure in DIVERSITY


def suggestion(text: str, explain: bool = True) -> str:
    """'; did you mean ...' naming the nearest ir_measures name and (``explain``) irlab metric with its options,
    for a name not in the registry (ndcg@5 -> nDCG@5, or `ndcg --k 5`)."""
    base, at, rest = str(text).strip().partition("@")
    head = base.partition("(")[0].strip()
    names = list(REGISTRY) + list(ALIASES)
    same = [n for n in REGISTRY if n.lower() == head.lower()] or [n for n in ALIASES if n.lower() == head.lower()]
    close = same or difflib.get_close_matches(head, names, n=2, cutoff=0.6)
    if not close:
        return " (ir_measures names such as nDCG@10, AP, P@5; trec_eval names such as map, P.10; irlab metrics lists irlab's)"
    tail = base[len(head):].strip() + (f"@{rest}" if at else "")
    options = [c + tail for c in close]
    if not explain:
        return f"; did you mean {' or '.join(options)}?"
    try:
        metric, preset = explain_target(options[0])
        flags = " ".join(f"--{k.replace('_', '-')} {v}" for k, v in preset.items())
        return f"; did you mean {' or '.join(options)}, or `{metric}{' ' + flags if flags else ''}`?"
    except ParameterError:
        return f"; did you mean {' or '.join(options)}?"


# ---------------------------------------------------------------------------
# irlab explain: the metric and its options for an ir_measures name

# measure -> irlab metric; parameters -> explain's options
_EXPLAIN_METRIC = {"P": "precision", "R": "recall", "AP": "ap", "RR": "rr", "Rprec": "rprec", "nDCG": "ndcg",
                   "ERR": "err", "RBP": "rbp", "INST": "inst", "INSQ": "insq", "SDCG": "sdcg", "IPrec": "iprec",
                   "Success": "success", "Bpref": "bpref", "infAP": "infap", "SetP": "precision", "SetR": "recall",
                   "SetF": "f", "alpha_nDCG": "alpha-ndcg", "alpha_DCG": "alpha-dcg", "ERR_IA": "err-ia",
                   "nERR_IA": "nerr-ia", "P_IA": "p-ia", "StRecall": "strec"}
_EXPLAIN_OPTION = {"cutoff": "k", "rel": "threshold", "p": "persistence", "T": "target", "recall": "recall_level",
                   "beta": "beta", "alpha": "alpha"}
_NOT_EXPLAINED = {
    "NumQ": "a count of topics", "NumRel": "a count (irlab eval -m NumRel counts R per topic)",
    "NumRet": "a count (irlab eval -m NumRet counts it per topic)",
    "Judged": "the share of judged documents, no metric of a ranking (irlab eval -m Judged@10 computes it)",
}


def _number_text(value) -> str:
    return repr(value) if isinstance(value, float) and value != int(value) else str(int(value)) \
        if isinstance(value, (int, float)) and not isinstance(value, bool) else str(value)


def explain_target(text: str) -> tuple[str, dict]:
    """The irlab metric that explains an ir_measures name, and its ``irlab explain`` options as text
    (nDCG@5 -> ('ndcg', {'k': '5'}); a ParameterError naming why for a name irlab does not explain)."""
    name = parse(text)
    m = name.measure
    if m in _NOT_EXPLAINED:
        raise ParameterError(f"{name.text} is {_NOT_EXPLAINED[m]}; irlab explain explains metrics of a ranking")
    if m not in _EXPLAIN_METRIC:
        raise ParameterError(f"irlab does not compute {name.text} ({m}); `irlab metrics` lists what it explains")
    if m == "SetP" and name.param("relative"):
        raise ParameterError(f"{name.text} divides by min(retrieved, R), which no irlab metric explains; "
                             "irlab eval -m SetRelP computes it")
    if name.param("judged_only", False):
        raise ParameterError(f"{name.text}: judged_only=True drops unjudged documents first; irlab explain "
                             "explains the ranking as given (irlab eval -J computes it)")
    if name.has("max_rel") or name.param("min_rel", 0):
        rest = ",".join(f"{k}={_number_text(v)}" for k, v in name.given if k not in ("min_rel", "max_rel", "cutoff"))
        plain = m + (f"({rest})" if rest else "") + (f"@{name.param('cutoff')}" if name.has("cutoff") else "")
        raise ParameterError(f"{name.text}: irlab explain scales a grade by the topic's top grade (r = g / g_max); "
                             f"min_rel and max_rel fix another scale. Explain {plain} (the same value when max_rel is "
                             "the topic's top grade and min_rel 0); irlab eval -m computes it as written")
    options = {}
    for key, value in name.given:
        if key in ("judged_only", "min_rel", "relative", "dcg", "gains", "max_rel"):
            continue
        options[_EXPLAIN_OPTION.get(key, key)] = _number_text(value)
    if m == "RBP" and "persistence" not in options:
        options["persistence"] = _number_text(name.param("p"))   # ir_measures' default 0.8, irlab's 9/10
    if m == "ERR":
        options["max_grade"] = "4"   # gdeval's scale 2^4, as ir_measures computes ERR
    if m == "nDCG":   # ir_measures' nDCG is trec_eval's (linear gain) unless dcg='exp-log2' (gdeval's)
        options["gain"] = "exp" if name.param("dcg") == "exp-log2" else "linear"
    if m == "nDCG" and name.param("gains") is not None:
        options["gains"] = ",".join(f"{g}={_number_text(v)}" for g, v in sorted(name.param("gains").items()))
    if m == "SetF" and "beta" in options:   # ir_measures' SetF(beta=x) is trec_eval's set_F.x: x weighs as β²
        options["f_weight"] = "beta-squared"
    return _EXPLAIN_METRIC[m], options
