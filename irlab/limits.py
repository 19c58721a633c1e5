"""Bounds on what irlab accepts, defined once: magnitudes no exercise needs are refused with the limit named.

Exact arithmetic has no overflow, so without bounds a typo (a grade of 10^20, a recall level of 1e-1000000000)
would make irlab compute for minutes or fill memory instead of answering. Every bound below is far above what a
textbook exercise or one TREC topic needs (a TREC run keeps 1,000 documents per topic).
"""

from __future__ import annotations

import math

from .errors import InputFileError, LimitError

MAX_RANKS = 20_000  # documents in one ranking (retrieved, or judged but not retrieved)
MAX_RELEVANT = 20_000  # R, the relevant documents of one query
MAX_GRADE = 20  # a grade whose gain is exponential: dcg's 2^g - 1 (--gain exp) and ERR's (2^g - 1) / 2^gmax grow with it
MAX_LINEAR_GRADE = 10**6  # a relevance grade as written: its gain is the grade itself under --gain linear, NTCIREVAL's
#                           ERR and Q-measure (scikit-learn's own dcg_score tests use grades up to 69)
MAX_SUBTOPICS = 1000  # subtopics (intents) of one topic; TREC Web track topics have at most 8, NTCIR's a few dozen
MAX_IDEAL_WORK = 4_000_000  # relevant documents x distinct sets of subtopics they cover, in one topic of diversity
#                             qrels: ndeval's greedy ideal ranking re-scores up to that many (irlab eval --diversity,
#                             about 3 s); a TREC Web track topic needs a few thousand (hundreds of documents, < 256 sets)
MAX_COLLECTION = 10**12  # N, the documents in the collection
MAX_CUTOFF = 10**12  # k, a cut-off rank
MAX_MEASURE_NAME = 200  # characters of a measure name as ir_measures writes it (nDCG(dcg='exp-log2')@10 has 23; a
#                         gains dict of 20 grades about 120): read by Python's parser, which a huge text would burden
MAX_CWL_TARGET = 10**12  # T of INST or INSQ computed in doubles over a whole run (irlab eval -m 'INST(T=3)'): far
#                          above any gain a user wants, and below the 1e308 where (i + 2T - 1) / (i + 2T) overflows
#                          to inf/inf = nan, as it does in cwl-eval
MAX_DIGITS = 15  # digits of the numerator or denominator of a number parameter (0.25, 1/3, 1e-6)
MAX_NUMBER_TEXT = 40  # characters of a number as written
MAX_BETA = 1000  # the F-measure's weight of recall
MAX_QUERIES = 1000  # rankings averaged in one explanation or exercise
MAX_TEXT = 100_000  # characters of one ranking or column as written
MAX_ANSWER_CHARS = 1000  # characters of one student's answer as written (a pasted double has about 20, an exact
#                          fraction a few dozen): a longer one, or a Python number of more digits, is graded unreadable
#                          with this bound named, instead of being converted digit by digit
MAX_NAME = 255  # characters of a system's or a run's name in an exercise set: a name is typed, like a TREC run id;
#                 each formula that names it sets it in full, and a formula's length costs its HTML quadratically

