// The analysis board: a document's plies on the picture, stepping through them, playing by a card
// and a colour or a cell, and the address (#ply=N for the server's own document, else
// #pos=<one-line position>). The picture is catbox's own drawing (solver/svg.py) redrawn in place
// by CatboxBoard.draw (solver/assets/board.js, shared with the HTML review).
import { afterRender, stopJob } from "./analysis.js";
import { drawHand, drawMoves, drawScore, selectCard } from "./hand.js";
import { $, call, explain, say } from "./net.js";
import { fit, listSeats } from "./phone.js";
import { setAddress, setMode } from "./router.js";
import { S, named, viewSeat } from "./state.js";

export const act = { play: (p) => tryPlay(p), show: (ply) => show(ply) };

async function fetchView(line) {
  const seat = viewSeat();
  const key = `${line}|${seat || ""}`;
  if (!S.views.has(key)) {
    const body = { position: line, names: named() };
    if (seat) body.view = seat;
    const ply = S.plies.indexOf(line);
    if (ply > 0) body.last = S.moves[ply - 1].play;
    S.views.set(key, await call("/api/view", body));
  }
  return S.views.get(key);
}

export function openDocument(doc, ply) {
  setMode("board");
  S.doc = doc;
  S.plies = doc.plies.slice();
  S.moves = doc.moves.slice();
  S.views.clear();
  $("board").replaceChildren(); // a new picture: its seat labels (names) are the new document's
  $("doc-title").textContent = doc.title;
  const goal = doc.goal ? `Goal: ${doc.goal}. ${doc.description || ""}` : doc.description || "";
  $("goal").textContent = goal;
  $("goal").hidden = !goal;
  const mine = $("my-seat");
  const keep = mine.value;
  mine.replaceChildren(
    ...doc.seats.map((s, i) => new Option(doc.names.length ? `${s} · ${doc.names[i]}` : s, s)),
  );
  if (doc.seats.includes(keep)) mine.value = keep;
  $("players").value = String(doc.seats.length); // the next deal: this board's table size
  $("save-record").disabled = !doc.record;
  $("save-note").textContent = doc.record
    ? ""
    : "A record needs the deal: deal a new round or load a record to save one.";
  say("");
  return show(ply ?? (doc.kind === "record" ? S.plies.length - 1 : 0));
}

export async function show(ply) {
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
  afterRender(act);
}

// Draws view `v` on the board's picture: redrawn in place when it has the same players, else the
// server's SVG once (the skeleton the redraws reuse).
export function drawBoard(v, box) {
  const holder = box || $("board");
  const svg = holder.querySelector("svg.catbox-board");
  if (svg && svg.dataset.players === String(v.state.players)) {
    CatboxBoard.draw(svg, v.state, { last: v.last, candidates: [] });
    for (const cell of svg.querySelectorAll(".cell.pick, .cell.hover, .cell.best")) {
      cell.classList.remove("pick", "hover", "best");
    }
  } else {
    holder.innerHTML = v.svg;
    fit(holder);
  }
  listSeats(holder, v.state);
}

function render(v) {
  S.view = v;
  drawBoard(v);
  drawHand(v, act);
  drawMoves(act);
  drawScore(v);
  $("ply").textContent = `move ${S.cursor} of ${S.plies.length - 1}`;
  $("undo").disabled = $("first").disabled = S.cursor === 0;
  $("redo").disabled = $("last").disabled = S.cursor >= S.plies.length - 1;
  document.body.dataset.ply = String(S.cursor);
  const own = S.doc === S.initial && S.initial.plies[S.cursor] === S.plies[S.cursor];
  // a document with its own address (the game against catbox: #game) keeps it
  const here = own ? `#ply=${S.cursor}` : `#pos=${encodeURIComponent(S.plies[S.cursor])}`;
  setAddress(S.doc.address || here);
}

export async function tryPlay(play) {
  if (S.busy) return;
  const v = S.view;
  if (!v || v.to_play === null) return;
  S.busy = true;
  const t0 = performance.now();
  try {
    const body = { position: S.plies[S.cursor], names: named(), play };
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
    afterRender(act);
  } catch (e) {
    say(explain(e));
  } finally {
    S.busy = false;
  }
}

export function onBoardClick(ev) {
  if (document.body.dataset.mode !== "board") return;
  const cell = ev.target.closest("[data-cell]");
  if (cell) {
    if (cell.dataset.owner) return say(`${cell.dataset.cell} is taken by ${cell.dataset.owner} (L1)`);
    return tryPlay(cell.dataset.cell);
  }
  const card = ev.target.closest(".seat .card");
  if (card && S.view && card.closest(".seat").dataset.seat === S.view.to_play) {
    const n = Number(card.textContent);
    if (n) selectCard(n, act);
  }
  return undefined;
}

export function undo() {
  let k = S.cursor - 1;
  if ($("practice").checked) {
    // back to the seat's own previous turn (catbox's plays after it are undone too)
    const me = $("my-seat").value;
    while (k > 0 && S.moves[k] && S.moves[k].by !== me) k -= 1;
  }
  show(k);
}

export function refresh() {
  S.views.clear();
  show(S.cursor);
}

export function escape() {
  S.selected = null;
  if (S.view) drawHand(S.view, act);
}
