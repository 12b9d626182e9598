"""The bundled puzzle collection (puzzles/*.toml): every puzzle loads, validates and passes the
check (solver/puzzlecheck.py): its stated answer is proven, it has exactly one key (none when
the answer is "no"), its difficulty is its grade, and a natural play its story calls obvious
really fails. The collection covers every goal kind at 2-5 players, both modes, every level,
and half of it offers 5 or more legal plays at the key. The small puzzles' answers and keys are
cross-checked against the brute-force reference."""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable
from pathlib import Path

import pytest

from catbox.solver import Position, formats
from catbox.solver.cards import Play
from catbox.solver.limits import Limits
from catbox.solver.puzzle import GOAL_KINDS, Goal, Puzzle
from catbox.solver.puzzlecheck import LEVELS, PuzzleCheck, check

from . import reference

PUZZLE_DIR = Path(__file__).resolve().parent.parent / "puzzles"
PATHS = sorted(PUZZLE_DIR.glob("*.toml"))
NAMES = [p.stem for p in PATHS]


def load(name: str) -> Puzzle:
    pz = formats.load(PUZZLE_DIR / f"{name}.toml")
    assert isinstance(pz, Puzzle)
    return pz


ALL = {name: load(name) for name in NAMES}
_CHECKS: dict[str, PuzzleCheck] = {}


def checked(name: str) -> PuzzleCheck:
    """The check of a bundled puzzle (once per test session)."""
    if name not in _CHECKS:
        _CHECKS[name] = check(ALL[name], limits=Limits(60))
    return _CHECKS[name]


@pytest.mark.parametrize("name", NAMES)
def test_puzzle_is_well_formed(name: str) -> None:
    pz = ALL[name]
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name)
    assert pz.name == name
    pz.position.validate()
    assert pz.title.strip() and pz.description.strip()
    pos = pz.position
    assert pos.to_play == pz.goal.seat, "every puzzle asks about the seat to play"
    assert 1 <= pos.tricks_left <= (5 if pos.players == 4 else 4)
    assert pz.answer is not None and pz.answer.solvable is not None
    if pz.goal.kind == "max-score":
        assert pz.answer.value is not None
    if pz.answer.solvable and pos.all_hands_known:
        assert pz.answer.line, "a solvable puzzle with every hand known states a line"
    # round trip: what we ship is what the writer writes
    assert formats.loads(formats.dumps(pz)) == pz


@pytest.mark.parametrize("name", NAMES)
def test_puzzle_is_sound_and_graded(name: str) -> None:
    """The stated answer is proven, there is one key (none for a "no"), the stated first play
    is that key, and the difficulty is the grade."""
    pz, c = ALL[name], checked(name)
    assert c.sound, [p.message for p in c.problems]
    sol = c.solution
    assert sol.status == "proven" and sol.matches_answer is True, sol.note
    assert pz.answer is not None
    if pz.answer.solvable:
        assert sol.keys is not None and len(sol.keys) == 1
        if pz.answer.line:
            assert pz.answer.line[0] == sol.keys[0]
    else:
        assert sol.keys == ()
    assert c.grade is not None and c.grade.difficulty == pz.difficulty


OBVIOUS = re.compile(r"obvious (\d+[RBYG])")


@pytest.mark.parametrize("name", [n for n in NAMES if OBVIOUS.search(ALL[n].description)])
def test_the_obvious_play_named_in_the_story_fails(name: str) -> None:
    pz, c = ALL[name], checked(name)
    m = OBVIOUS.search(pz.description)
    assert m is not None
    named = Play.parse(m.group(1))
    assert named == c.natural, "the story names the natural play"
    assert c.solution.keys is not None and named not in c.solution.keys


def test_collection_coverage() -> None:
    puzzles = list(ALL.values())
    assert len(puzzles) >= 60
    for kind in GOAL_KINDS:
        counts = {p.position.players for p in puzzles if p.goal.kind == kind}
        assert counts == {2, 3, 4, 5}, (kind, counts)  # every goal kind at 2-5 players
    pairs = {(p.goal.kind, p.goal.mode) for p in puzzles}
    for kind in GOAL_KINDS:
        modes = ("possible",) if kind == "paradox-free-round" else ("possible", "guaranteed")
        for mode in modes:
            assert (kind, mode) in pairs, (kind, mode)
    assert any(not p.position.all_hands_known for p in puzzles), "some hidden hands"
    assert any(p.position.trick for p in puzzles), "some mid-trick positions"
    assert sum(1 for p in puzzles if p.answer and p.answer.solvable is False) >= 3
    assert any(p.position.players == 2 and p.position.revealed for p in puzzles)
    assert len({p.title for p in puzzles}) == len(puzzles), "titles are unique"
    lines = {formats.position_to_line(p.position) + str(p.goal) for p in puzzles}
    assert len(lines) == len(puzzles), "no two puzzles ask the same question"


def test_collection_grades_and_choices() -> None:
    """Every level from easy to hard, and a real choice: the median puzzle offers 5 or more
    legal plays at the key."""
    from catbox.solver.puzzlecheck import level_of

    levels = {level_of(p.difficulty) for p in ALL.values()}
    assert levels == set(LEVELS)
    legal = [len(p.position.legal_plays()) for p in ALL.values()]
    assert statistics.median(legal) >= 5
    assert sum(n >= 5 for n in legal) * 2 >= len(legal)


