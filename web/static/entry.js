// The entry mode (#enter): a round entered as it is played at a table. A short form (players,
// your seat, your hand as dealt, your set-aside card, every prediction, the start seat), then one
// tap per play on the board's cell. The server decides every entry with the library's rules
// (web/entry.py) and the page only shows its answer: the new board, or the rule or count that
// refuses the play. Undo steps back; your own turns get live advice from your view.
import { clearAnalysis, setAnalysis, startJob, stopJob, useActions } from "./analysis.js";
import { drawBoard } from "./boardview.js";
import { drawMoves, scoreText } from "./hand.js";
import { $, call, download, explain, say } from "./net.js";
import { setAddress, setMode } from "./router.js";
import { S } from "./state.js";
import { G, endRound, resetEnd } from "./entry_end.js";

const LETTERS = ["A", "B", "C", "D", "E"];
// the entry: the answers so far (the last is shown), the best advice's chance of avoiding a
// paradox at your previous turn, and the busy flag (one entry at a time)
export const E = { steps: [], avoid: null, busy: false };

export function current() {
  return E.steps.length ? E.steps[E.steps.length - 1] : null;
}

function seatOptions(select, players, keep) {
  const seats = LETTERS.slice(0, players);
  select.replaceChildren(...seats.map((s) => new Option(s, s)));
  if (seats.includes(keep)) select.value = keep;
}

function fillSeats() {
  const form = $("enter-round");
  const players = Number(form.elements.players.value);
  seatOptions(form.elements.seat, players, form.elements.seat.value);
  seatOptions(form.elements.start, players, form.elements.start.value);
  const example = { 2: "", 3: "4 2 1", 4: "3 2 1 2", 5: "2 1 1 2 1" }[players];
  form.elements.predictions.placeholder = `e.g. ${example}`;
  // 2 players: no predictions (S3), three revealed undealt cards instead (2P1)
  $("enter-predictions").hidden = players === 2;
  $("enter-revealed").hidden = players !== 2;
}

// Opens the entry mode: the form, or the round being entered (kept while the tab lives).
export async function openEntry() {
  setMode("enter");
  stopJob();
  clearAnalysis();
  setAddress("#enter");
  $("doc-title").textContent = "Enter a round as it is played";
  if (!current()) await restore();
  if (!current()) showForm();
  else render(current());
  return true;
}

// The round being entered survives a reload of the tab (a phone at the table): its record, the
// entering seat and the game's earlier rounds are kept in the tab's session storage.
function keep(st) {
  const saved = { record: st.record, seat: st.seat, rounds: G.rounds };
  try {
    sessionStorage.setItem("catbox-entry", JSON.stringify(saved));
  } catch (e) {
    // storage full or refused: the entry goes on without it
  }
}

async function restore() {
  let saved = null;
  try {
    saved = JSON.parse(sessionStorage.getItem("catbox-entry") || "null");
  } catch (e) {
    return;
  }
  if (!saved) return;
  try {
    E.steps = [await call("/api/enter/step", { record: saved.record, seat: saved.seat })];
    G.rounds = saved.rounds || [];
  } catch (e) {
    sessionStorage.removeItem("catbox-entry");
  }
}

function showForm(start) {
  const form = $("enter-round");
  form.hidden = false;
  // a game's later round: players, seat and names as before, the start seat passed left
  for (const name of ["players", "seat", "names"]) form.elements[name].disabled = G.rounds.length > 0;
  form.elements.start.disabled = G.rounds.length > 0;
  $("enter-game-note").textContent = G.rounds.length
    ? `Round ${G.rounds.length + 1} of the game: ${start} starts (the start passes left).` : "";
  $("enter-live").hidden = true;
  $("board").replaceChildren();
  setAnalysis("", "Your own turns get advice from your view once the round starts.", { idle: true });
  fillSeats();
  if (start) form.elements.start.value = start;
}

async function submitForm(ev) {
  ev.preventDefault();
  const form = $("enter-round");
  const body = {};
  for (const name of ["players", "seat", "hand", "aside", "predictions", "start", "names", "revealed"]) {
    body[name] = form.elements[name].value;
  }
  if (!body.names.trim()) delete body.names;
  if (body.players === "2") delete body.predictions;
  else delete body.revealed;
  try {
    const first = await call("/api/enter/start", body);
    E.steps = [first];
    E.avoid = null;
    say("", $("enter-error"));
    render(first);
  } catch (e) {
    say(explain(e), $("enter-error"));
  }
}

