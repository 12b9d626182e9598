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
  if (e === null || e === undefined) return "—";
  return `${(100 * (typeof e === "number" ? e : e.value)).toFixed(0)}%`;
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

// A round-start ranking, best first: the advisor's (advise --hand) or the one catbox's player
// chose by (advise --hand --player). `mark(c)` says which row to highlight (the choice made).
export function adviceTable(result, mark, limit) {
  const ranked = Boolean(result.value_note); // ranked by a value beside the score (hazard > 0)
  const rows = result.candidates.slice(0, limit || 12).map((c) => ({
    chosen: mark ? mark(c) : false,
    cells: [String(c.set_aside), c.prediction === null ? "—" : String(c.prediction), est(c.score),
      ...(ranked ? [num(c.value.value)] : []), pct(c.avoid_paradox)],
  }));
  const heads = [["set aside", "the card set aside (S2)"], ["predict", "the prediction (S3)"],
    ["score (95% CI)", "estimated round score over playouts"],
    ...(ranked ? [["ranked by", result.value_note]] : []),
    ["no paradox", "estimated chance of not causing the paradox"]];
  const box = el("div", { className: "advice" }, table(heads, rows));
  const assumed = result.before_assumed || result.assumed;
  const before = result.predictions_before.length
    ? `predictions before: ${result.predictions_before.join(" ")}${assumed ? " (assumed: not made yet)" : ""}; `
    : "";
  const how = result.samples ? `${result.samples} playouts by catbox's policy per candidate`
    : `${result.method}, ${result.playouts} playouts in all`;
  const by = ranked ? ` Ranked by ${result.value_note}.` : "";
  box.appendChild(el("p", { className: "note", textContent: `${before}${how}.${by}` }));
  return box;
}

const HOW = {
  forced: "the only legal play",
  policy: "the playing policy's value of each play (its own cards and the public state)",
  rollouts: "each play rolled out by the policy on sampled deals: the seat's mean score",
  endgame: "exact endgames on sampled deals: how often the seat can still make sure of no " +
    "paradox, then its mean score",
};

// catbox's reasons for a play (advise --player): the candidates with the estimates it ranked
// them by; the play it made is highlighted.
export function reasonsTable(result) {
  const on = Boolean(result.value_note); // a value beside the plain score (never the policy's)
  const [v, h] = on ? ["value", `; ${result.value_note}`] : ["score", ""];
  const cols = {
    endgame: [["no paradox", "share of the solved deals on which the seat can still make sure of no paradox (X1)"],
      [v, `mean score when the round is played on from each deal${h}`],
      ["guaranteed", "mean score the seat can make sure of (the safest plays only)"]],
    rollouts: [[v, `mean score of the seat over the rollouts${h}`], ["policy", "the policy's value"]],
    policy: [["policy", "the playing policy's value"]],
  }[result.method] || [];
  const cells = (c) => (result.method === "endgame" ? [pct(c.avoids), num(c.value), num(c.guaranteed)]
    : result.method === "rollouts" ? [num(c.value), num(c.policy)] : result.method === "policy" ? [num(c.value)] : []);
  const rows = result.candidates.map((c) => ({ chosen: c.play === result.play, cells: [c.play, ...cells(c)] }));
  const deals = result.deals ? ` (${Math.round(result.deals)} deals, level ${result.level})` : "";
  const box = el("div", { className: "reasons-box" });
  box.appendChild(el("p", { className: "note",
    textContent: `${result.seat} played ${result.play}: ${HOW[result.method] || result.method}${deals}.` +
      (on ? ` Value: ${result.value_note}.` : "") }));
  if (rows.length > 1) box.appendChild(table([["play", "a legal play"], ...cols], rows, result.play));
  return box;
}