# Work: bounds on what a computation costs, not only on the size of its input, each checked from the parameters
# before the costly work starts (a 470 KB set or a command line of 30 characters could otherwise ask for gigabytes).
MAX_FILLED_TEXT = 1 << 20  # characters of a statement or question once its placeholders are filled: as long as the
#                            largest set could be written out (MAX_SET_BYTES); "{ranking}" written 50,000 times over
#                            a 20,000-letter ranking would fill a gigabyte
MAX_EXACT_DIGITS = 4000  # digits of the numerator or denominator of an exact value a metric builds up rank by rank
#                          (RBP's p^(i-1), ERR's Disp_j, a user model's Π C(j) and its sum ED, the sign test's 2^n):
#                          Python itself refuses to write an integer of more than 4,300 digits (its guard against
#                          quadratic conversion), and a TREC topic's 1,000 ranks need at most about 2,000 (RBP at
#                          p = 0.99; ERR with grades 0-4: 1,200; INSQ at T = 1: 870)
MAX_EXACT_WORK = 4_000_000  # ranks x digits of their exact weights, in one table of per-rank values (RBP's p^(i-1),
#                             a user model's W(i) and L(i)): 1,000 ranks of MAX_EXACT_DIGITS digits; each row's value
#                             is computed and written out, in time that grows with both
MAX_LOG_TERMS = 1000  # logarithms in an exact sum that every rank read adds to (SDCG's Σ_{i<=k} 1/log2(i+1)), kept
#                       symbolic in sympy: cwl-eval's default depth, a TREC run's 1,000 documents (several seconds)
MAX_LOG_RUNNING = 100  # ranks of a table whose cumulative column is an exact sum of logarithms (α-DCG's running
#                        Σ g_i / log2(i+1)): each row adds to the sum so far in sympy, a cost that grows with the
#                        square of the ranks (100: about a second; 1,000: over a minute); ndeval's cut-offs go to 20
MAX_TOPICS = 10_000  # topics of one paired significance test: TREC's Million Query track judged 10,000 queries, an
#                      ad hoc track 50 to 250; the sign test's 2^n and the permutation test's and bootstrap's
#                      samples x topics grow with them
MAX_SAMPLED_WORK = 10**8  # samples x topics drawn by a permutation test or a bootstrap: the default 10,000 samples
#                           over MAX_TOPICS topics, about a second of numpy; --samples 10^12 would never end

# Files: bounds that no real file meets, so that a small hostile file (a gzip bomb, gigabytes of NUL bytes, a flood
# of blank lines, one endless line) ends in one error within seconds and bounded memory instead of minutes and GBs.
# TREC qrels and run files (irlab eval, irlab pool); trec_eval 10.0 is the guide (../shared/trec_eval, 10.0 source):
MAX_LINE_BYTES = 10_000  # one line; trec_eval reads a run from stdin with fgets(lineBuffer, MAXLINE) and
#                          MAXLINE 10000 (get_trec_results.c). A TREC line has under 200 bytes.
MAX_ID_BYTES = 255  # a qid or docno. trec_eval has no bound of its own but the line's; the longest real ids have
#                     about 45 bytes (TREC RAG's msmarco_v2.1 segment ids), Wikipedia titles, the ids of some
#                     collections, at most 255. The reader's columns are as wide as the longest id (a power of two
#                     up to 256 bytes), so this also bounds the memory of every row.
MAX_GZIP_RATIO = 100  # bytes a .gz qrels or run file may inflate to, per compressed byte: real TREC files compress
#                       4-10 times (a 7M-line run: 5 times), deflate can reach 1032, so a bomb is stopped after
#                       reading 100 times its size (a 1 MB file: 100 MB, well under a second) ...
MAX_GZIP_SLACK = 16 << 20  # ... plus this much, whatever the ratio (a tiny .gz of a small file)
MAX_SKIPPED_LINES = 10_000  # blank or comment lines of one file; beyond it they may not outnumber the data lines.
#                             trec_eval stops at the first blank line; irlab skips them, and a file that is mostly
#                             blank would otherwise be read line by line for minutes. Class CSVs (answers, rosters,
#                             LMS exports) skip blank rows under the same bound (irlab.homework.identity.data_rows).
# Class files: a class of 12,500 students with 10 answers each is a 2 MB answers CSV (benchmarks/bench_grading.py).
MAX_SET_BYTES = 1 << 20  # an exercise set (TOML): 170 times the largest in exercises/ (6 KB); read in about 0.2 s
MAX_CLASS_FILE_BYTES = 64 << 20  # an answers CSV, a roster CSV or a class manifest
MAX_JUDGING_LIST_BYTES = 64 << 20  # a filled-in judging list (irlab pool --to-qrels): TREC pools of 50 topics x 2,000
#                                   documents are 3 MB as CSV; the same bound as a class CSV
MAX_VARIANT_DRAWS = 200  # draws tried for one student's variant of an exercise before the ranges are called too
#                          narrow: a set whose draws are worth solving half the time needs about 2; 200 failures in a
#                          row mean almost none is (the error names the last reason and how to widen the ranges)
MAX_QUIZ_VARIANTS = 100  # variants of each question in an LMS question bank (irlab quiz): a class of any size
#                          draws from them; each is a sheet, an answer key and its named mistakes to compute
MAX_CSV_LINE = 100_000  # characters of one line of a class CSV (a field longer than 131,072 characters is refused
#                         by Python's csv module, whose default limit irlab keeps)
# A student's own evaluator output (irlab check-eval): TTDS's ir_eval.csv is 66 rows (2 KB), trec_eval -q output of
# 50 topics x every measure about 100 KB per run; a larger file is read up to the bound, the rest reported.
MAX_SUBMISSION_BYTES = 4 << 20  # bytes of one submitted output file
MAX_SUBMISSION_PROBLEMS = 50  # layout problems listed one by one in a report (the rest are counted): a student reads
#                               the first few and fixes the pattern
MAX_BUG_PAIRS = 400  # pairs of catalogue bugs tried together on the cells no single bug explains: the classics make
#                      under 300 pairs, a course may add its own; each pair recomputes at most the whole table


