// The board's shared state: the document shown, its plies and moves, the view on screen and the
// job running. One object, imported by the modules that need it (never a global but as the
// tests' hook, window.catbox).
import { $ } from "./net.js";

export const S = {
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

export const COLOURS = ["R", "B", "Y", "G"];
export const WORDS = { R: "red", B: "blue", Y: "yellow", G: "green" };

// The seat whose view is shown (practice without "show every hand"), or null: every hand.
export function viewSeat() {
  return $("practice").checked && !$("show-all").checked ? $("my-seat").value : null;
}

// The document's seat names for a request (undefined, so left out, when it has none).
export function named() {
  return S.doc && S.doc.names.length ? S.doc.names : undefined;
}

// True when catbox plays the seat to play (practice, another seat's turn).
export function botSeat(v) {
  return $("practice").checked && v.to_play !== null && v.to_play !== $("my-seat").value;
}
