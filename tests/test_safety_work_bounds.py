"""Issue 28, item 2: every solver and metric is bounded by what it costs, not only by the size of its input.

Each hostile case of the issue (a set whose statement repeats a 20,000-letter ranking 50,000 times, INSQ at a target
of 99,999 or a depth of 20,000, RBP at p = 0.99999999999999 over 20,000 ranks, ERR over 20,000 grades of 0-20, the
sign test over 20,000 topics, user models over 20,000 ranks) is refused with the bound of irlab/limits.py named, in
Python and as `irlab: error:` from the command line; a normal case just inside keeps its exact value (computed here by
hand). No timing here: benchmarks and the report measure the time.
"""

import random
import subprocess
import sys
from fractions import Fraction as F

import pytest

from irlab import Ranking, limits
from irlab.errors import InputFileError, LimitError
from irlab.exercise_set import solve

RANDOM = random.Random(28)
RN_20000 = "".join(RANDOM.choice("RN") for _ in range(20_000))


def cli(*args):
    """irlab's exit code and stderr for ``args``."""
    done = subprocess.run([sys.executable, "-m", "irlab", *args], capture_output=True, text=True, timeout=120)
    return done.returncode, done.stderr


def refused_on_cli(*args):
    code, err = cli(*args)
    assert code == 2, err
    assert err.startswith("irlab: error: ") and "Traceback" not in err
    return err


# ---------------------------------------------------------------------------------------------------------------
# a statement's placeholders: size x repeats


def _set_with_statement(tmp_path, statement, ranking):
    path = tmp_path / "set.toml"
    path.write_text(f'id = "s"\ntitle = "s"\nsource = "s"\n\n[[exercise]]\nid = "1"\nstatement = "{statement}"\n\n'
                    f'[exercise.parameters]\nranking = "{ranking}"\n\n[[exercise.question]]\nid = "a"\ntext = "P?"\n'
                    'solver = "precision"\n')
    return path


def test_a_placeholder_repeated_past_max_filled_text_is_refused_naming_the_bound_and_the_placeholder(tmp_path):
    assert limits.MAX_FILLED_TEXT == 1 << 20
    path = _set_with_statement(tmp_path, "{ranking}" * 50_000, RN_20000)
    assert 460_000 < path.stat().st_size < 480_000  # the 470 KB set
    with pytest.raises(InputFileError) as caught:
        solve(path)
    message = str(caught.value)
    assert "exercise 1, key 'statement'" in message and "MAX_FILLED_TEXT" in message
    assert "1,000,450,000 characters" in message  # 450,000 written + 50,000 x (20,000 - 9) more
    assert "{ranking}, 20,000 characters, is used 50,000 times" in message
    err = refused_on_cli("solve", str(path))
    assert "MAX_FILLED_TEXT" in err


def test_a_statement_just_under_max_filled_text_is_solved(tmp_path):
    # 52 x (20,000 + 1) = 1,040,052 characters filled, under 1,048,576
    path = _set_with_statement(tmp_path, "{ranking} " * 52, RN_20000)
    text = solve(path).render("text")
    assert " ".join([RN_20000] * 52) in text  # the statement, filled whole
    hits = RN_20000.count("R")
    assert f"Answer: P = {F(hits, 20_000)}" in text  # precision of the whole list, solved as usual
