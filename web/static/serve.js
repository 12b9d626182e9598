// catbox analysis board: the page's logic. Plain JavaScript, no build step, no network but
// this server. The board is catbox's own drawing, shared with `catbox show --svg` and the HTML
// review: the server's SVG (solver/svg.py) once, then CatboxBoard.draw (solver/assets/board.js,
// the review's redraw) from each position's board_state. This script adds the clicks, the move
// list and the live analysis (jobs solved in the server's worker processes).
"use strict";

const $ = (id) => document.getElementById(id);
const COLOURS = ["R", "B", "Y", "G"];
const WORDS = { R: "red", B: "blue", Y: "yellow", G: "green" };
const RULES = {
  L1: "the cell must be empty",
  L2: "the seat no longer holds that colour",
  L3: "red may be led only once red is broken (or nothing else can be declared)",
  B1: "no such number",
};

const S = {
  doc: null, // the loaded document (document_json)
  plies: [], // one-line position strings; plies[0] is the start
  moves: [], // {play, by, ends_trick, winner} between plies
  cursor: 0, // the ply shown
  views: new Map(), // view documents by "line|seat"
  view: null, // the view shown
  selected: null, // the card number chosen
  job: null, // the analysis or play job running: {id, since, line, kind}
  poll: null,
  rows: [],
  best: [],
  busy: false,
  initial: null, // the document named on the command line (its plies go in the address as #ply=N)
  hash: "", // the address fragment this page wrote last
};

// ------------------------------------------------------------------------------ server
async function call(path, body, method, keepalive) {
  const init = { method: method || (body ? "POST" : "GET"), headers: {}, keepalive: !!keepalive };
  if (body) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  let doc = null;
  try {
    doc = await res.json();
  } catch (e) {
    doc = { error: { message: `the server answered ${res.status} without JSON` } };
  }
  if (!res.ok) {
    const err = new Error((doc && doc.error && doc.error.message) || `HTTP ${res.status}`);
    err.status = res.status;
    err.detail = doc && doc.error;
    throw err;
  }
  return doc;
}

function viewSeat() {
  return $("practice").checked && !$("show-all").checked ? $("my-seat").value : null;
}

async function fetchView(line) {
  const seat = viewSeat();
  const key = `${line}|${seat || ""}`;
  if (!S.views.has(key)) {
    const body = { position: line, names: S.doc.names };
    if (seat) body.view = seat;
    const ply = S.plies.indexOf(line);
    if (ply > 0) body.last = S.moves[ply - 1].play;
    S.views.set(key, await call("/api/view", body));
  }
  return S.views.get(key);
}

// ------------------------------------------------------------------------------ messages
function say(text, el) {
  const box = el || $("message");
  box.textContent = text || "";
  box.hidden = !text;
}

// ------------------------------------------------------------------------------ documents
function openDocument(doc, ply) {
  S.doc = doc;
  S.plies = doc.plies.slice();
  S.moves = doc.moves.slice();
  S.views.clear();
  $("board").replaceChildren(); // a new picture: its seat labels (names) are the new document's
  $("doc-title").textContent = doc.title;
  const goal = doc.goal ? `Goal: ${doc.goal}. ${doc.description || ""}` : doc.description || "";
  $("goal").textContent = goal;
  $("goal").hidden = !goal;
  const seats = doc.seats;
  const mine = $("my-seat");
  const keep = mine.value;
  mine.replaceChildren(
    ...seats.map((s, i) => new Option(doc.names[i] === s ? s : `${s} · ${doc.names[i]}`, s)),
  );
  if (seats.includes(keep)) mine.value = keep;
  $("save-record").disabled = !doc.record;
  $("save-note").textContent = doc.record
    ? ""
    : "A record needs the deal: deal a new round or load a record to save one.";
  say("");
  show(ply ?? (doc.kind === "record" ? S.plies.length - 1 : 0));
}

