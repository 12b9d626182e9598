// Loading and saving: a pasted or opened document, a new dealt round, and the downloads of the
// position shown or the record so far (the server writes the text: TOML or JSON).
import { openDocument } from "./boardview.js";
import { $, call, download, say } from "./net.js";
import { S, named } from "./state.js";

export async function loadText(text) {
  say("", $("load-error"));
  try {
    await openDocument(await call("/api/load", { text }));
    return true;
  } catch (e) {
    say(e.message, $("load-error"));
    return false;
  }
}

export async function deal() {
  const seedText = $("seed").value.trim();
  const seed = seedText === "" ? Math.floor(Math.random() * 1e9) : Number(seedText);
  try {
    await openDocument(await call("/api/deal", { players: Number($("players").value), seed }));
    $("seed").placeholder = `random (last: ${seed})`;
  } catch (e) {
    say(e.message, $("load-error"));
  }
}

export async function save(what) {
  const body = { what, syntax: $("syntax").value };
  if (what === "record") {
    body.record = S.doc.record;
    body.moves = S.moves.map((m) => m.play);
  } else {
    body.position = S.plies[S.cursor];
    body.names = named();
  }
  try {
    const out = await call("/api/export", body);
    download(out.text, out.filename);
  } catch (e) {
    say(e.message);
  }
}
