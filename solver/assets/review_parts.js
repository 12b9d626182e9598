/* catbox HTML review, its parts: the page's small helpers and the verdict of the play that
 * led to the shown position, for one reviewed round (solver/report.py review_document).
 * review.js steps through the round or the game with them. No dependencies, no network. */
"use strict";
const CatboxReviewParts = (() => {
  const GRADE_CLASS = { "??": "g-qq", "?": "g-q", "?!": "g-qe", "!": "g-ex" };

  function el(tag, attrs, text) {
    let e = document.createElement(tag);
    Object.keys(attrs || {}).forEach((k) => { e.setAttribute(k, attrs[k]); });
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function pct(x) { return x === null || x === undefined ? "?" : (100 * x).toFixed(1) + "%"; }

  function counts(list) { return list === null ? "unknown" : list.length ? list.join(" ") : "none"; }

  /* ---- the verdict of the play that led to the shown position */
  function verdict(box, doc, verdicts, k) {
    box.textContent = "";
    if (k === 0) {
      box.appendChild(el("p", { "class": "dim" }, "The deal. Step through the round with → or click a play."));
      return;
    }
    let m = doc.moves[k - 1];
    let v = verdicts[k];
    let line = el("p");
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
      let f = v.after;
      let parts = [];
      if (f.at_least !== null) parts.push("at least " + f.at_least + (f.at_least === 1 ? " trick" : " tricks"));
      if (f.at_most !== null) parts.push("at most " + f.at_most + " (another way)");
      box.appendChild(el("p", {}, "What " + m.seat + " can still force: " +
        (parts.length ? parts.join(", or ") : "no trick count") + "; paradox avoidance " +
        (f.guaranteed ? "guaranteed" : "not guaranteed") +
        (f.best_score !== null ? "; best guaranteed score " + f.best_score : "") + "."));
    }
  }

  return { el, verdict, GRADE_CLASS };
})();
