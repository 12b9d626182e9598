// The puzzle trainer (#puzzles, #puzzle=NAME): a puzzle is a puzzle. Its goal is shown, its
// answer hidden until asked; you play the goal seat by tapping cells, catbox plays the others
// (the best defence of a guaranteed goal, the best help of a possible one), and a play that
// loses the goal is said at once (the plays that keep it are worked out while you think:
// web/practice.py puzzle_turn). The collection (puzzles/) in order, and the generator.
import { stopJob } from "./analysis.js";
import { drawBoard } from "./boardview.js";
import { $, call, el } from "./net.js";
import { runJob } from "./practicejobs.js";
import * as router from "./router.js";
import { S } from "./state.js";
import { answerBox, buildView, collection, markSolved, progressNote } from "./puzzleview.js";

export const P = {
  doc: null, // the puzzle's document (document_json, with `puzzle`)
  name: null, // its name in the collection, if it is one
  plies: [], // one-line positions, the start first
  moves: [],
  view: null,
  turn: null, // the puzzle-turn job of the position shown (a promise)
  first: null, // the first turn's answer: solvable, value, keeping (the keys), line
  lost: null, // the move that lost the goal (1-based), or null
  token: { cancelled: false },
  busy: false,
};

const goalSeat = () => P.doc.puzzle.goal.seat;

export function verdict(text, kind) {
  const box = $("puzzle-verdict");
  box.textContent = text;
  box.className = `verdict ${kind || ""}`;
}

function cancel() {
  P.token.cancelled = true;
  P.token = { cancelled: false };
  return P.token;
}

export async function openPuzzle(doc, name) {
  buildView();
  stopJob(); // the board's own analysis would show the answer
  router.setMode("puzzle");
  cancel();
  P.doc = doc;
  P.name = name || null;
  P.plies = [doc.plies[0]];
  P.moves = [];
  P.first = null;
  P.lost = null;
  $("puzzle-title").textContent = doc.title;
  $("doc-title").textContent = `Puzzle: ${doc.title}`;
  $("puzzle-goal").textContent = `Goal: ${doc.goal}. You play ${goalSeat()}; catbox plays the other ` +
    `seats (${doc.puzzle.goal.mode === "possible" ? "helping you: a possible goal" : "defending its best"}).`;
  $("puzzle-story").textContent = doc.description || "";
  $("puzzle-answer").hidden = true;
  $("puzzle-board").replaceChildren();
  router.setAddress(name ? `#puzzle=${name}` : "#puzzles");
  progressNote(name);
  P.playable = true;
  verdict("");
  await step();
}

async function step() {
  const token = P.token;
  const line = P.plies[P.plies.length - 1];
  const body = { position: line, names: P.doc.names.length ? P.doc.names : undefined };
  if (P.moves.length) body.last = P.moves[P.moves.length - 1].play;
  const v = await call("/api/view", body);
  if (token.cancelled) return;
  P.view = v;
  if (!P.moves.length) P.playable = v.all_hands_known;
  drawBoard(v, $("puzzle-board"));
  document.body.dataset.puzzlePly = String(P.moves.length);
  $("puzzle-retry").disabled = !P.moves.length;
  if (!P.playable) {
    verdict("This puzzle hides some hands: it cannot be played out here. Think it through, then show the answer.");
    return;
  }
  const job = { puzzle: P.doc.puzzle, position: line };
  if (v.to_play === null) {
    const end = await runJob({ kind: "puzzle-turn", ...job }, token);
    if (end) finish(end);
    return;
  }
  if (v.to_play === goalSeat()) {
    P.turn = runJob({ kind: "puzzle-turn", ...job }, token);
    P.turn.then((t) => { if (t && !P.first) P.first = t; }).catch(() => {});
    for (const cell of $("puzzle-board").querySelectorAll(".cell")) {
      cell.classList.toggle("pick", v.moves.legal.includes(cell.dataset.cell));
    }
    playButtons(v.moves.legal);
    if (!P.moves.length) verdict(`${goalSeat()} to play: tap a cell.`);
    return;
  }
  const reply = await runJob({ kind: "puzzle-reply", ...job }, token);
  if (!reply || token.cancelled) return;
  await new Promise((r) => setTimeout(r, 250));
  await play(reply.play);
}

// Your legal plays as buttons too (a phone's cells are small): one tap is one play.
function playButtons(legal) {
  $("puzzle-plays").replaceChildren(...legal.map((p) => el("button", { type: "button",
    className: `colour ${p.slice(-1)}`, textContent: p, dataset: { play: p }, onclick: () => userPlay(p) })));
}

