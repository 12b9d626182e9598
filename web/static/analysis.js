// The live analysis: jobs solved in the server's worker processes (POST /api/jobs, polled), their
// rows in the table and the best plays framed on the board. `act.play(p)` plays a row's play.
import { $, call, el } from "./net.js";
import { S, botSeat, viewSeat } from "./state.js";

let act = { play: () => {} };

// Who plays a row's play when it is tapped (the board's tryPlay, the entry's enterPlay).
export function useActions(actions) {
  act = actions;
}

export function stopJob() {
  if (S.poll) clearTimeout(S.poll);
  S.poll = null;
  if (S.job && !S.job.finished) call(`/api/jobs/${S.job.id}`, null, "DELETE", true).catch(() => {});
  S.job = null;
}

// Starts what the position shown needs: catbox's play (practice), the exact table (every hand
// known) or the seat to play's own-view estimates.
export function afterRender(actions) {
  act = actions;
  const v = S.view;
  S.rows = [];
  S.best = [];
  clearAnalysis();
  if (v.to_play === null) return setAnalysis("", "The round is over.", { idle: true });
  if (botSeat(v)) {
    if (S.cursor === S.plies.length - 1) startJob("play", {});
    return setAnalysis("catbox to play", "catbox plays this seat: the analysis shows at your own turns.");
  }
  if (viewSeat() === null && v.all_hands_known) return startJob("analyze", { time_limit: 60 });
  if (v.hand === null) return setAnalysis("", `${v.to_play}'s hand is unknown: no analysis.`, { idle: true });
  return startJob("advise", { time_limit: 30, samples: 200 });
}

// Submits a job for `line` (default: the ply shown) and polls it; `onDone(result)` replaces the
// table's own ending (the entry mode's advice uses it).
export async function startJob(kind, extra, line, onDone) {
  const at = line || S.plies[S.cursor];
  const body = Object.assign({ kind, position: at }, extra);
  if (kind === "play") body.seed = S.cursor;
  setAnalysis("queued", kind === "play" ? "catbox is choosing a play…" : "");
  try {
    const snap = await call("/api/jobs", body);
    if (S.plies[S.cursor] !== at) {
      call(`/api/jobs/${snap.id}`, null, "DELETE").catch(() => {});
      return;
    }
    S.job = { id: snap.id, since: 0, line: at, kind, finished: false, t0: performance.now(), onDone };
    S.poll = setTimeout(pollJob, 60);
  } catch (e) {
    setAnalysis("error", e.message);
  }
}

async function pollJob() {
  const job = S.job;
  if (!job) return;
  let snap;
  try {
    snap = await call(`/api/jobs/${job.id}?since=${job.since}`);
  } catch (e) {
    return setAnalysis("error", e.message);
  }
  if (S.job !== job) return;
  job.since += snap.rows.length;
  for (const r of snap.rows) addRow(job.kind, r);
  if (snap.rows.length && window.catboxFirstRowMs === undefined) {
    window.catboxFirstRowMs = performance.now() - job.t0;
  }
  const p = snap.progress;
  $("progress-bar").style.width = p && p.total ? `${Math.round((100 * p.done) / p.total)}%` : "8%";
  if (snap.state === "queued" || snap.state === "running") {
    setAnalysis(snap.state === "queued" ? "queued" : "running", progressText(job.kind, p));
    S.poll = setTimeout(pollJob, 120);
    return;
  }
  job.finished = true;
  $("progress-bar").style.width = "100%";
  if (snap.state === "error") return setAnalysis("error", snap.error.message);
  if (snap.state === "cancelled") return setAnalysis("cancelled", "");
  return finishJob(job, snap.result);
}

function progressText(kind, p) {
  if (!p) return "starting…";
  if (kind === "analyze") return `${p.done} of ${p.total} plays analysed`;
  if (kind === "advise") return `${p.done} of ${p.total} sampled deals`;
  return "thinking…";
}

