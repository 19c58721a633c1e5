"""The "implement the metrics yourself" assignment, auto-graded: a student's own evaluator output checked cell by
cell against irlab's exact values, every wrong number named with the classic bug that reproduces it.

>>> from irlab.assignment import read_assignment, Checker                 # doctest: +SKIP
>>> outcome = Checker(read_assignment("ttds-ir-eval.toml")).check("ir_eval.csv")   # doctest: +SKIP

Modules: :mod:`.spec` (the assignment file), :mod:`.catalogue` (settings and bugs, as data), :mod:`.collection`
(qrels and runs), :mod:`.compute` (a cell under any settings, by irlab's metrics), :mod:`.submission` (the student's
file, untrusted), :mod:`.check` (the reproduction search), :mod:`.report` (text, Markdown, HTML, Gradescope, class
CSV), :mod:`.bundle` (Gradescope's autograder zip).
"""

from .catalogue import BUGS, Bug, catalogue_text
from .check import Checker, Finding, Outcome
from .spec import Assignment, read_assignment

__all__ = ["Assignment", "read_assignment", "Checker", "Outcome", "Finding", "BUGS", "Bug", "catalogue_text"]
