"""Exception types: every bad input raises one of these, with one clear message."""


class IrlabError(ValueError):
    """Base class for every error irlab reports to a user (bad input, impossible parameters)."""


class RankingError(IrlabError):
    """A ranking (R/N string, grade list, judge column, list of ids) cannot be read or is inconsistent."""


class ParameterError(IrlabError):
    """A metric parameter (k, recall level, beta, a convention name…) is out of range or unknown."""


class InputTypeError(IrlabError, TypeError):
    """A value of the wrong type (None, a number where a ranking or a list is needed…); also a TypeError."""


class LimitError(ParameterError):
    """A size or magnitude beyond what any exercise needs (irlab/limits.py); the message names the limit."""


class InputFileError(IrlabError):
    """A data file (TREC qrels/run, exercise set) is malformed; the message names file and line."""

    def __init__(self, path, line, problem):
        self.path = str(path)
        self.line = line
        self.problem = problem
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {problem}")


class OutputFileError(IrlabError):
    """A file irlab was asked to write (--pdf, --html, --out) cannot be written; the message names it."""

    def __init__(self, path, problem):
        self.path = str(path)
        super().__init__(f"{self.path}: cannot write: {problem}")
