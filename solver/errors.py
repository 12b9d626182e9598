"""One error tree for every mistake in the input (house style: python-chess's error trio).

Every error carries the rule it breaks (a rules.md id such as ``L1`` or a formats.md check such
as ``counts``) and where it was found (file, key, line), so that the CLI can print one line.

>>> e = IllegalPlayError("cell 5B is taken", rule="L1", where="moves[3]")
>>> str(e)
'moves[3]: cell 5B is taken [rule L1]'
>>> isinstance(e, ValueError)
True
"""

from __future__ import annotations

__all__ = [
    "CatboxError",
    "FileError",
    "FormatError",
    "IllegalPlayError",
    "PositionError",
    "SolverBug",
]


class CatboxError(ValueError):
    """Base of every error catbox raises for bad input."""

    kind = "error"

    def __init__(self, message: str, *, rule: str | None = None, where: str | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.where = where

    def located(self, where: str) -> CatboxError:
        """Prefix the location (a file name, then a key …); returns self for ``raise``."""
        self.where = f"{where}: {self.where}" if self.where else where
        return self

    def __str__(self) -> str:
        text = f"{self.where}: {self.message}" if self.where else self.message
        return f"{text} [rule {self.rule}]" if self.rule else text

    def to_json(self) -> dict[str, str | None]:
        return {"kind": self.kind, "message": self.message, "rule": self.rule, "where": self.where}


class FormatError(CatboxError):
    """A file or string that cannot be read: syntax, unknown keys, wrong types, bad values."""

    kind = "format"


class FileError(FormatError):
    """A file that cannot be read or written: missing, a directory, not permitted, or an
    existing file that would be overwritten without ``--force``."""

    kind = "file"


class PositionError(CatboxError):
    """A well-formed position that cannot arise under the rules (counts, tokens, permissions),
    or a question the position cannot answer (e.g. legal plays of an unknown hand)."""

    kind = "position"


class IllegalPlayError(CatboxError):
    """A play that breaks a rule (L1-L3) or is made when the round is over."""

    kind = "illegal-play"


class SolverBug(CatboxError):
    """A solver produced a line that the rules engine rejects. Never shown as an answer."""

    kind = "internal"