// ------------------------------------------------------------------------------ drawing
async function show(ply) {
  if (!S.plies.length) return;
  S.cursor = Math.max(0, Math.min(ply, S.plies.length - 1));
  S.selected = null;
  stopJob();
  let v;
  try {
    v = await fetchView(S.plies[S.cursor]);
  } catch (e) {
    say(e.message);
    return;
  }
  render(v);
  afterRender();
}

function drawBoard(v) {
  const svg = $("board").querySelector("svg.catbox-board");
  if (svg && svg.dataset.players === String(v.state.players)) {
    CatboxBoard.draw(svg, v.state, { last: v.last, candidates: [] });
    for (const cell of svg.querySelectorAll(".cell.pick, .cell.hover, .cell.best")) {
      cell.classList.remove("pick", "hover", "best");
    }
  } else {
    $("board").innerHTML = v.svg; // the first picture: the skeleton the redraws reuse
  }
}

function render(v) {
  S.view = v;
  drawBoard(v);
  drawHand(v);
  drawMoves();
  drawScore(v);
  $("ply").textContent = `move ${S.cursor} of ${S.plies.length - 1}`;
  $("undo").disabled = $("first").disabled = S.cursor === 0;
  $("redo").disabled = $("last").disabled = S.cursor >= S.plies.length - 1;
  document.body.dataset.ply = String(S.cursor);
  writeAddress();
}

// ------------------------------------------------------------------------------ the address
// As on an analysis board, the address names what is shown, so it can be bookmarked, shared
// or reloaded: #ply=N for a move of the document the server was started with, else
// #pos=<the shown position's one-line form> (any other position, moves played here included).
function writeAddress() {
  const own = S.doc === S.initial && S.initial.plies[S.cursor] === S.plies[S.cursor];
  const hash = own ? `#ply=${S.cursor}` : `#pos=${encodeURIComponent(S.plies[S.cursor])}`;
  if (hash !== location.hash) history.replaceState(null, "", hash);
  S.hash = location.hash;
}

// Shows what the address names; false when it names nothing this page can show.
async function readAddress() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (params.has("pos") && (await loadText(params.get("pos")))) return true;
  if (!S.initial) return false; // (a position that did not load keeps its message)
  const ply = params.has("ply") ? Number(params.get("ply")) : NaN;
  openDocument(S.initial, Number.isInteger(ply) ? ply : undefined);
  return true;
}

function drawHand(v) {
  const hand = $("hand");
  const colours = $("colours");
  hand.innerHTML = "";
  colours.innerHTML = "";
  if (v.to_play === null) {
    $("hand-label").textContent = "Round over";
    $("pick-hint").textContent = "";
    return;
  }
  const bot = botSeat(v);
  $("hand-label").textContent = bot ? `${v.to_play} (catbox) to play` : `${v.to_play} to play`;
  if (v.hand === null) {
    $("pick-hint").textContent = `${v.to_play}'s hand is unknown: click the empty cell it played`;
    return;
  }
  $("pick-hint").textContent = bot ? "catbox is choosing…" : "choose a card, then a colour (or click a cell)";
  const legal = new Set(v.moves.legal);
  const counts = {};
  for (const n of v.hand) counts[n] = (counts[n] || 0) + 1;
  for (const n of Object.keys(counts).map(Number).sort((a, b) => a - b)) {
    const b = document.createElement("button");
    b.className = "card";
    b.dataset.card = String(n);
    const playable = COLOURS.some((c) => legal.has(`${n}${c}`));
    b.textContent = counts[n] > 1 ? `${n}×${counts[n]}` : String(n);
    if (!playable) b.classList.add("dead");
    b.title = playable ? `play a ${n}` : `no legal colour for ${n}`;
    b.disabled = !!bot;
    b.onclick = () => selectCard(n);
    hand.appendChild(b);
  }
}

