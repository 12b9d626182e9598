/* catbox HTML review: steps through a reviewed round, or through every round of a reviewed
 * game (a round selector). The data (solver/report.py review_document, or
 * game_review_document: one such document per round plus the game's summary) is embedded as
 * JSON; the board is redrawn by CatboxBoard.draw (board.js). No dependencies, no network. */
"use strict";
(() => {
  const page = JSON.parse(document.getElementById("catbox-data").textContent);
  const rounds = page.rounds || null; // a game's page: one review document per round
  const svg = document.querySelector("#board svg");
  let doc, n, plotCursor, plot, names, moveButtons;
  let ply = 0;
  let round = 1;
  const { el, GRADE_CLASS } = CatboxReviewParts;
  const MISTAKES = { "??": true, "?": true, "?!": true };
  let verdicts = {}; // move number -> review entry

  function gradeOf(move) {
    let v = verdicts[move];
    return v && v.grade ? v.grade : "";
  }

  function emptied(id) {
    let e = document.getElementById(id);
    while (e.firstChild) e.removeChild(e.firstChild);
    return e;
  }

  /* ---- the parts of one round: subtitle, move list, turning points, summary, marks legend */
  function mount(d) {
    doc = d;
    n = doc.moves.length;
    verdicts = {};
    (doc.review.plays || []).forEach((p) => { verdicts[p.move] = p; });
    if (rounds) document.getElementById("plot").innerHTML = doc.plot;
    plot = document.querySelector("#plot svg");
    plotCursor = document.querySelector("#plot .cursor");
    names = doc.names.map((name, i) => {
      let letter = "ABCDE".charAt(i);
      return name === letter ? letter : letter + " " + name;
    });
    let who = doc.view === "player"
      ? "the plays of " + doc.seat + " judged from its own view (the other hands hidden)"
      : doc.seat ? "the plays of " + doc.seat : "every play";
    let which = rounds ? "Round " + round + " of " + rounds.length + " (round start " +
      doc.round_start + "); " : "";
    document.getElementById("subtitle").textContent = which +
      doc.players + " players (" + names.join(", ") + "); " + n + " plays; reviewed: " + who + ".";

    let moveList = emptied("moves");
    moveList.style.setProperty("--players", String(doc.players));
    moveButtons = [];
    let lastTrick = 0;
    doc.moves.forEach((m) => {
      if (m.trick !== lastTrick) {
        if (lastTrick) {
          // pad the row so that each trick starts on its own line
          let used = moveList.children.length % (doc.players + 1);
          for (let k = used; k && k < doc.players + 1; k++) moveList.appendChild(el("span"));
        }
        moveList.appendChild(el("span", { "class": "trickno" }, "Trick " + m.trick));
        lastTrick = m.trick;
      }
      let b = el("span", { "class": "play", "role": "listitem", "data-ply": String(m.ply),
        "tabindex": "-1", "title": "move " + m.ply });
      b.appendChild(el("span", { "class": "who" }, m.seat));
      b.appendChild(document.createTextNode(m.play));
      let g = gradeOf(m.ply);
      if (g) b.appendChild(el("span", { "class": "grade " + GRADE_CLASS[g] }, g));
      b.addEventListener("click", () => { go(m.ply); });
      moveList.appendChild(b);
      moveButtons.push(b);
    });

    let turning = emptied("turning");
    (doc.review.turning_points || []).forEach((t) => {
      let li = el("li", { "data-ply": String(t.move) }, t.text);
      li.addEventListener("click", () => { go(t.move); });
      turning.appendChild(li);
    });
    if (!turning.children.length) {
      turning.appendChild(el("li", {}, doc.view === "player"
        ? "(a player's-view review names no turning points)" : "none: nothing was lost for good"));
    }

    let summary = emptied("summary");
    if (doc.view === "full") {
      let head = el("tr");
      ["seat", "plays", "judged", "gave something up"].forEach((h) => { head.appendChild(el("th", {}, h)); });
      summary.appendChild(head);
      Object.keys(doc.review.summary || {}).forEach((letter) => {
        let s = doc.review.summary[letter];
        let tr = el("tr");
        tr.appendChild(el("td", {}, names["ABCDE".indexOf(letter)]));
        tr.appendChild(el("td", {}, String(s.plays)));
        tr.appendChild(el("td", {}, String(s.judged)));
        let gave = el("td", { "class": "gave" });
        if (!s.gave_up.length) gave.textContent = "none";
        s.gave_up.forEach((mv, i) => {
          if (i) gave.appendChild(document.createTextNode(", "));
          let a = el("span", { "class": "grade " + (GRADE_CLASS[gradeOf(mv)] || ""), "data-ply": String(mv) },
            "move " + mv + (gradeOf(mv) ? " " + gradeOf(mv) : ""));
          a.addEventListener("click", () => { go(mv); });
          gave.appendChild(a);
        });
        tr.appendChild(gave);
        summary.appendChild(tr);
      });
    } else {
      let plays = doc.review.plays || [];
      let marked = plays.filter((p) => { return p.grade; });
      let tr2 = el("tr");
      tr2.appendChild(el("td", {}, names["ABCDE".indexOf(doc.seat)]));
      tr2.appendChild(el("td", {}, plays.length + " plays judged; " + marked.length +
        " with a clearly better play (95% intervals apart)"));
      summary.appendChild(tr2);
    }

    let legend = emptied("grades");
    Object.keys(doc.grades).forEach((g) => {
      legend.appendChild(el("dt", { "class": GRADE_CLASS[g] }, g));
      legend.appendChild(el("dd", {}, doc.grades[g]));
    });
    if (rounds) {
      document.querySelectorAll("#rounds button").forEach((b) => {
        let on = Number(b.getAttribute("data-round")) === round;
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
    let g = page.game;
    let seats = Object.keys(g.seats);
    let label = (letter) => {
      let name = g.names && g.names.length ? g.names["ABCDE".indexOf(letter)] : "";
      return name && name !== letter ? letter + " " + name : letter;
    };
    let table = document.getElementById("totals");
    let head = el("tr");
    head.appendChild(el("th", {}, "seat"));
    rounds.forEach((_, i) => { head.appendChild(el("th", {}, "round " + (i + 1))); });
    ["total", "predictions", "paradoxes caused"].forEach((h) => { head.appendChild(el("th", {}, h)); });
    table.appendChild(head);
    seats.forEach((letter) => {
      let s = g.seats[letter];
      let won = g.winners && g.winners.indexOf(letter) >= 0;
      let tr = el("tr", won ? { "class": "winner" } : {});
      tr.appendChild(el("td", {}, label(letter) + (won ? " ★" : "")));
      s.scores.forEach((v) => { tr.appendChild(el("td", { "class": "num" }, v === null ? "?" : String(v))); });
      tr.appendChild(el("td", { "class": "num total" }, s.total === null ? "?" : String(s.total)));
      tr.appendChild(el("td", {}, s.predictions.map((p) => { return p === null ? "—" : String(p); }).join(" ")));
      tr.appendChild(el("td", { "class": "num" }, String(s.paradoxes)));
      table.appendChild(tr);
    });
    let list = document.getElementById("costliest");
    g.costliest.forEach((c) => {
      let text = "Round " + c.round + ", move " + c.move + ": " + label(c.seat) + " played " + c.play +
        (c.grade ? " " + c.grade : "") + (c.marks && c.marks.length ? " — " + c.marks.join("; ") : "") +
        (c.score_change !== undefined && c.score_change !== null ? " (score " + c.score_change.toFixed(2) + ")" : "") +
        (c.better ? "; better " + c.better : "");
      let li = el("li", { "class": "grade-row " + (GRADE_CLASS[c.grade] || ""), "data-round": String(c.round),
        "data-ply": String(c.move), "tabindex": "0" }, text);
      li.addEventListener("click", () => { showRound(c.round, c.move); });
      list.appendChild(li);
    });
    if (!g.costliest.length) list.appendChild(el("li", {}, "none: no play gave anything up"));
    let keys = document.querySelector(".keys code");
    if (keys) keys.textContent = "#round=R&ply=N";
    document.querySelectorAll("#rounds button").forEach((b) => {
      b.addEventListener("click", () => { showRound(Number(b.getAttribute("data-round")), 0); });
    });
  }

  /* ---- going to a ply */
  function go(k, keepHash) {
    k = Math.max(0, Math.min(n, k | 0));
    ply = k;
    let m = k ? doc.moves[k - 1] : null;
    let v = m ? verdicts[k] : null;
    let opts = { last: m ? m.play : null, candidates: v && v.better ? [v.better] : [] };
    CatboxBoard.draw(svg, doc.states[k], opts);
    document.getElementById("where").textContent = k === 0
      ? "The deal (0 of " + n + ")" : "After move " + k + " of " + n + ": " + m.seat + " " + m.play;
    moveButtons.forEach((b, i) => {
      let on = i === k - 1;
      b.classList.toggle("current", on);
      if (on) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
    });
    if (plotCursor && plot) {
      let x = Number(plot.getAttribute("data-x0")) + k * Number(plot.getAttribute("data-step"));
      plotCursor.setAttribute("x1", x.toFixed(1));
      plotCursor.setAttribute("x2", x.toFixed(1));
    }
    CatboxReviewParts.verdict(document.getElementById("verdict"), doc, verdicts, k);
    document.body.setAttribute("data-ply", String(k));
    if (rounds) document.body.setAttribute("data-round", String(round));
    let hash = (rounds ? "#round=" + round + "&" : "#") + "ply=" + k;
    if (!keepHash && location.hash !== hash) history.replaceState(null, "", hash);
  }

  function nextMistake() {
    for (let k = ply + 1; k <= n; k++) if (MISTAKES[gradeOf(k)]) return go(k);
    for (let j = 1; j <= ply; j++) if (MISTAKES[gradeOf(j)]) return go(j); // wrap around
  }

  function fromHash() {
    let m = /ply=(\d+)/.exec(location.hash);
    return m ? parseInt(m[1], 10) : 0;
  }

  function roundFromHash() {
    let m = /round=(\d+)/.exec(location.hash);
    return m ? parseInt(m[1], 10) : 1;
  }

  document.getElementById("first").addEventListener("click", () => { go(0); });
  document.getElementById("prev").addEventListener("click", () => { go(ply - 1); });
  document.getElementById("next").addEventListener("click", () => { go(ply + 1); });
  document.getElementById("last").addEventListener("click", () => { go(n); });
  document.getElementById("mistake").addEventListener("click", nextMistake);
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    let keys = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: n };
    if (e.key in keys) { e.preventDefault(); go(keys[e.key]); }
    else if (e.key === "n") { e.preventDefault(); nextMistake(); }
  });
  if (rounds) {
    mountGame();
    window.addEventListener("hashchange", () => {
      let r = Math.max(1, Math.min(rounds.length, roundFromHash()));
      if (r !== round) { round = r; mount(rounds[r - 1]); }
      go(fromHash(), true);
    });
    round = Math.max(1, Math.min(rounds.length, roundFromHash()));
    mount(rounds[round - 1]);
  } else {
    window.addEventListener("hashchange", () => { go(fromHash(), true); });
    mount(page);
  }
  go(fromHash(), true);
})();
