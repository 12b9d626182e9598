// Practice's worker jobs (POST /api/practice/jobs, polled) and the tables that show their
// answers: the round-start advisor's ranking and catbox's reasons for a play. Used by the whole
// game (game.js), catbox's reasons on the board (reasons.js) and the puzzle trainer (puzzles.js).
import { call, el } from "./net.js";

// Runs a practice job to its end: its result, or an Error with the job's message. `token`
// (optional, {cancelled}) abandons it: the job is cancelled on the server and null returned.
export async function runJob(body, token, onProgress) {
  const snap = await call("/api/practice/jobs", body);
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    if (token && token.cancelled) {
      call(`/api/jobs/${snap.id}`, null, "DELETE").catch(() => {});
      return null;
    }
    const now = await call(`/api/jobs/${snap.id}`);
    if (onProgress && now.progress) onProgress(now.progress);
    if (now.state === "done") return now.result;
    if (now.state === "error") throw new Error(now.error.message);
    if (now.state === "cancelled") return null;
  }
}

function pct(e) {
  return e ? `${(100 * e.value).toFixed(0)}%` : "—";
}

function num(x) {
  return x === undefined || x === null ? "—" : Number(x).toFixed(2);
}

function est(e) {
  if (!e) return "—";
  return e.ci95 ? `${num(e.value)} [${num(e.ci95[0])}, ${num(e.ci95[1])}]` : num(e.value);
}

function table(heads, rows, chosen) {
  const head = el("tr", {}, ...heads.map(([h, t]) => el("th", { textContent: h, title: t })));
  const body = rows.map((r) =>
    el("tr", { className: r.chosen ? "best" : "" }, ...r.cells.map((c) => el("td", { textContent: c }))));
  const t = el("table", { className: "analysis reasons" }, el("thead", {}, head), el("tbody", {}, ...body));
  if (chosen) t.dataset.chosen = chosen;
  return t;
}

// The advisor's ranking (advise --hand): every set-aside card and prediction, best first.
// `mark(c)` says which candidate row to highlight (the choice made).
export function adviceTable(result, mark, limit) {
  const rows = result.candidates.slice(0, limit || 12).map((c) => ({
    chosen: mark ? mark(c) : false,
    cells: [String(c.set_aside), c.prediction === null ? "—" : String(c.prediction), est(c.score),
      pct(c.avoid_paradox)],
  }));
  const heads = [["set aside", "the card set aside (S2)"], ["predict", "the prediction (S3)"],
    ["score (95% CI)", "estimated round score over playouts"],
    ["no paradox", "estimated chance of not causing the paradox"]];
  const box = el("div", { className: "advice" }, table(heads, rows));
  const before = result.predictions_before.length
    ? `predictions before: ${result.predictions_before.join(" ")}${result.before_assumed ? " (assumed: not made yet)" : ""}; `
    : "";
  box.appendChild(el("p", { className: "note",
    textContent: `${before}${result.samples} playouts by catbox's policy per candidate.` }));
  return box;
}

// catbox's reasons for a play (web/practice.py play_reasons): its candidates with the estimates
// it ranked them by; the play it made is highlighted.
export function reasonsTable(result) {
  const cols = {
    endgame: [["avoids paradox", "share of sampled deals on which the seat can still make sure of no paradox"],
      ["score", "mean score when the round is played on from each deal"]],
    rollouts: [["score", "mean score of the seat over the rollouts"], ["policy", "the policy's value"]],
    policy: [["policy", "the playing policy's value (equal values are ties)"]],
    only: [],
  }[result.method] || [];
  const rows = result.candidates.map((c) => ({
    chosen: c.play === result.play,
    cells: [c.play, ...(result.method === "endgame" ? [pct({ value: c.avoid_paradox }), num(c.score)]
      : result.method === "rollouts" ? [num(c.score), num(c.policy)] : [num(c.policy)])],
  }));
  const box = el("div", { className: "reasons-box" });
  box.appendChild(el("p", { className: "note",
    textContent: `${result.seat} played ${result.play}: ${result.note}.` }));
  if (rows.length) box.appendChild(table([["play", "a legal play"], ...cols], rows, result.play));
  return box;
}
