// The puzzle trainer's page parts (puzzles.js drives them): the collection and the generator,
// the goal, the board, the verdict, the hidden answer and the count of puzzles solved (kept in
// this browser's storage).
import { $, call, el } from "./net.js";
import { runJob } from "./practicejobs.js";
import { actions, onPuzzleClick, openPuzzle, verdict } from "./puzzles.js";

let list = null;

export async function collection() {
  if (!list) list = (await call("/api/puzzles")).puzzles;
  return list;
}

function solved() {
  return JSON.parse(localStorage.getItem("catbox-solved") || "[]");
}

export function markSolved(name) {
  const s = solved();
  if (!s.includes(name)) localStorage.setItem("catbox-solved", JSON.stringify([...s, name]));
}

export async function progressNote(name) {
  const all = await collection();
  const s = solved();
  $("puzzle-progress").textContent = `Solved ${all.filter((p) => s.includes(p.name)).length} of ` +
    `${all.length} puzzles in the collection.`;
  const pick = $("puzzle-pick");
  if (!pick.options.length) {
    pick.append(...all.map((p) => new Option(`${"★".repeat(p.difficulty || 1)} ${p.title} · ` +
      `${p.players}p${p.playable ? "" : " · hidden hands"}`, p.name)));
  }
  if (name) pick.value = name;
}

async function next() {
  const all = await collection();
  const s = solved();
  const at = all.findIndex((p) => p.name === $("puzzle-pick").value);
  const rest = [...all.slice(at + 1), ...all.slice(0, at + 1)];
  const pick = rest.find((p) => p.playable && !s.includes(p.name)) || rest[0];
  location.hash = `#puzzle=${pick.name}`;
}

async function generate() {
  const b = $("puzzle-generate");
  b.disabled = true;
  verdict("The generator is looking for a sound puzzle…");
  try {
    const seed = Math.floor(Math.random() * 1e6);
    const req = { kind: "puzzle-generate", players: Number($("gen-players").value), seed };
    if ($("gen-level").value) req.level = $("gen-level").value;
    const got = await runJob(req);
    const doc = await call("/api/puzzles/open", { text: got.text });
    doc.title = `${doc.title} (generated, seed ${seed})`;
    await openPuzzle(doc, null);
  } catch (e) {
    verdict(e.message, "bad");
  } finally {
    b.disabled = false;
  }
}

function button(id, text, onclick) {
  return el("button", { id, type: "button", textContent: text, onclick });
}

export function buildView() {
  if ($("puzzle-view")) return;
  const pick = el("select", { id: "puzzle-pick", title: "the bundled collection" });
  pick.onchange = () => { location.hash = `#puzzle=${pick.value}`; };
  const players = el("select", { id: "gen-players", title: "players" },
    ...[2, 3, 4, 5].map((n) => new Option(`${n} players`, String(n), n === 3, n === 3)));
  const level = el("select", { id: "gen-level", title: "difficulty" }, new Option("any level", ""),
    ...["easy", "medium", "hard"].map((x) => new Option(x, x)));
  const board = el("div", { id: "puzzle-board", className: "board" });
  board.addEventListener("click", onPuzzleClick);
  const view = el("section", { id: "puzzle-view", className: "puzzle-view" },
    el("div", { className: "row puzzle-bar" }, pick, button("puzzle-next", "Next puzzle", next)),
    el("div", { className: "row puzzle-bar" }, players, level,
      button("puzzle-generate", "Generate a puzzle", generate)),
    el("h2", { id: "puzzle-title" }),
    el("p", { id: "puzzle-goal", className: "goal-box" }),
    el("p", { id: "puzzle-story", className: "note" }),
    board,
    el("div", { id: "puzzle-plays", className: "choice colours", title: "your legal plays" }),
    el("p", { id: "puzzle-verdict", className: "verdict", role: "status" }),
    el("div", { className: "row" }, button("puzzle-retry", "Take back", () => actions.retry()),
      button("puzzle-restart", "Start again", () => actions.restart()),
      button("show-answer", "Show the answer", () => actions.showAnswer())),
    el("div", { id: "puzzle-answer", className: "answer", hidden: true }),
    el("p", { id: "puzzle-progress", className: "note" }));
  document.querySelector("main.layout").after(view);
}

// The answer: whether the goal can be met from the start, the plays that keep it (the keys)
// and a line with catbox's best defence, then the puzzle's own stated answer if it has one.
export function answerBox(doc, first) {
  const parts = [];
  const yes = first.solvable;
  parts.push(el("p", {}, el("b", { textContent: yes ? "Yes: " : yes === false ? "No: " : "Unknown: " }),
    yes ? `the goal can be met. ${first.keeping.length > 1 ? "Keys" : "Key"}: ${first.keeping.join(", ")}.`
      : yes === false ? "the goal cannot be met whatever you play." : "a limit stopped the search."));
  if (first.value !== null && first.value !== undefined) parts.push(el("p", { textContent: `Value: ${first.value}.` }));
  if (first.line) parts.push(el("p", { textContent: `A line: ${first.line.join(" ")}.` }));
  const stated = doc.puzzle.answer;
  if (stated && stated.line) parts.push(el("p", { className: "note", textContent: `The puzzle's answer: ${stated.line.join(" ")}.` }));
  return parts;
}