async function play(p) {
  $("puzzle-plays").replaceChildren();
  const body = { position: P.plies[P.plies.length - 1], play: p };
  const after = await call("/api/play", body);
  P.plies.push(after.line);
  P.moves.push(after.move);
  await step();
}

async function userPlay(cellName) {
  const v = P.view;
  if (P.busy || !v || v.to_play !== goalSeat() || !P.playable) return;
  if (!v.moves.legal.includes(cellName)) {
    const no = v.moves.illegal.find((i) => i.play === cellName);
    verdict(`${cellName} is not legal: ${no ? `${no.text} (${no.rule})` : "that cell is taken (L1)"}`, "bad");
    return;
  }
  P.busy = true;
  try {
    verdict(`${cellName}: checking…`);
    const turn = await P.turn;
    if (!turn) return;
    const mover = P.moves.length + 1;
    if (turn.solvable && !turn.keeping.includes(cellName)) {
      P.lost = mover;
      verdict(`✗ ${cellName} loses the goal (${P.doc.goal}): after it catbox can stop you. ` +
        "Take it back and try another play.", "bad");
    } else if (turn.solvable) {
      verdict(`✓ ${cellName} keeps the goal.`, "good");
    } else {
      verdict(`${cellName}: the goal could not be met from here${P.lost ? " (it was lost earlier)" : ""}.`, "bad");
    }
    await play(cellName);
  } catch (e) {
    verdict(e.message, "bad");
  } finally {
    P.busy = false;
  }
}

function finish(end) {
  const reached = P.doc.puzzle.goal.kind === "max-score"
    ? P.first && end.score === P.first.value
    : end.reached;
  if (reached) {
    verdict(`★ Goal reached: ${P.doc.goal}. Solved!`, "good");
    if (P.name) markSolved(P.name);
  } else if (P.first && P.first.solvable === false) {
    verdict("The round is over: this goal could not be met (the puzzle's answer is no).", "good");
    if (P.name) markSolved(P.name);
  } else {
    verdict(`The round is over and the goal was missed${P.lost ? ` (lost at move ${P.lost})` : ""}.`, "bad");
  }
  progressNote();
}

// Back to the goal seat's turn before its last play (catbox's replies after it undone).
async function retry() {
  cancel();
  let k = P.moves.length - 1;
  while (k > 0 && P.moves[k].by !== goalSeat()) k -= 1;
  P.moves.length = Math.max(0, k);
  P.plies.length = P.moves.length + 1;
  if (P.lost && P.lost > P.moves.length) P.lost = null;
  verdict("Taken back: your turn.");
  await step();
}

async function showAnswer() {
  const box = $("puzzle-answer");
  box.hidden = false;
  box.replaceChildren(el("p", { className: "note", textContent: "Working out the answer…" }));
  const first = P.first || (await runJob({ kind: "puzzle-turn", puzzle: P.doc.puzzle, position: P.doc.plies[0] }));
  P.first = first;
  box.replaceChildren(...answerBox(P.doc, first));
}

export function onPuzzleClick(ev) {
  const cell = ev.target.closest("[data-cell]");
  if (cell) userPlay(cell.dataset.cell);
}

export const actions = { retry, showAnswer, restart: () => openPuzzle(P.doc, P.name) };

async function openNamed(name) {
  try {
    await openPuzzle(await call("/api/puzzles/open", { name }), name);
    return true;
  } catch (e) {
    buildView();
    verdict(e.message, "bad");
    return true;
  }
}

// The page's links to the practice views, beside the other views' (the header's nav).
function links() {
  const nav = document.querySelector("header.top nav.modes") || document.querySelector("header.top");
  nav.append(el("a", { href: "#game", id: "to-game", textContent: "Game vs catbox", dataset: { for: "game" } }),
    el("a", { href: "#puzzles", id: "to-puzzles", textContent: "Puzzles", dataset: { for: "puzzle" } }));
}

links();

router.route("puzzle", (p) => openNamed(p.get("puzzle")));
router.route("puzzles", async () => {
  const list = await collection();
  const solved = JSON.parse(localStorage.getItem("catbox-solved") || "[]");
  const next = list.find((x) => x.playable && !solved.includes(x.name)) || list[0];
  return openNamed(next.name);
});

// A puzzle loaded on the board (pasted, opened, or named on the command line) is played as a
// puzzle: the board's analysis would frame its answer at once.
new MutationObserver(() => {
  if (document.body.dataset.mode === "board" && S.doc && S.doc.kind === "puzzle" && S.doc !== P.seen) {
    P.seen = S.doc;
    openPuzzle(S.doc, null);
  }
}).observe(document.body, { attributes: true, attributeFilter: ["data-ply"] });
window.catboxPuzzle = P; // the browser tests' hook
