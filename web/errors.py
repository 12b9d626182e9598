"""What the board adds to the library's errors: hints in the board's own words, and the one
JSON error object every bad request gets (a catbox error is answered 422: a well-formed
request whose content catbox cannot use).

>>> from catbox.solver.errors import IllegalPlayError
>>> error_json(IllegalPlayError("cell 5B is taken", rule="L1"))["message"]
'cell 5B is taken [rule L1]'
"""

from __future__ import annotations

from typing import Any

from catbox.solver.errors import CatboxError, bug_json, internal_error
from catbox.solver.rules import RULE_TEXT

# the one builder of internal-error objects is the library's (solver/errors.py); the board's
# modules take it from here
__all__ = ["HINTS", "ApiError", "bug_json", "error_json", "internal_error"]

#: Hints by :attr:`CatboxError.code`, appended to the message shown in the page.
HINTS: dict[str, str] = {
    "needs-known-hands": "ask for kind 'advise' instead (estimates from the seat's own view)",
}


class ApiError(Exception):
    """A bad request that is not about catbox's input formats (a missing field, a body too
    large, a wrong Host): an HTTP status and one clear message."""

    def __init__(self, status: int, message: str, *, kind: str = "request"):
        super().__init__(message)
        self.status = status
        self.message = message
        self.kind = kind

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message, "rule": None, "where": None}


def error_json(e: CatboxError) -> dict[str, Any]:
    """``e`` as ``{"kind", "message", "rule", "where", "rule_text"}``; ``message`` is the one line
    to show (location, text, hint and rule, as the command line prints it), ``rule_text`` the
    library's words for the rule (:data:`catbox.solver.rules.RULE_TEXT`), or None."""
    out = e.to_json()
    out["rule_text"] = RULE_TEXT.get(e.rule or "")
    text = e.message
    hint = HINTS.get(e.code or "")
    if hint:
        text = f"{text}; {hint}"
    if e.where:
        text = f"{e.where}: {text}"
    if e.rule:
        text = f"{text} [rule {e.rule}]"
    out["message"] = text
    return out
