"""The project carries its own docs: every relative link in README.md, CONTRIBUTING.md and
docs/*.md resolves to a file (or folder) in a plain clone, nothing links outside the
repository, and the rules doc lists every rule id the code cites."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [
    ROOT / "README.md",
    ROOT / "CONTRIBUTING.md",
    ROOT / "bench" / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def _links(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # code blocks hold no links
    return LINK.findall(text)


def test_the_reference_docs_exist() -> None:
    assert {p.name for p in (ROOT / "docs").glob("*.md")} >= {
        "rules.md",
        "formats.md",
        "analysis.md",
    }


def test_the_readme_is_a_front_page() -> None:
    """At most 350 lines, none over 200 characters, and no development log: the history of the
    performance work lives in docs/performance-log.md, the figures in bench/README.md."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 350
    assert max(len(line) for line in lines) <= 200
    text = "\n".join(lines)
    assert not re.search(r"\b[Ss]tops? \d", text)
    for page in ("cli", "batch", "pictures", "player", "board", "performance-log"):
        assert f"docs/{page}.md" in text, page
    assert "bench/README.md" in text


def test_every_relative_link_resolves_in_the_repository() -> None:
    checked = 0
    for doc in DOCS:
        for target in _links(doc):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a web address or an anchor in the same page
            path = (doc.parent / target.split("#")[0]).resolve()
            assert path.is_relative_to(ROOT), f"{doc.name}: {target} leaves the repository"
            assert path.exists(), f"{doc.name}: {target} does not exist"
            checked += 1
    assert checked >= 8  # README and CONTRIBUTING link the docs


def test_no_file_links_outside_the_repository() -> None:
    for path in [*DOCS, *ROOT.glob("solver/**/*.py"), *ROOT.glob("cli/**/*.py")]:
        assert "../shared" not in path.read_text(encoding="utf-8"), path


def test_the_rules_doc_defines_every_rule_id_the_code_cites() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    defined = set(re.findall(r"\*\*([0-9A-Z][A-Za-z0-9]*\d)\.\*\*", rules))
    assert {"L1", "L3", "F2", "W1", "X1", "Sc2", "2P2", "I4"} <= defined
    cited: set[str] = set()
    for path in ROOT.glob("solver/**/*.py"):
        cited |= set(re.findall(r'rule="([0-9A-Z][A-Za-z0-9]*\d)"', path.read_text("utf-8")))
    assert cited and cited <= defined, cited - defined