function selectCard(n) {
  const v = S.view;
  S.selected = n;
  for (const b of $("hand").children) b.classList.toggle("chosen", b.dataset.card === String(n));
  const legal = new Set(v.moves.legal);
  const why = {};
  for (const i of v.moves.illegal) why[i.play] = i.rule;
  const colours = $("colours");
  colours.innerHTML = "";
  for (const c of COLOURS) {
    const play = `${n}${c}`;
    const b = document.createElement("button");
    b.className = `colour ${c}`;
    b.dataset.play = play;
    b.textContent = `${c} ${WORDS[c]}`;
    if (!legal.has(play)) {
      b.classList.add("illegal");
      b.title = `illegal: ${RULES[why[play]] || "not allowed"} (${why[play]})`;
    } else {
      b.title = `play ${play}`;
    }
    b.onclick = () => tryPlay(play);
    colours.appendChild(b);
  }
  for (const cell of $("board").querySelectorAll(".cell")) {
    const name = cell.dataset.cell;
    cell.classList.toggle("pick", name.slice(0, -1) === String(n) && legal.has(name));
  }
  $("pick-hint").textContent = `${n}: choose a colour`;
}

function drawMoves() {
  const list = $("moves");
  list.innerHTML = "";
  let trick = null;
  S.moves.forEach((m, i) => {
    if (!trick) {
      trick = document.createElement("li");
      list.appendChild(trick);
    }
    const b = document.createElement("button");
    b.className = "move";
    b.dataset.ply = String(i + 1);
    b.innerHTML = `<small>${m.by}</small> ${m.play}`;
    if (i + 1 === S.cursor) b.classList.add("current");
    if (i + 1 > S.cursor) b.classList.add("future");
    b.onclick = () => show(i + 1);
    trick.appendChild(b);
    if (m.ends_trick) {
      if (m.winner) trick.insertAdjacentHTML("beforeend", `<span class="won">→ ${m.winner}</span>`);
      trick = null;
    }
  });
  if (!S.moves.length) list.innerHTML = '<li class="empty">No moves yet.</li>';
}

function drawScore(v) {
  const box = $("score");
  if (!v.score) {
    box.hidden = true;
    return;
  }
  const parts = Object.entries(v.score.seats).map(([s, x]) =>
    `${s}: ${x.tricks} tricks${x.prediction !== null ? ` (predicted ${x.prediction})` : ""}` +
    `${x.score !== null ? `, ${x.score} points` : ""}`);
  const head = v.score.paradox ? `${v.score.paradox} caused a paradox. ` : "Round over. ";
  box.textContent = head + parts.join(" · ");
  box.hidden = false;
}

// ------------------------------------------------------------------------------ playing
async function tryPlay(play) {
  if (S.busy) return;
  const v = S.view;
  if (!v || v.to_play === null) return;
  S.busy = true;
  const t0 = performance.now();
  try {
    const body = { position: S.plies[S.cursor], names: S.doc.names, play };
    const seat = viewSeat();
    if (seat) body.view = seat;
    const after = await call("/api/play", body);
    S.plies.length = S.cursor + 1; // a new move cuts the moves after it
    S.moves.length = S.cursor;
    S.plies.push(after.line);
    S.moves.push(after.move);
    S.views.set(`${after.line}|${seat || ""}`, after);
    S.cursor += 1;
    S.selected = null;
    stopJob();
    say("");
    render(after);
    window.catboxRedrawMs = performance.now() - t0; // measured by the browser tests
    afterRender();
  } catch (e) {
    say(e.message);
  } finally {
    S.busy = false;
  }
}

function onBoardClick(ev) {
  const cell = ev.target.closest("[data-cell]");
  if (cell) {
    if (cell.dataset.owner) return say(`${cell.dataset.cell} is taken by ${cell.dataset.owner} (L1)`);
    return tryPlay(cell.dataset.cell);
  }
  const card = ev.target.closest(".seat .card");
  if (card && S.view && card.closest(".seat").dataset.seat === S.view.to_play) {
    const n = Number(card.textContent);
    if (n) selectCard(n);
  }
}