# ----------------------------------------------------------------------- brute-force cross-check
def _reference_answer(pos: Position, g: Goal) -> tuple[bool, int | None]:
    """(solvable, value) by the exhaustive reference solver alone."""
    s, k = g.seat, g.target
    tricks_ok: dict[str, Callable[[int], bool]] = {
        "make-exactly": lambda t: t == k,
        "make-at-least": lambda t: k is not None and t >= k,
        "make-at-most": lambda t: k is not None and t <= k,
    }
    if g.mode == "possible":
        ans = reference.possible(pos, s)
        if g.kind == "avoid-paradox":
            return ans.avoid, None
        if g.kind == "paradox-free-round":
            return ans.round, None
        if g.kind == "max-score":
            return bool(ans.scores), max(ans.scores) if ans.scores else None
        return any(tricks_ok[g.kind](t) for t in ans.tricks), None
    if g.kind == "max-score":
        v = reference.best_score(pos, s)
        return v is not None, v
    if g.kind == "avoid-paradox":
        return reference.forced(pos, s, lambda p: p.paradox != s), None
    ok = tricks_ok[g.kind]
    return reference.forced(pos, s, lambda p: p.paradox != s and ok(p.seats[s].tricks)), None


def _small(pz: Puzzle) -> bool:
    """Small enough for the brute force: few plays left, every hand known or a tiny pool."""
    pos = pz.position
    plays_left = pos.tricks_left * pos.players - len(pos.trick)
    return plays_left <= (9 if pos.all_hands_known else 6)


SMALL = [n for n in NAMES if _small(ALL[n])]


def reference_keys(pos: Position, goal: Goal, value: int | None) -> set[Play]:
    """Every first play that keeps the goal (max-score: the value), by the reference alone."""
    keys = set()
    for m in pos.legal_plays():
        ok, v = _reference_answer(pos.play(m), goal)
        if ok and (goal.kind != "max-score" or v == value):
            keys.add(m)
    return keys


@pytest.mark.parametrize("name", SMALL)
def test_small_puzzles_match_the_reference(name: str) -> None:
    """The answer and the one key, by exhaustive search over the rules engine alone."""
    pz = ALL[name]
    assert pz.answer is not None
    solvable, value = _reference_answer(pz.position, pz.goal)
    assert solvable == pz.answer.solvable
    if pz.goal.kind == "max-score":
        assert value == pz.answer.value
    if pz.position.all_hands_known:
        keys = reference_keys(pz.position, pz.goal, value)
        assert len(keys) == (1 if solvable else 0)
        if pz.answer.line:
            assert keys == {pz.answer.line[0]}


def test_reference_sample_is_meaningful() -> None:
    assert len(SMALL) >= 20
    assert sum(ALL[n].goal.mode == "guaranteed" for n in SMALL) >= 10


# ----------------------------------------------------------------------- the sheet
def test_puzzle_sheet_is_self_contained_with_answers(tmp_path: Path) -> None:
    from html.parser import HTMLParser

    from .clirun import run

    names = ["the-red-herring", "clean-sweep"]
    out = tmp_path / "sheet.html"
    code, _, err = run("puzzles", "sheet", *names, "-o", out)
    assert code == 0, err
    page = out.read_text(encoding="utf-8")

    class Tags(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.tags: list[tuple[str, dict[str, str | None]]] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.tags.append((tag, dict(attrs)))

    t = Tags()
    t.feed(page)
    tags = [tag for tag, _ in t.tags]
    assert tags.count("svg") == 2 and tags.count("section") == 3  # two puzzles, the answers
    assert "script" not in tags and "link" not in tags and "img" not in tags
    assert "http" not in page and "src=" not in page, "nothing is loaded from anywhere"
    cells = [a["data-cell"] for tag, a in t.tags if "data-cell" in a]
    assert "5R" in cells  # the boards are there, cell by cell
    answers = page[page.index("Answers") :]
    assert "The Red Herring</b>: yes — key 2G" in answers and "B:2G" in answers
    assert "Clean Sweep?</b>: no" in answers
    assert page.index("Answers") > page.rindex("<svg"), "the answers come after the diagrams"
    code, _, err = run("puzzles", "sheet", *names, "-o", out)
    assert code != 0 and "exists" in err


# ----------------------------------------------------------------------- the linter
def test_cli_check_passes_the_collection_and_fails_a_cook(tmp_path: Path) -> None:
    import json

    from .clirun import run
    from .documents import cooked_puzzle

    code, out, _ = run("puzzles", "check", "the-red-herring", "clean-sweep", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["checked"] == 2 and doc["unsound"] == []
    rh = doc["puzzles"][0]
    assert rh["name"] == "the-red-herring" and rh["sound"] and rh["keys"] == ["2G"]
    assert rh["grade"]["difficulty"] == ALL["the-red-herring"].difficulty
    assert {r["reason"] for r in rh["grade"]["reasons"]} >= {"4 legal plays at the key"}
    path = tmp_path / "cooked.toml"
    formats.save(cooked_puzzle(), path)
    code, out, _ = run("puzzles", "check", path)
    assert code == 1
    assert "cooked: 2 keys (2G 4B)" in out and "1 unsound" in out
    code, out, _ = run("puzzles", "check", path, "--json")
    doc = json.loads(out)
    assert code == 1 and doc["unsound"] == ["cooked"]
    codes = {p["code"]: p["severity"] for p in doc["puzzles"][0]["problems"]}
    assert codes["cooked"] == "error" and codes.get("dual") == "warning"
