// catbox analysis board: the page's entry point. Plain JavaScript modules, no build step, no
// network but this server. It wires the controls and registers each view with the router:
//   #ply=N       a ply of the document named on the command line
//   #pos=cbx1:…  any position (a move played here, a dealt round, a pasted position)
//   #board       back to the document shown last
//   #enter       the entry mode (entry.js)
//   #edit[&pos=cbx1:…]  the position editor (editor.js)
// Other views (editor, practice) register their own keys the same way.
import { stopJob } from "./analysis.js";
import { escape, onBoardClick, openDocument, refresh, show, undo } from "./boardview.js";
import { downloadRecord, openEntry, setupEntry } from "./entry.js";
import { ED, openEditor, setupEditor } from "./editor.js";
import { deal, loadText, save } from "./files.js";
import { $, call, say } from "./net.js";
import { fit, watch } from "./phone.js";
import * as router from "./router.js";
import { S } from "./state.js";
// practice's views register their own keys: #game, #puzzles, #puzzle=NAME (and catbox's reasons)
import "./game.js";
import "./puzzles.js";
import { setupReasons } from "./reasons.js";

window.catbox = { S, ED, call, stopJob }; // the browser tests' hook (tests/test_web_browser.py)

router.route("pos", (p) => loadText(p.get("pos")));
router.route("ply", async (p) => {
  if (!S.initial) return false;
  const ply = Number(p.get("ply"));
  await openDocument(S.initial, Number.isInteger(ply) ? ply : undefined);
  return true;
});
router.route("enter", openEntry);
router.route("edit", (p) => openEditor(p, S.view && S.view.line));
router.route("board", async () => {
  if (!S.doc) return false;
  await openDocument(S.doc);
  return true;
});
router.otherwise(async () => {
  if (S.initial) await openDocument(S.initial);
  else await deal();
  return true;
});

function keys(ev) {
  if (ev.target.closest("textarea, input, select") || document.body.dataset.mode !== "board") return;
  const moves = { ArrowLeft: () => show(S.cursor - 1), ArrowRight: () => show(S.cursor + 1),
    Home: () => show(0), End: () => show(S.plies.length - 1) };
  if (moves[ev.key]) {
    ev.preventDefault();
    moves[ev.key]();
  } else if (ev.key === "Escape") {
    escape();
  }
}

async function main() {
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
  document.addEventListener("keydown", keys);
  setupEntry();
  setupEditor();
  $("edit-this").onclick = () => {
    location.hash = `#edit&pos=${encodeURIComponent(S.plies[S.cursor])}`;
  };
  $("download-record").onclick = downloadRecord;
  setupReasons(); // catbox's reasons for its practice plays
  router.start();
  watch(() => fit($("board")));
  try {
    const first = await call("/api/initial");
    S.initial = first.document;
    await router.dispatch();
  } catch (e) {
    say(e.message);
  }
}

main();