function finishJob(job, result) {
  if (job.kind === "play") {
    setAnalysis("", "");
    S.job = null;
    setTimeout(() => {
      if (S.plies[S.cursor] === job.line) act.play(result.play);
    }, 250);
    return;
  }
  if (job.kind === "advise") {
    for (const m of result.moves) addRow("advise", m);
  }
  S.best = job.kind === "advise" ? (result.best ? [result.best] : []) : result.best;
  markBest();
  const note = job.kind === "advise"
    ? `${result.seat}'s view: ${result.samples} deals of the unseen cards, method ${result.method}` +
      (result.method === "pimc" ? " (each deal solved with every hand open: optimistic)" : "")
    : `${S.view.to_play}'s plays, every hand known: exact search`;
  setAnalysis(result.status, `${note}. Best: ${S.best.join(" ") || "—"}`);
  if (job.onDone) job.onDone(result);
}

export function clearAnalysis() {
  $("analysis-rows").replaceChildren();
  $("analysis-head").replaceChildren();
  $("progress-bar").style.width = "0";
}

// `idle`: nothing will fill the table at this ply (the round is over, the hand is hidden), so
// the panel gives up the height it keeps for rows arriving (serve.css, .analysis-box).
export function setAnalysis(status, note, { idle = false } = {}) {
  document.querySelector(".analysis-box").classList.toggle("idle", idle);
  const badge = $("analysis-status");
  badge.textContent = status;
  badge.className = `badge ${status}`;
  $("analysis-note").textContent = note;
}

function fmtSet(values, bounds, key) {
  if (values) return values.length ? `{${values.join(" ")}}` : "none";
  const b = bounds && bounds[key];
  if (b && b.in && b.in.length) return `≥{${b.in.join(" ")}}`;
  return "?";
}

function yesNo(x) {
  return x === null || x === undefined ? "?" : x ? "yes" : "no";
}

function fmtEst(e, percent) {
  if (!e) return "—";
  const f = (x) => (percent ? `${(100 * x).toFixed(0)}%` : x.toFixed(2));
  if (e.exact || !e.ci95) return f(e.value);
  return `${f(e.value)} <small>[${f(e.ci95[0])}, ${f(e.ci95[1])}]</small>`;
}

const HEADS = {
  analyze: "<tr><th>play</th>" +
    '<th title="final trick counts the seat can end with, for some play of everyone">possible tricks</th>' +
    '<th title="final trick counts the seat can make sure of, whatever the others play">forceable</th>' +
    '<th title="some line avoids the seat\'s paradox">avoid paradox<br>possible</th>' +
    '<th title="the seat avoids its paradox whatever the others play">guaranteed</th>' +
    '<th title="the round score the seat can make sure of">best score</th></tr>',
  advise: "<tr><th>play</th>" +
    '<th title="estimated chance the seat causes no paradox, with its 95% interval">avoids paradox (95% CI)</th>' +
    '<th title="estimated round score, with its 95% interval">score (95% CI)</th></tr>',
};

function addRow(kind, r) {
  const head = $("analysis-head");
  if (!head.innerHTML && HEADS[kind]) head.innerHTML = HEADS[kind];
  const tr = el("tr", { className: `arow ${r.status || ""}`, title: `play ${r.play}`, dataset: { play: r.play } });
  if (kind === "analyze") {
    tr.innerHTML = `<td class="p">${r.play}</td><td>${fmtSet(r.possible, r.bounds, "possible")}</td>` +
      `<td>${fmtSet(r.forceable, r.bounds, "forceable")}</td>` +
      `<td>${yesNo(r.avoids_paradox.possible)}</td><td>${yesNo(r.avoids_paradox.guaranteed)}</td>` +
      `<td>${r.best_score === null ? "?" : r.best_score}</td>`;
  } else {
    tr.innerHTML = `<td class="p">${r.play}</td><td>${fmtEst(r.avoid_paradox, true)}</td>` +
      `<td>${fmtEst(r.score, false)}</td>`;
  }
  tr.onclick = () => act.play(r.play);
  tr.onmouseenter = () => hoverCell(r.play, true);
  tr.onmouseleave = () => hoverCell(r.play, false);
  $("analysis-rows").appendChild(tr);
}

function hoverCell(play, on) {
  const cell = $("board").querySelector(`[data-cell="${play}"]`);
  if (cell) cell.classList.toggle("hover", on);
}

function markBest() {
  for (const cell of $("board").querySelectorAll(".cell.cand")) cell.classList.remove("cand");
  for (const p of S.best) {
    const cell = $("board").querySelector(`[data-cell="${p}"]`);
    if (cell) cell.classList.add("cand", "best");
  }
  for (const tr of $("analysis-rows").children) tr.classList.toggle("best", S.best.includes(tr.dataset.play));
}