function botSeat(v) {
  return $("practice").checked && v.to_play !== null && v.to_play !== $("my-seat").value;
}

function undo() {
  let k = S.cursor - 1;
  if ($("practice").checked) {
    // back to the seat's own previous turn (catbox's plays after it are undone too)
    const me = $("my-seat").value;
    while (k > 0 && S.moves[k] && S.moves[k].by !== me) k -= 1;
  }
  show(k);
}

// ------------------------------------------------------------------------------ analysis
function stopJob() {
  if (S.poll) clearTimeout(S.poll);
  S.poll = null;
  if (S.job && !S.job.finished) call(`/api/jobs/${S.job.id}`, null, "DELETE", true).catch(() => {});
  S.job = null;
}

function afterRender() {
  const v = S.view;
  S.rows = [];
  S.best = [];
  clearAnalysis();
  if (v.to_play === null) return setAnalysis("", "The round is over.");
  if (botSeat(v)) {
    if (S.cursor === S.plies.length - 1) startJob("play", {});
    return setAnalysis("catbox to play", "");
  }
  if (viewSeat() === null && v.all_hands_known) return startJob("analyze", { time_limit: 60 });
  if (v.hand === null) return setAnalysis("", `${v.to_play}'s hand is unknown: no analysis.`);
  startJob("advise", { time_limit: 30, samples: 200 });
}

async function startJob(kind, extra) {
  const line = S.plies[S.cursor];
  const body = Object.assign({ kind, position: line }, extra);
  if (kind === "play") body.seed = S.cursor;
  setAnalysis("queued", kind === "play" ? "catbox is choosing a play…" : "");
  try {
    const snap = await call("/api/jobs", body);
    if (S.plies[S.cursor] !== line) {
      call(`/api/jobs/${snap.id}`, null, "DELETE").catch(() => {});
      return;
    }
    S.job = { id: snap.id, since: 0, line, kind, finished: false, t0: performance.now() };
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
  finishJob(job, snap.result);
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
      if (S.plies[S.cursor] === job.line) tryPlay(result.play);
    }, 250);
    return;
  }
  if (job.kind === "advise") {
    for (const m of result.moves) addRow("advise", m);
  }
  S.best = job.kind === "advise" ? (result.best ? [result.best] : []) : result.best;
  markBest();
  const status = result.status;
  const note = job.kind === "advise"
    ? `${result.seat}'s view: ${result.samples} deals of the unseen cards, method ${result.method}` +
      (result.method === "pimc" ? " (each deal solved with every hand open: optimistic)" : "")
    : `${S.view.to_play}'s plays, every hand known: exact search`;
  setAnalysis(status, `${note}. Best: ${S.best.join(" ") || "—"}`);
}

function clearAnalysis() {
  $("analysis-rows").innerHTML = "";
  $("analysis-head").innerHTML = "";
  $("progress-bar").style.width = "0";
}

