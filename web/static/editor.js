// The position editor (#edit, #edit&pos=cbx1:…): set up any position. The draft is a
// catbox-position/1 document table (JSON); every change is sent to the server, read by the
// library's position reader and answered with the board's view of it, or with the reader's
// message (the key and the rule). The board shows the last valid position with the draft's
// tokens on it; the address keeps the last valid position.
import { drawBoard } from "./boardview.js";
import { drawSeats, readSeats } from "./editor_seats.js";
import { $, call, download, explain } from "./net.js";
import { setAddress, setMode } from "./router.js";

const LETTERS = ["A", "B", "C", "D", "E"];
const ROWS = ["red", "blue", "yellow", "green"];
// the draft table, the last valid answer, the brush (a seat letter, N or "." to clear) and
// the number of the last change sent (a late answer to an older one is dropped)
export const ED = { table: null, valid: null, blank: null, brush: "A", sent: 0 };

// An empty draft of `players` players (from the server: the variant's numbers are the
// library's), and the picture to draw it on.
async function emptyTable(players) {
  ED.blank = await call("/api/edit", { blank: players });
  return structuredClone(ED.blank.table);
}

// Opens the editor on the address's position, else on the position shown, else an empty board.
export async function openEditor(params, shown) {
  setMode("edit");
  $("doc-title").textContent = "Set up a position";
  $("board").replaceChildren(); // a fresh picture: its seat labels are the draft's
  const line = (params && params.get("pos")) || shown;
  ED.table = null;
  if (line) {
    try {
      accept(await call("/api/edit", { line }));
    } catch (e) {
      $("edit-status").textContent = explain(e);
    }
  }
  if (!ED.table) ED.table = await emptyTable(4);
  drawAll();
  await check();
  return true;
}

function accept(answer) {
  ED.valid = answer;
  ED.table = answer.table;
  delete ED.table.format;
  // the rows as the picture's state has them (a table may leave out an empty board)
  const cells = answer.state.cells;
  const n = cells.length / 4;
  ED.table.board = Object.fromEntries(ROWS.map((row, r) => [row, cells.slice(r * n, r * n + n).split("").join(" ")]));
}

function drawAll() {
  const t = ED.table;
  $("edit-players").value = String(t.players);
  drawPalette();
  drawSeats(t, LETTERS.slice(0, t.players), () => change(() => readSeats(t)));
  $("edit-plays").value = ((t.trick && t.trick.plays) || []).join(" ");
  $("edit-names").value = (t.names || []).join(", ");
  const toPlay = $("edit-to-play");
  toPlay.replaceChildren(...LETTERS.slice(0, t.players).map((s) => new Option(s, s)));
  show();
}

function drawPalette() {
  const brushes = [...LETTERS.slice(0, ED.table.players), ...(ED.table.players === 2 ? ["N"] : []), "."];
  if (!brushes.includes(ED.brush)) ED.brush = "A";
  $("edit-brushes").replaceChildren(...brushes.map((b) => {
    const button = document.createElement("button");
    button.dataset.brush = b;
    button.textContent = b === "." ? "clear" : b === "N" ? "neutral" : b;
    button.className = b === ED.brush ? "brush chosen" : "brush";
    button.onclick = () => {
      ED.brush = b;
      drawPalette();
    };
    return button;
  }));
}

// Applies `edit` to the draft and has the server read it.
export async function change(edit) {
  edit(ED.table);
  await check();
}

async function check() {
  const n = ++ED.sent;
  try {
    const answer = await call("/api/edit", { position: ED.table });
    if (n !== ED.sent) return;
    ED.valid = answer;
    $("edit-status").textContent = answer.to_play
      ? `A valid position: ${answer.to_play} to play.` : `A valid position: ${answer.status_text}`;
    $("edit-status").className = "status ok";
    setAddress(`#edit&pos=${encodeURIComponent(answer.line)}`);
  } catch (e) {
    const players = ED.table.players; // a picture to draw the draft on, then the verdict
    if (!(ED.blank && ED.blank.state.players === players)) await emptyTable(players).catch(() => null);
    if (n !== ED.sent) return;
    $("edit-status").textContent = explain(e);
    $("edit-status").className = "status error";
  }
  show();
}

// The last valid position's picture with the draft's tokens on its cells.
function show() {
  const players = ED.table.players;
  const valid = ED.valid && ED.valid.state.players === players ? ED.valid : null;
  const blank = ED.blank && ED.blank.state.players === players ? ED.blank : null;
  const box = $("board");
  if (valid || blank) drawBoard(valid || blank);
  else box.replaceChildren();
  for (const b of ["edit-export-toml", "edit-export-json", "edit-export-cbx1", "edit-open"]) {
    $(b).disabled = $("edit-status").className.includes("error") || !valid;
  }
  if (valid) $("edit-line").value = valid.line;
  const rows = ED.table.board || {};
  for (const cell of box.querySelectorAll("[data-cell]")) {
    const name = cell.dataset.cell;
    const row = (rows[ROWS["RBYG".indexOf(name.slice(-1))]] || "").split(" ");
    const mark = row[Number(name.slice(0, -1)) - 1] || ".";
    if (mark === ".") cell.removeAttribute("data-owner");
    else cell.dataset.owner = mark;
    const tok = cell.querySelector(".tok text");
    if (tok) tok.textContent = mark === "." ? "" : mark;
  }
  const plays = (ED.table.trick && ED.table.trick.plays) || [];
  const leader = LETTERS.indexOf((ED.table.trick && ED.table.trick.leader) || "A");
  $("edit-to-play").value = LETTERS[(leader + plays.length) % ED.table.players];
}

function onTap(ev) {
  if (document.body.dataset.mode !== "edit") return;
  const cell = ev.target.closest("[data-cell]");
  if (!cell) return;
  const name = cell.dataset.cell;
  const key = ROWS["RBYG".indexOf(name.slice(-1))];
  const i = Number(name.slice(0, -1)) - 1;
  change((t) => {
    const row = t.board[key].split(" ");
    row[i] = row[i] === ED.brush ? "." : ED.brush; // the same brush again clears the cell
    t.board[key] = row.join(" ");
  });
}

function setTrick() {
  const plays = $("edit-plays").value.split(/[\s,]+/).filter(Boolean).map((p) => p.toUpperCase());
  const toPlay = LETTERS.indexOf($("edit-to-play").value);
  change((t) => {
    const n = t.players;
    t.trick = { leader: LETTERS[(((toPlay - plays.length) % n) + n) % n], plays };
  });
}

function exportAs(syntax) {
  call("/api/export", { what: "position", syntax, position: ED.valid.line, names: ED.valid.table.names })
    .then((out) => download(out.text, out.filename))
    .catch((e) => { $("edit-status").textContent = explain(e); });
}

export function setupEditor() {
  $("board").addEventListener("click", onTap);
  $("edit-players").onchange = async () => {
    ED.table = await emptyTable(Number($("edit-players").value));
    ED.valid = null;
    drawAll();
    check();
  };
  $("edit-plays").onchange = setTrick;
  $("edit-names").onchange = () => change((t) => {
    const names = $("edit-names").value.split(",").map((n) => n.trim()).filter(Boolean);
    if (names.length) t.names = names;
    else delete t.names;
  });
  $("edit-to-play").onchange = setTrick;
  $("edit-export-toml").onclick = () => exportAs("toml");
  $("edit-export-json").onclick = () => exportAs("json");
  $("edit-export-cbx1").onclick = () => exportAs("cbx1");
  $("edit-open").onclick = () => { location.hash = `#pos=${encodeURIComponent(ED.valid.line)}`; };
}
