"""The served board's JSON API against a real ``catbox serve`` (a subprocess on a free port):
answers equal the library's (the ``--json`` shapes), bad input is a 4xx with one message, the
Host and Origin checks, jobs in worker processes (rows as proven, cancel, a replaced worker),
and 1,000 mixed requests without a 5xx."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from catbox.solver import formats
from catbox.solver.analysis import analyze_play
from catbox.solver.deal import deal_round, random_position
from catbox.solver.estimates.advise import advise
from catbox.solver.limits import Limits
from catbox.solver.record import Record
from catbox.solver.rules import RULE_TEXT
from catbox.solver.shapes import row_json
from catbox.web.practice import bot_play

from .webserver import Served, mixed_request

# the quick lane leaves these out (tests/conftest.py): each needs a real server process
pytestmark = pytest.mark.slow

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


@pytest.fixture(scope="module")
def server() -> Iterator[Served]:
    s = Served("the-red-herring")
    yield s
    s.stop()


def post(s: Served, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    return s.call("POST", path, body)


def ok(s: Served, path: str, body: dict[str, Any]) -> Any:
    status, doc = post(s, path, body)
    assert status == 200, doc
    return doc


def assert_error(status: int, doc: Any, expected: int, *words: str) -> None:
    assert status == expected, doc
    message = doc["error"]["message"]
    assert message and all(w in message for w in words), message


# ---------------------------------------------------------------------------- documents
def test_the_document_named_on_the_command_line_opens_first(server: Served) -> None:
    status, doc = server.call("GET", "/api/initial")
    assert status == 200
    d = doc["document"]
    assert (d["kind"], d["title"], d["seats"]) == ("puzzle", "The Red Herring", ["A", "B"])
    pz = formats.load_puzzle(PUZZLES / "the-red-herring.toml")
    assert d["plies"] == [formats.position_to_line(pz.position.settle())]
    assert d["goal"] == pz.goal.describe()


def test_load_reads_every_kind_of_paste(server: Served) -> None:
    rec_text = (PUZZLES / "records" / "four-player-round.toml").read_text()
    rec = formats.loads(rec_text)
    assert isinstance(rec, Record)
    d = ok(server, "/api/load", {"text": rec_text})
    assert d["kind"] == "record" and len(d["plies"]) == len(rec.moves) + 1
    assert d["plies"][-1] == formats.position_to_line(rec.position())
    assert [m["play"] for m in d["moves"]] == [str(m) for m in rec.moves]
    assert [m["by"] for m in d["moves"][:4]] == ["A", "B", "C", "D"]
    first_trick_winner = rec.position(4).leader
    assert d["moves"][3]["ends_trick"] and d["moves"][3]["winner"] == "ABCD"[first_trick_winner]
    assert formats.from_json_obj(d["record"]) == rec.with_moves(())

    pos_text = (PUZZLES / "positions" / "four-player-hidden-hands.toml").read_text()
    d = ok(server, "/api/load", {"text": pos_text})
    assert d["kind"] == "position" and d["record"] is None
    line = d["plies"][0]
    assert ok(server, "/api/load", {"text": line})["plies"] == [line]
    as_json = formats.dumps(formats.loads(pos_text), "json")
    assert ok(server, "/api/load", {"text": as_json})["plies"] == [line]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("hello", ["TOML syntax error"]),
        ("{not json", ["JSON syntax error"]),
        ('format = "catbox-position/9"\nplayers = 4\n', ["newer version"]),
        ("cbx1:4A:8/8/8:X9.RBYG.0,X9.RBYG.0,X9.RBYG.0,X9.RBYG.0:A", ["3 rows"]),
        ("", ["nothing to load"]),
        (
            'format = "catbox-puzzle/1"\ntitle = "t"\ndifficulty = 1\ndescription = ""\n'
            'position = "/etc/passwd"\n[goal]\nseat = "A"\nkind = "avoid-paradox"\n'
            'mode = "possible"\n',
            ["refers to a file"],
        ),
    ],
)
def test_a_bad_paste_is_one_clear_4xx_message(server: Served, text: str, words: list[str]) -> None:
    status, doc = post(server, "/api/load", {"text": text})
    assert_error(status, doc, 400 if not text else 422, *words)


def test_deal_is_the_seeded_round(server: Served) -> None:
    d = ok(server, "/api/deal", {"players": 3, "seed": 11})
    deal = deal_round(3, 11, predictions=True)
    assert d["plies"] == [formats.position_to_line(deal.position)]
    assert formats.from_json_obj(d["record"]) == Record.from_deal(deal)


# ---------------------------------------------------------------------------- view and play
def test_view_lists_legal_plays_and_the_rule_of_each_illegal_one(server: Served) -> None:
    pos = random_position(4, 3, 3, mid_trick=1)
    v = ok(server, "/api/view", {"position": formats.position_to_line(pos)})
    ex = pos.explain()
    assert v["moves"]["legal"] == [str(p) for p, r in ex if r is None]
    # each refused play with its rule and the library's own words for it (rules.RULE_TEXT)
    assert v["moves"]["illegal"] == [
        {"play": str(p), "rule": r, "text": RULE_TEXT[r]} for p, r in ex if r
    ]
    assert v["hand"] == list(pos.seats[pos.to_play or 0].hand or ())
    assert v["svg"].startswith("<svg") and v["svg"].count("data-cell=") == 32
    assert v["all_hands_known"] and v["score"] is None


def test_view_from_one_seat_hides_the_other_hands(server: Served) -> None:
    pos = deal_round(4, 2).position
    v = ok(server, "/api/view", {"position": formats.position_to_line(pos), "view": "B"})
    assert v["svg"].count('class="card hidden"') == 3 * 9


def test_seat_names_travel_with_the_document_and_label_the_board(server: Served) -> None:
    """The one-line positions drop names: the document lists them, and view, play and export
    take them back (one per seat, all different, checked)."""
    rec_text = (PUZZLES / "records" / "four-player-round.toml").read_text()
    d = ok(server, "/api/load", {"text": rec_text})
    assert d["names"] == ["Ann", "Ben", "Cy", "Dee"]
    line, names = d["plies"][0], d["names"]
    v = ok(server, "/api/view", {"position": line, "names": names})
    assert ">A Ann<" in v["svg"] and ">D Dee<" in v["svg"]
    assert ">A<" in ok(server, "/api/view", {"position": line})["svg"]
    p = formats.position_from_line(line).legal_plays()[0]
    after = ok(server, "/api/play", {"position": line, "names": names, "play": str(p)})
    assert ">B Ben<" in after["svg"]
    out = ok(server, "/api/export", {"what": "position", "position": line, "names": names})
    assert formats.loads(out["text"]).seat_names == ("Ann", "Ben", "Cy", "Dee")  # type: ignore[union-attr]
    for bad, code in [(["Ann"], 422), (["Ann", "Ann", "Cy", "Dee"], 422), ("Ann", 400)]:
        status, doc = post(server, "/api/view", {"position": line, "names": bad})
        assert_error(status, doc, code, "names")
    status, doc = post(server, "/api/view", {"position": line, "names": ["x" * 41] * 4})
    assert_error(status, doc, 400, "names")
    assert ok(server, "/api/deal", {"players": 3, "seed": 1})["names"] == []  # none: letters


def test_play_returns_the_next_position_or_the_rule_broken(server: Served) -> None:
    pos = deal_round(4, 5).position
    line = formats.position_to_line(pos)
    p = pos.legal_plays()[0]
    after = ok(server, "/api/play", {"position": line, "play": str(p)})
    assert after["line"] == formats.position_to_line(pos.play(p))
    assert after["move"] == {"play": str(p), "by": "A", "ends_trick": False, "winner": None}
    red = next(q for q, r in pos.explain() if r == "L3")
    status, doc = post(server, "/api/play", {"position": line, "play": str(red)})
    assert_error(status, doc, 422, "red", "[rule L3]")
    assert doc["error"]["rule"] == "L3" and doc["error"]["kind"] == "illegal-play"
    status, doc = post(server, "/api/play", {"position": after["line"], "play": str(p)})
    assert_error(status, doc, 422)  # the cell is taken (L1), or B holds no such card


def test_export_gives_back_the_record_built_so_far(server: Served) -> None:
    d = ok(server, "/api/deal", {"players": 4, "seed": 8})
    pos = formats.position_from_line(d["plies"][0])
    moves = []
    for _ in range(6):
        p = pos.legal_plays()[-1]
        moves.append(str(p))
        pos = pos.play(p)
    for syntax in ("toml", "json"):
        out = ok(
            server,
            "/api/export",
            {"what": "record", "record": d["record"], "moves": moves, "syntax": syntax},
        )
        assert out["filename"] == f"catbox-record.{syntax}"
        rec = formats.loads(out["text"], "json" if syntax == "json" else "toml")
        assert isinstance(rec, Record) and rec.position() == pos
    out = ok(server, "/api/export", {"what": "position", "position": formats.position_to_line(pos)})
    assert formats.loads(out["text"]) == pos
    bad = [*moves, moves[0]]
    status, doc = post(
        server, "/api/export", {"what": "record", "record": d["record"], "moves": bad}
    )
    assert_error(status, doc, 422, "move 7")


# ---------------------------------------------------------------------------- jobs
def test_analyze_job_streams_the_rows_of_analyze(server: Served) -> None:
    pos = random_position(4, 6, 2, mid_trick=2)
    status, snap = post(
        server, "/api/jobs", {"kind": "analyze", "position": formats.position_to_line(pos)}
    )
    assert status == 202 and snap["state"] in ("queued", "running")
    done = server.wait_job(snap["id"])
    assert done["state"] == "done", done
    expected = [row_json(analyze_play(pos, p, limits=Limits(60))) for p in pos.legal_plays()]
    assert done["rows"] == expected
    result = done["result"]
    assert result["moves"] == expected and result["status"] == "proven"
    scores = [r["best_score"] for r in expected]
    top = max(s for s in scores if s is not None)
    assert result["best"] == [r["play"] for r in expected if r["best_score"] == top]
    again = server.call("GET", f"/api/jobs/{snap['id']}?since={len(expected) - 1}")[1]
    assert again["rows"] == expected[-1:] and again["row_count"] == len(expected)


def test_advise_and_play_jobs_answer_as_the_library(server: Served) -> None:
    pos = random_position(3, 4, 2)
    line = formats.position_to_line(pos)
    seat = pos.to_play or 0
    snap = post(server, "/api/jobs", {"kind": "advise", "position": line, "seed": 3})[1]
    done = server.wait_job(snap["id"])
    view = pos.hide(s for s in range(3) if s != seat)
    assert done["state"] == "done" and done["result"] == json.loads(
        json.dumps(advise(view, seat, seed=3, limits=Limits(60.0)).to_json())
    )
    snap = post(server, "/api/jobs", {"kind": "play", "position": line, "seed": 5})[1]
    done = server.wait_job(snap["id"])
    assert done["result"] == {"play": str(bot_play(pos, seed=5))}
    # the budget knob: level 0 is the policy alone (serve --level sets the default)
    snap = post(server, "/api/jobs", {"kind": "play", "position": line, "seed": 5, "level": 0})[1]
    done = server.wait_job(snap["id"])
    assert done["result"] == {"play": str(bot_play(pos, seed=5, level=0))}
    status, doc = post(server, "/api/jobs", {"kind": "play", "position": line, "level": 9})
    assert_error(status, doc, 400, "level")


def test_a_cancelled_search_frees_its_worker(server: Served) -> None:
    # a whole 5-player round start: far too long to finish here
    line = formats.position_to_line(deal_round(5, 1, predictions=True).position)
    long = post(server, "/api/jobs", {"kind": "analyze", "position": line, "time_limit": 600})[1]
    time.sleep(0.5)
    status, snap = server.call("DELETE", f"/api/jobs/{long['id']}")
    assert status == 200 and (snap["state"] == "cancelled" or snap["cancelling"]), snap
    assert server.wait_job(long["id"])["state"] == "cancelled"
    quick = random_position(3, 2, 1)
    after = post(
        server, "/api/jobs", {"kind": "analyze", "position": formats.position_to_line(quick)}
    )[1]
    assert server.wait_job(after["id"], timeout=30)["state"] == "done"
    assert server.call("GET", "/api/jobs/j999999")[0] == 404


def test_job_input_is_checked_before_any_worker_sees_it(server: Served) -> None:
    pos = random_position(4, 1, 2)
    hidden = formats.position_to_line(pos.hide([pos.to_play or 0]))
    status, doc = post(server, "/api/jobs", {"kind": "analyze", "position": hidden})
    assert_error(status, doc, 422, "hand", "kind 'advise'")  # the board's hint for the code
    status, doc = post(server, "/api/jobs", {"kind": "solve", "position": hidden})
    assert_error(status, doc, 400, "kind")
    status, doc = post(server, "/api/jobs", {"kind": "play", "position": "cbx1:", "seed": 1})
    assert_error(status, doc, 422)


# ---------------------------------------------------------------------------- safety
def test_only_this_machine_and_this_page_are_answered(server: Served) -> None:
    status, doc = server.call("GET", "/api/health", headers={"Host": "evil.example:80"})
    assert_error(status, doc, 403, "Host")
    status, doc = server.call("GET", "/api/health", headers={"Host": "localhost:1"})
    assert status == 403
    status, doc = server.call("GET", "/api/health", headers={"Host": f"localhost:{server.port}"})
    assert status == 200 and doc["ok"]
    status, doc = server.call(
        "POST", "/api/deal", {"players": 3}, headers={"Origin": "http://evil.example"}
    )
    assert_error(status, doc, 403, "other sites")
    status, doc = server.call(
        "POST", "/api/deal", "players=3", headers={"Content-Type": "text/plain"}
    )
    assert_error(status, doc, 415, "JSON")
    status, doc = server.call("POST", "/api/load", {"text": "x" * 300_000})
    assert_error(status, doc, 413, "too large")
    status, doc = server.call("GET", "/etc/passwd")
    assert_error(status, doc, 404)
    status, doc = server.call("GET", "/static/../../../../etc/passwd")
    assert status == 404
    for script in ("/static/main.js", "/assets/board.js"):  # the page's, and the review's redraw
        assert server.call("GET", script)[0] == 200


def test_a_thousand_mixed_requests_never_5xx(server: Served) -> None:
    rng = random.Random(2026)
    lines = [
        formats.position_to_line(random_position(p, s, t))
        for p in (2, 3, 4, 5)
        for s, t in ((1, 1), (2, 3))
    ]
    counts = {"valid": 0, "bad": 0}
    t0 = time.monotonic()
    for _ in range(1000):
        method, path, body, headers, valid = mixed_request(rng, lines)
        status, doc = server.call(method, path, body, headers)
        assert status < 500, (method, path, status, doc)
        if valid:
            assert status == 200, (path, body, doc)
        else:
            assert 400 <= status < 500, (path, body, status, doc)
            assert doc["error"]["message"], doc
        counts["valid" if valid else "bad"] += 1
    elapsed = time.monotonic() - t0
    print(f"\n1,000 mixed requests: {counts} in {elapsed:.1f} s")  # shown with pytest -s
    assert server.alive()
    assert server.call("GET", "/api/health") == (200, {"ok": True, "workers": 2})