function setAnalysis(status, note) {
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

function addRow(kind, r) {
  const head = $("analysis-head");
  if (kind === "analyze" && !head.innerHTML) {
    head.innerHTML = "<tr><th>play</th>" +
      '<th title="final trick counts the seat can end with, for some play of everyone">possible tricks</th>' +
      '<th title="final trick counts the seat can make sure of, whatever the others play">forceable</th>' +
      '<th title="some line avoids the seat\'s paradox">avoid paradox<br>possible</th>' +
      '<th title="the seat avoids its paradox whatever the others play">guaranteed</th>' +
      '<th title="the round score the seat can make sure of">best score</th></tr>';
  }
  if (kind === "advise") {
    if (!head.innerHTML) {
      head.innerHTML = "<tr><th>play</th>" +
        '<th title="estimated chance the seat causes no paradox, with its 95% interval">avoids paradox (95% CI)</th>' +
        '<th title="estimated round score, with its 95% interval">score (95% CI)</th></tr>';
    }
  }
  const tr = document.createElement("tr");
  tr.dataset.play = r.play;
  tr.className = `arow ${r.status || ""}`;
  if (kind === "analyze") {
    tr.innerHTML = `<td class="p">${r.play}</td><td>${fmtSet(r.possible, r.bounds, "possible")}</td>` +
      `<td>${fmtSet(r.forceable, r.bounds, "forceable")}</td>` +
      `<td>${yesNo(r.avoids_paradox.possible)}</td><td>${yesNo(r.avoids_paradox.guaranteed)}</td>` +
      `<td>${r.best_score === null ? "?" : r.best_score}</td>`;
  } else {
    tr.innerHTML = `<td class="p">${r.play}</td><td>${fmtEst(r.avoid_paradox, true)}</td>` +
      `<td>${fmtEst(r.score, false)}</td>`;
  }
  tr.title = `play ${r.play}`;
  tr.onclick = () => tryPlay(r.play);
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

// ------------------------------------------------------------------------------ loading, saving
async function loadText(text) {
  say("", $("load-error"));
  try {
    openDocument(await call("/api/load", { text }));
    return true;
  } catch (e) {
    say(e.message, $("load-error"));
    return false;
  }
}

async function deal() {
  const seedText = $("seed").value.trim();
  const seed = seedText === "" ? Math.floor(Math.random() * 1e9) : Number(seedText);
  try {
    openDocument(await call("/api/deal", { players: Number($("players").value), seed }));
    $("seed").placeholder = `random (last: ${seed})`;
  } catch (e) {
    say(e.message, $("load-error"));
  }
}

async function save(what) {
  const body = { what, syntax: $("syntax").value };
  if (what === "record") {
    body.record = S.doc.record;
    body.moves = S.moves.map((m) => m.play);
  } else {
    body.position = S.plies[S.cursor];
    body.names = S.doc.names;
  }
  try {
    const out = await call("/api/export", body);
    const blob = new Blob([out.text], { type: "text/plain" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = out.filename;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  } catch (e) {
    say(e.message);
  }
}

// ------------------------------------------------------------------------------ start
function refresh() {
  S.views.clear();
  show(S.cursor);
}

document.addEventListener("DOMContentLoaded", async () => {
  $("board").addEventListener("click", onBoardClick);
  window.addEventListener("pagehide", stopJob); // a closed tab stops its analysis
  $("undo").onclick = undo;
  $("redo").onclick = () => show(S.cursor + 1);
  $("first").onclick = () => show(0);
  $("last").onclick = () => show(S.plies.length - 1);
  $("load").onclick = () => loadText($("paste").value);
  $("file").onchange = async (ev) => {
    const f = ev.target.files[0];
    if (f) loadText(await f.text());
  };
  $("deal").onclick = deal;
  $("save-position").onclick = () => save("position");
  $("save-record").onclick = () => save("record");
  for (const id of ["practice", "show-all", "my-seat"]) $(id).onchange = refresh;
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest("textarea, input, select")) return;
    const keys = { ArrowLeft: () => show(S.cursor - 1), ArrowRight: () => show(S.cursor + 1),
      Home: () => show(0), End: () => show(S.plies.length - 1) };
    if (keys[ev.key]) {
      ev.preventDefault();
      keys[ev.key]();
    } else if (ev.key === "Escape") {
      S.selected = null;
      drawHand(S.view);
    }
  });
  window.addEventListener("hashchange", () => {
    if (location.hash !== S.hash) readAddress(); // typed or pasted into the address bar
  });
  try {
    const first = await call("/api/initial");
    S.initial = first.document;
    if (!(await readAddress())) await deal();
  } catch (e) {
    say(e.message);
  }
});