// Sends the entry (a play, or the hidden seat's declared paradox) for the server to decide.
async function enter(extra) {
  const now = current();
  if (E.busy || !now || now.over) return;
  E.busy = true;
  const t0 = performance.now();
  try {
    const body = Object.assign({ record: now.record, seat: now.seat }, extra);
    const next = await call("/api/enter/step", body);
    E.steps.push(next);
    say("");
    render(next);
    window.catboxRedrawMs = performance.now() - t0; // measured by the browser tests
  } catch (e) {
    say(explain(e));
  } finally {
    E.busy = false;
  }
}

export function enterPlay(play) {
  return enter({ play });
}

function undo() {
  if (E.steps.length <= 1) return;
  E.steps.pop();
  const back = current();
  if (back.mine) E.avoid = null; // the warning compares your turns as entered from here
  say("");
  render(back);
}

function statusText(st) {
  const who = (s) => (st.names.length ? `${s} (${st.names[LETTERS.indexOf(s)]})` : s);
  if (st.over) {
    if (st.declared) return `Round over: ${who(st.declared)} declared a paradox.`;
    if (st.score && st.score.paradox === st.seat) return `Round over: you (${who(st.seat)}) cannot play — a paradox.`;
    return "Round over.";
  }
  if (st.mine) return `Your turn (${who(st.turn)}): tap the cell you play.`;
  return `${who(st.turn)} to play: tap the cell ${who(st.turn)} played.`;
}

function render(st) {
  keep(st);
  S.view = st;
  S.plies = st.lines;
  S.moves = st.moves_made;
  S.cursor = st.lines.length - 1;
  document.body.dataset.ply = String(S.cursor);
  $("enter-round").hidden = true;
  $("enter-live").hidden = false;
  drawBoard(st);
  drawMoves({ show: () => {} });
  $("status").textContent = statusText(st);
  $("status").dataset.turn = st.turn || "";
  const hidden = !st.over && !st.mine;
  $("declare-paradox").hidden = !hidden;
  $("declare-paradox").textContent = `${st.turn || ""} cannot play: paradox`;
  $("enter-undo").disabled = E.steps.length <= 1;
  $("enter-hand").textContent = st.mine && st.hand ? `Your hand: ${st.hand.join(" ")}` : "";
  stopJob();
  clearAnalysis();
  if (st.over) {
    setAnalysis("", "The round is over.", { idle: true });
    endRound(st, scoreText(st.score, st.names), newEntry);
    return;
  }
  resetEnd();
  useActions({ play: enterPlay }); // a tap on an advice row enters that play
  if (st.mine) advise(st);
  else setAnalysis("", `${st.turn}'s cards are hidden: no advice for its play.`, { idle: true });
}

// Your turn: the advice from your own view, and a warning when your chance of avoiding a
// paradox fell since your previous turn.
function advise(st) {
  $("enter-warning").hidden = true;
  startJob("advise", { time_limit: 20, samples: 200 }, st.line, (result) => {
    const best = result.moves.find((m) => m.play === result.best);
    const now = best && best.avoid_paradox ? best.avoid_paradox.value : null;
    if (now !== null && E.avoid !== null && now < E.avoid - 0.05) {
      const pct = (x) => `${Math.round(100 * x)}%`;
      $("enter-warning").textContent =
        `Warning: your chance of avoiding a paradox fell from ${pct(E.avoid)} to ${pct(now)}.`;
      $("enter-warning").hidden = false;
    }
    if (now !== null) E.avoid = now;
  });
}

function onTap(ev) {
  if (document.body.dataset.mode !== "enter") return;
  const cell = ev.target.closest("[data-cell]");
  if (cell) enterPlay(cell.dataset.cell);
}

export function newEntry(start) {
  if (!start) G.rounds = [];
  sessionStorage.removeItem("catbox-entry"); // "New entry" starts a new game; "Next round" goes on with it
  E.steps = [];
  E.avoid = null;
  showForm(start);
}

export function downloadRecord() {
  const st = current();
  return call("/api/export", { what: "record", record: st.record, moves: st.moves_made.map((m) => m.play) })
    .then((out) => download(out.text, out.filename))
    .catch((e) => say(explain(e)));
}

export function setupEntry() {
  const form = $("enter-round");
  form.elements.players.onchange = fillSeats;
  form.onsubmit = submitForm;
  $("board").addEventListener("click", onTap);
  $("enter-undo").onclick = undo;
  $("declare-paradox").onclick = () => enter({ paradox: true });
  $("enter-new").onclick = () => newEntry();
  $("enter-edit").onclick = () => {
    if (current()) location.hash = `#edit&pos=${encodeURIComponent(current().line)}`;
  };
}
