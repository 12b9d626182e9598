"""The served page's own files, read as code: ES modules of at most 300 lines each, one dialect,
and no rule-text table (the page shows the library's rule text, rules.RULE_TEXT, sent by the
server with each refused play)."""

from __future__ import annotations

import re
from pathlib import Path

from catbox.solver.rules import RULE_TEXT

STATIC = Path(__file__).parent.parent / "web" / "static"
SCRIPTS = sorted(STATIC.glob("*.js"))
# the review page's scripts (inlined into a self-contained file: classic scripts, the same
# modern dialect: let/const and arrow functions, no var)
ASSETS = sorted((Path(__file__).parent.parent / "solver" / "assets").glob("*.js"))


def test_the_page_loads_one_module_that_imports_the_rest() -> None:
    page = (STATIC / "index.html").read_text()
    modules = re.findall(r'<script type="module" src="/static/([\w.-]+)"', page)
    assert modules == ["main.js"]
    assert '<script src="/static/' not in page  # no classic script of the page's own
    imported = {"main.js"}
    for js in SCRIPTS:
        imported |= set(re.findall(r'(?:from|import) "\./([\w.-]+)"', js.read_text()))
    assert imported == {js.name for js in SCRIPTS}  # every file is reached, none is stray


def test_no_script_over_300_lines_and_one_dialect() -> None:
    for js in SCRIPTS:
        text = js.read_text()
        assert len(text.splitlines()) <= 300, js.name
        assert '"use strict"' not in text and not re.search(r"^\s*var ", text, re.M), js.name


def test_the_review_pages_scripts_are_short_and_of_the_same_dialect() -> None:
    assert {js.name for js in ASSETS} >= {"board.js", "review.js", "review_parts.js"}
    for js in ASSETS:
        text = js.read_text()
        assert len(text.splitlines()) <= 300, js.name
        assert not re.search(r"\bvar\b|function \(", text), js.name


def test_no_rule_text_table_in_the_page() -> None:
    for js in SCRIPTS:
        text = js.read_text()
        assert not re.search(r"\bL[1-3]\s*:", text), js.name
        for words in RULE_TEXT.values():
            assert words[:25] not in text, (js.name, words)


def test_web_builds_no_internal_error_of_its_own() -> None:
    """No "internal" error object built in web/ (the library's builder, errors.internal_error
    and bug_json, makes every one); web/'s short functions: tests/test_code_shape.py."""
    web = STATIC.parent
    builders = [p.name for p in web.glob("*.py") if '"internal"' in p.read_text()]
    assert builders == []