def check_at_most(value: int, limit: int, what: str) -> int:
    """``value`` when it is at most ``limit``, else a LimitError naming both."""
    if value > limit:
        raise LimitError(f"{what} is at most {limit:,} (irlab's limit; no exercise needs more), got {_short(value)}")
    return value


def check_digits(value, what: str):
    """A rational parameter whose numerator and denominator have at most MAX_DIGITS digits."""
    from fractions import Fraction

    fraction = Fraction(value)
    bound = 10**MAX_DIGITS
    if abs(fraction.numerator) >= bound or fraction.denominator >= bound:
        raise LimitError(f"{what} has more than {MAX_DIGITS} digits in its numerator or denominator (irlab's limit; "
                         "no exercise needs that precision)")
    return value


def digits(n: int) -> int:
    """About how many decimal digits the integer ``n`` has, from its bit length (no conversion: a cheap estimate)."""
    return int(abs(n).bit_length() * 0.30103) + 1


def power_digits(base: int, exponent: int) -> int:
    """The decimal digits of base^exponent, estimated without computing it (p^n of a persistence, 2^n)."""
    return int(exponent * math.log10(abs(base))) + 1 if abs(base) > 1 else 1


def check_exact_digits(count: int, what: str, advice: str) -> None:
    """A LimitError naming MAX_EXACT_DIGITS when ``what`` needs exact numbers of about ``count`` digits."""
    if count > MAX_EXACT_DIGITS:
        raise LimitError(f"{what} needs exact numbers of about {count:,} digits; irlab computes exactly with at most "
                         f"{MAX_EXACT_DIGITS:,} digits (its limit MAX_EXACT_DIGITS; a TREC topic of 1,000 ranks needs "
                         f"at most about 2,000): {advice}")


def check_exact_work(ranks: int, count: int, what: str, advice: str) -> None:
    """A LimitError naming MAX_EXACT_WORK when a table of ``ranks`` exact values of ``count`` digits is too costly."""
    if ranks * count > MAX_EXACT_WORK:
        raise LimitError(f"{what} needs exact values of about {count:,} digits at each of {ranks:,} ranks or more, "
                         f"over {ranks * count:,} digits in all; irlab's limit MAX_EXACT_WORK is {MAX_EXACT_WORK:,} "
                         f"(1,000 ranks of {MAX_EXACT_DIGITS:,} digits): {advice}")


def _short(value: int) -> str:
    """An integer for a message: its digits, or how many there are when it is long."""
    digits = len(str(value)) if abs(value).bit_length() < 200 else None
    return f"{value:,}" if digits is not None else f"a number of about {int(abs(value).bit_length() * 0.30103) + 1} digits"


def read_at_most(path, limit: int, limit_name: str, what: str) -> bytes:
    """The bytes of the file ``path``; an InputFileError naming the limit when it holds more than ``limit`` bytes.

    Never reads more than ``limit + 1`` bytes, so a huge file or a device (/dev/zero) is refused at once. A missing
    file or a directory raises the OSError of ``open``, for the caller to word.
    """
    with open(path, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise InputFileError(path, None, f"more than {limit:,} bytes: {what} is at most {limit:,} bytes "
                                         f"(irlab's limit {limit_name}; no real one is that large)")
    return data
