/* catbox HTML review: steps through a reviewed round, or through every round of a reviewed
 * game (a round selector). The data (solver/report.py review_document, or
 * game_review_document: one such document per round plus the game's summary) is embedded as
 * JSON; the board is redrawn by CatboxBoard.draw (board.js). No dependencies, no network. */
"use strict";
(function () {
  var page = JSON.parse(document.getElementById("catbox-data").textContent);
  var rounds = page.rounds || null; // a game's page: one review document per round
  var svg = document.querySelector("#board svg");
  var doc, n, plotCursor, plot, names, moveButtons;
  var ply = 0;
  var round = 1;
  var GRADE_CLASS = { "??": "g-qq", "?": "g-q", "?!": "g-qe", "!": "g-ex" };
  var MISTAKES = { "??": true, "?": true, "?!": true };
  var verdicts = {}; // move number -> review entry

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function gradeOf(move) {
    var v = verdicts[move];
    return v && v.grade ? v.grade : "";
  }

  function pct(x) { return x === null || x === undefined ? "?" : (100 * x).toFixed(1) + "%"; }

  function counts(list) { return list === null ? "unknown" : list.length ? list.join(" ") : "none"; }

  function emptied(id) {
    var e = document.getElementById(id);
    while (e.firstChild) e.removeChild(e.firstChild);
    return e;
  }

  /* ---- the parts of one round: subtitle, move list, turning points, summary, marks legend */
  function mount(d) {
    doc = d;
    n = doc.moves.length;
    verdicts = {};
    (doc.review.plays || []).forEach(function (p) { verdicts[p.move] = p; });
    if (rounds) document.getElementById("plot").innerHTML = doc.plot;
    plot = document.querySelector("#plot svg");
    plotCursor = document.querySelector("#plot .cursor");
    names = doc.names.map(function (name, i) {
      var letter = "ABCDE".charAt(i);
      return name === letter ? letter : letter + " " + name;
    });
    var who = doc.view === "player"
      ? "the plays of " + doc.seat + " judged from its own view (the other hands hidden)"
      : doc.seat ? "the plays of " + doc.seat : "every play";
    var which = rounds ? "Round " + round + " of " + rounds.length + " (round start " +
      doc.round_start + "); " : "";
    document.getElementById("subtitle").textContent = which +
      doc.players + " players (" + names.join(", ") + "); " + n + " plays; reviewed: " + who + ".";

    var moveList = emptied("moves");
    moveList.style.setProperty("--players", String(doc.players));
    moveButtons = [];
    var lastTrick = 0;
    doc.moves.forEach(function (m) {
      if (m.trick !== lastTrick) {
        if (lastTrick) {
          // pad the row so that each trick starts on its own line
          var used = moveList.children.length % (doc.players + 1);
          for (var k = used; k && k < doc.players + 1; k++) moveList.appendChild(el("span"));
        }
        moveList.appendChild(el("span", { "class": "trickno" }, "Trick " + m.trick));
        lastTrick = m.trick;
      }
      var b = el("span", { "class": "play", "role": "listitem", "data-ply": String(m.ply),
        "tabindex": "-1", "title": "move " + m.ply });
      b.appendChild(el("span", { "class": "who" }, m.seat));
      b.appendChild(document.createTextNode(m.play));
      var g = gradeOf(m.ply);
      if (g) b.appendChild(el("span", { "class": "grade " + GRADE_CLASS[g] }, g));
      b.addEventListener("click", function () { go(m.ply); });
      moveList.appendChild(b);
      moveButtons.push(b);
    });

    var turning = emptied("turning");
    (doc.review.turning_points || []).forEach(function (t) {
      var li = el("li", { "data-ply": String(t.move) }, t.text);
      li.addEventListener("click", function () { go(t.move); });
      turning.appendChild(li);
    });
    if (!turning.children.length) {
      turning.appendChild(el("li", {}, doc.view === "player"
        ? "(a player's-view review names no turning points)" : "none: nothing was lost for good"));
    }

    var summary = emptied("summary");
    if (doc.view === "full") {
      var head = el("tr");
      ["seat", "plays", "judged", "gave something up"].forEach(function (h) { head.appendChild(el("th", {}, h)); });
      summary.appendChild(head);
      Object.keys(doc.review.summary || {}).forEach(function (letter) {
        var s = doc.review.summary[letter];
        var tr = el("tr");
        tr.appendChild(el("td", {}, names["ABCDE".indexOf(letter)]));
        tr.appendChild(el("td", {}, String(s.plays)));
        tr.appendChild(el("td", {}, String(s.judged)));
        var gave = el("td", { "class": "gave" });
        if (!s.gave_up.length) gave.textContent = "none";
        s.gave_up.forEach(function (mv, i) {
          if (i) gave.appendChild(document.createTextNode(", "));
          var a = el("span", { "class": "grade " + (GRADE_CLASS[gradeOf(mv)] || ""), "data-ply": String(mv) },
            "move " + mv + (gradeOf(mv) ? " " + gradeOf(mv) : ""));
          a.addEventListener("click", function () { go(mv); });
          gave.appendChild(a);
        });
        tr.appendChild(gave);
        summary.appendChild(tr);
      });
    } else {
      var plays = doc.review.plays || [];
      var marked = plays.filter(function (p) { return p.grade; });
      var tr2 = el("tr");
      tr2.appendChild(el("td", {}, names["ABCDE".indexOf(doc.seat)]));
      tr2.appendChild(el("td", {}, plays.length + " plays judged; " + marked.length +
        " with a clearly better play (95% intervals apart)"));
      summary.appendChild(tr2);
    }

    var legend = emptied("grades");
    Object.keys(doc.grades).forEach(function (g) {
      legend.appendChild(el("dt", { "class": GRADE_CLASS[g] }, g));
      legend.appendChild(el("dd", {}, doc.grades[g]));
    });
    if (rounds) {
      document.querySelectorAll("#rounds button").forEach(function (b) {
        var on = Number(b.getAttribute("data-round")) === round;
        b.classList.toggle("current", on);
        if (on) b.setAttribute("aria-current", "page"); else b.removeAttribute("aria-current");
      });
    }
  }

  /* ---- a game: its totals and costliest plays (once), and choosing a round */
  function showRound(r, k) {
    r = Math.max(1, Math.min(rounds.length, r | 0));
    if (r !== round || !doc) { round = r; mount(rounds[r - 1]); }
    go(k);
  }

  function mountGame() {
    var g = page.game;
    var seats = Object.keys(g.seats);
    var label = function (letter) {
      var name = g.names && g.names.length ? g.names["ABCDE".indexOf(letter)] : "";
      return name && name !== letter ? letter + " " + name : letter;
    };
    var table = document.getElementById("totals");
    var head = el("tr");
    head.appendChild(el("th", {}, "seat"));
    rounds.forEach(function (_, i) { head.appendChild(el("th", {}, "round " + (i + 1))); });
    ["total", "predictions", "paradoxes caused"].forEach(function (h) { head.appendChild(el("th", {}, h)); });
    table.appendChild(head);
    seats.forEach(function (letter) {
      var s = g.seats[letter];
      var won = g.winners && g.winners.indexOf(letter) >= 0;
      var tr = el("tr", won ? { "class": "winner" } : {});
      tr.appendChild(el("td", {}, label(letter) + (won ? " ★" : "")));
      s.scores.forEach(function (v) { tr.appendChild(el("td", { "class": "num" }, v === null ? "?" : String(v))); });
      tr.appendChild(el("td", { "class": "num total" }, s.total === null ? "?" : String(s.total)));
      tr.appendChild(el("td", {}, s.predictions.map(function (p) { return p === null ? "—" : String(p); }).join(" ")));
      tr.appendChild(el("td", { "class": "num" }, String(s.paradoxes)));
      table.appendChild(tr);
    });
    var list = document.getElementById("costliest");
    g.costliest.forEach(function (c) {
      var text = "Round " + c.round + ", move " + c.move + ": " + label(c.seat) + " played " + c.play +
        (c.grade ? " " + c.grade : "") + (c.marks && c.marks.length ? " — " + c.marks.join("; ") : "") +
        (c.score_change !== undefined && c.score_change !== null ? " (score " + c.score_change.toFixed(2) + ")" : "") +
        (c.better ? "; better " + c.better : "");
      var li = el("li", { "class": "grade-row " + (GRADE_CLASS[c.grade] || ""), "data-round": String(c.round),
        "data-ply": String(c.move), "tabindex": "0" }, text);
      li.addEventListener("click", function () { showRound(c.round, c.move); });
      list.appendChild(li);
    });
    if (!g.costliest.length) list.appendChild(el("li", {}, "none: no play gave anything up"));
    var keys = document.querySelector(".keys code");
    if (keys) keys.textContent = "#round=R&ply=N";
    document.querySelectorAll("#rounds button").forEach(function (b) {
      b.addEventListener("click", function () { showRound(Number(b.getAttribute("data-round")), 0); });
    });
  }

  /* ---- the verdict of the play that led to the shown position */
  function verdictOf(k) {
    var box = document.getElementById("verdict");
    box.textContent = "";
    if (k === 0) {
      box.appendChild(el("p", { "class": "dim" }, "The deal. Step through the round with → or click a play."));
      return;
    }
    var m = doc.moves[k - 1];
    var v = verdicts[k];
    var line = el("p");
    line.appendChild(el("b", {}, "Move " + k + ": " + m.seat + " played " + m.play));
    if (v && v.grade) line.appendChild(el("span", { "class": "grade " + GRADE_CLASS[v.grade] }, " " + v.grade));
    box.appendChild(line);
    if (!v) {
      box.appendChild(el("p", { "class": "dim" }, "Not reviewed (another seat's play)."));
      return;
    }
    if (doc.view === "player") {
      box.appendChild(el("p", {}, "Chance of avoiding a paradox: " + pct(v.made.avoid_paradox.value) +
        " (95% " + pct(v.made.avoid_paradox.ci95[0]) + "–" + pct(v.made.avoid_paradox.ci95[1]) +
        "); best play " + v.best.play + ": " + pct(v.best.avoid_paradox.value) + "."));
      if (v.made.score && v.best.score) {
        box.appendChild(el("p", {}, "Expected score " + v.made.score.value.toFixed(2) + "; best play's " +
          v.best.score.value.toFixed(2) + "."));
      }
      box.appendChild(v.better
        ? el("p", { "class": "marks" }, "Clearly better: " + v.better + ".")
        : el("p", { "class": "ok" }, "No clearly better play."));
      box.appendChild(el("p", { "class": "dim" }, "method " + v.method + ", " + v.samples + " deals, " + v.status));
      return;
    }
    if (!v.analysed) {
      box.appendChild(el("p", { "class": "dim" }, "Not judged: the time limit ran out first."));
      return;
    }
    box.appendChild(v.marks.length
      ? el("p", { "class": "marks" }, v.marks.join("; ") + (v.better ? " — better: " + v.better : ""))
      : el("p", { "class": "ok" }, v.grade === "!" ? "The only play that kept everything." : "Kept everything."));
    box.appendChild(el("p", {}, "Reachable final trick counts of " + m.seat + ": before " +
      counts(v.possible_before) + ", after " + counts(v.possible_after) + "."));
    if (v.after) {
      var f = v.after;
      var parts = [];
      if (f.at_least !== null) parts.push("at least " + f.at_least + (f.at_least === 1 ? " trick" : " tricks"));
      if (f.at_most !== null) parts.push("at most " + f.at_most + " (another way)");
      box.appendChild(el("p", {}, "What " + m.seat + " can still force: " +
        (parts.length ? parts.join(", or ") : "no trick count") + "; paradox avoidance " +
        (f.guaranteed ? "guaranteed" : "not guaranteed") +
        (f.best_score !== null ? "; best guaranteed score " + f.best_score : "") + "."));
    }
  }

  /* ---- going to a ply */
  function go(k, keepHash) {
    k = Math.max(0, Math.min(n, k | 0));
    ply = k;
    var m = k ? doc.moves[k - 1] : null;
    var v = m ? verdicts[k] : null;
    var opts = { last: m ? m.play : null, candidates: v && v.better ? [v.better] : [] };
    CatboxBoard.draw(svg, doc.states[k], opts);
    document.getElementById("where").textContent = k === 0
      ? "The deal (0 of " + n + ")" : "After move " + k + " of " + n + ": " + m.seat + " " + m.play;
    moveButtons.forEach(function (b, i) {
      var on = i === k - 1;
      b.classList.toggle("current", on);
      if (on) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
    });
    if (plotCursor && plot) {
      var x = Number(plot.getAttribute("data-x0")) + k * Number(plot.getAttribute("data-step"));
      plotCursor.setAttribute("x1", x.toFixed(1));
      plotCursor.setAttribute("x2", x.toFixed(1));
    }
    verdictOf(k);
    document.body.setAttribute("data-ply", String(k));
    if (rounds) document.body.setAttribute("data-round", String(round));
    var hash = (rounds ? "#round=" + round + "&" : "#") + "ply=" + k;
    if (!keepHash && location.hash !== hash) history.replaceState(null, "", hash);
  }

  function nextMistake() {
    for (var k = ply + 1; k <= n; k++) if (MISTAKES[gradeOf(k)]) return go(k);
    for (var j = 1; j <= ply; j++) if (MISTAKES[gradeOf(j)]) return go(j); // wrap around
  }

  function fromHash() {
    var m = /ply=(\d+)/.exec(location.hash);
    return m ? parseInt(m[1], 10) : 0;
  }

  function roundFromHash() {
    var m = /round=(\d+)/.exec(location.hash);
    return m ? parseInt(m[1], 10) : 1;
  }

  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", function () { go(ply - 1); });
  document.getElementById("next").addEventListener("click", function () { go(ply + 1); });
  document.getElementById("last").addEventListener("click", function () { go(n); });
  document.getElementById("mistake").addEventListener("click", nextMistake);
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var keys = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: n };
    if (e.key in keys) { e.preventDefault(); go(keys[e.key]); }
    else if (e.key === "n") { e.preventDefault(); nextMistake(); }
  });
  if (rounds) {
    mountGame();
    window.addEventListener("hashchange", function () {
      var r = Math.max(1, Math.min(rounds.length, roundFromHash()));
      if (r !== round) { round = r; mount(rounds[r - 1]); }
      go(fromHash(), true);
    });
    round = Math.max(1, Math.min(rounds.length, roundFromHash()));
    mount(rounds[round - 1]);
  } else {
    window.addEventListener("hashchange", function () { go(fromHash(), true); });
    mount(page);
  }
  go(fromHash(), true);
})();
