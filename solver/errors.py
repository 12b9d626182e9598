"""One error tree for every mistake in the input (house style: python-chess's error trio).

Every error carries the rule it breaks (a rules.md id such as ``L1`` or a formats.md check such
as ``counts``) and where it was found (file, key, line), so that the CLI can print one line.

>>> e = IllegalPlayError("cell 5B is taken", rule="L1", where="moves[3]")
>>> str(e)
'moves[3]: cell 5B is taken [rule L1]'
>>> isinstance(e, ValueError)
True

A location is attached in one way, :meth:`CatboxError.located`: outer readers prefix what they
know (a key, then the file name); once a location names its file it is ``final`` and outer
readers leave it alone.

>>> e = FormatError("expected a number", where="hand[2]")
>>> str(e.located("seat.B", sep=".").located("pos.toml", final=True).located("puzzle.toml"))
'pos.toml: seat.B.hand[2]: expected a number'

A bug in a solver is not bad input: :class:`SolverBug` is a ``RuntimeError``, never caught by
``except CatboxError`` (or ``except ValueError``).

>>> issubclass(SolverBug, CatboxError), issubclass(SolverBug, RuntimeError)
(False, True)
"""

from __future__ import annotations

from typing import Self

__all__ = [
    "CatboxError",
    "FileError",
    "FormatError",
    "IllegalPlayError",
    "PositionError",
    "SolverBug",
    "bug_json",
    "internal_error",
]


class CatboxError(ValueError):
    """Base of every error catbox raises for bad input.

    ``code`` optionally names the situation for a front end (e.g. ``"file-exists"``), which may
    add a hint of its own (the library's messages never name command-line options).
    """

    kind = "error"

    def __init__(
        self,
        message: str,
        *,
        rule: str | None = None,
        where: str | None = None,
        code: str | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.where = where
        self.code = code
        #: The location names its file: outer readers no longer prefix it.
        self.final = False

    def located(
        self,
        where: str | None,
        *,
        sep: str = ": ",
        replace: bool = False,
        final: bool = False,
    ) -> Self:
        """Attach a location: prefix ``where`` (a file name, then a key …) to the location so
        far, joined by ``sep`` (``"."`` for an outer key path); with ``replace`` ``where``
        replaces it (it already includes it). Does nothing once the location is ``final``;
        ``final`` makes the result so. Returns self, for ``raise e.located(...)``."""
        if self.final:
            return self
        if replace:
            self.where = where
        elif where:
            self.where = f"{where}{sep}{self.where}" if self.where else where
        self.final = final
        return self

    def __str__(self) -> str:
        text = f"{self.where}: {self.message}" if self.where else self.message
        return f"{text} [rule {self.rule}]" if self.rule else text

    def to_json(self) -> dict[str, str | None]:
        return {"kind": self.kind, "message": self.message, "rule": self.rule, "where": self.where}


class FormatError(CatboxError):
    """A file or string that cannot be read: syntax, unknown keys, wrong types, bad values."""

    kind = "format"


class FileError(CatboxError):
    """A file that cannot be read or written: missing, a directory, not permitted, or an
    existing file that would be overwritten (``code="file-exists"``)."""

    kind = "file"


class PositionError(CatboxError):
    """A well-formed position that cannot arise under the rules (counts, tokens, permissions),
    or a question the position cannot answer (e.g. legal plays of an unknown hand)."""

    kind = "position"


class IllegalPlayError(CatboxError):
    """A play that breaks a rule (L1-L3) or is made when the round is over."""

    kind = "illegal-play"


class SolverBug(RuntimeError):
    """A solver produced a line that the rules engine rejects. Never shown as an answer.

    A ``RuntimeError``, not a :class:`CatboxError`: a bug must never pass as bad input."""

    kind = "internal"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def to_json(self) -> dict[str, str | None]:
        return internal_error(self.message)


def internal_error(message: str, *, kind: str = "internal") -> dict[str, str | None]:
    """The one JSON error object of a bug (or of a worker that died or overran, ``kind``):
    ``{"kind", "message", "rule": None, "where": None}``, as every front door reports it.

    >>> internal_error("the worker process died")["kind"]
    'internal'
    """
    return {"kind": kind, "message": message, "rule": None, "where": None}


def bug_json(exc: BaseException) -> dict[str, str | None]:
    """An unexpected exception (a bug, never the user's mistake) as its error object: the
    exception's type and its message on one line.

    >>> bug_json(KeyError("x"))["message"]
    "internal error: KeyError: 'x'"
    """
    if isinstance(exc, SolverBug):
        return exc.to_json()
    text = " ".join(str(exc).split()) or "(no message)"
    return internal_error(f"internal error: {type(exc).__name__}: {text}")
