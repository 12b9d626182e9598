// A whole game against catbox (#game): each round you set a card aside and predict (the
// advisor's ranking on request), catbox's seats make theirs (its player, in worker jobs), you
// play the round on the board with catbox in the other seats, then the next round (the start
// passes left, Sc4) to the totals and the winner; the game record downloads and reviews.
// The game is kept here, in the page: {players, names, first_start, rounds: [round records]},
// and in the tab's session storage, so a reload (a phone at the table) goes on where it was.
import { openDocument } from "./boardview.js";
import { $, call, el, say } from "./net.js";
import { adviceTable, runJob } from "./practicejobs.js";
import * as router from "./router.js";
import { S } from "./state.js";
import { roundEnd } from "./gameend.js";
import { keep, kept } from "./gamekeep.js";

export const G = {
  game: null, // {players, names, first_start, rounds}
  me: "A",
  seed: 0,
  deal: null, // the round's deal: {round, start, deal, revealed, predictions_allowed}
  asides: [],
  preds: [],
  doc: null, // the round's document on the board
  ended: false,
  token: null, // the running jobs' cancel token
};

// The game kept before a reload, back on the page at the step it was at; false when none is.
async function restore() {
  const saved = kept();
  if (!saved) return false;
  Object.assign(G, { game: saved.game, me: saved.me, seed: saved.seed, deal: saved.deal,
    asides: saved.asides, preds: saved.preds, doc: null, ended: false });
  panel();
  cancelJobs();
  const phase = saved.phase;
  if (saved.doc && (phase === "round" || phase === "between" || phase === "over")) {
    G.ended = phase !== "round"; // an ended round is not recorded twice
    await onBoard(saved.doc, saved.doc.cursor, phase);
    if (G.ended) await roundEnd();
    return true;
  }
  await nextRound(); // the round start again: the same deal and catbox's same choices (seeds)
  return true;
}

const letters = (n) => Array.from({ length: n }, (_, i) => String.fromCharCode(65 + i));
const idx = (s) => s.charCodeAt(0) - 65;

export function status(text) {
  $("versus-status").textContent = text;
}

function body() {
  return $("versus-body");
}

function panel() {
  if ($("versus-panel")) return;
  const p = el("section", { id: "versus-panel", className: "panel versus-panel" },
    el("h2", { textContent: "Game against catbox" }),
    el("p", { id: "versus-status", className: "versus-status", role: "status" }),
    el("div", { id: "versus-body" }));
  document.querySelector("header.top").after(p);
}

function setupForm() {
  const players = el("select", { name: "players" },
    ...[2, 3, 4, 5].map((n) => new Option(`${n} players`, String(n), n === 3, n === 3)));
  const seat = el("select", { name: "seat" });
  const fill = () => seat.replaceChildren(...letters(Number(players.value)).map((s) => new Option(s, s)));
  players.onchange = fill;
  fill();
  const seed = el("input", { name: "seed", type: "number", min: "0", placeholder: "random" });
  const form = el("form", { id: "versus-new", className: "row" },
    el("label", {}, "Players ", players), el("label", {}, "Your seat ", seat),
    el("label", {}, "Seed ", seed), el("button", { type: "submit", textContent: "Start the game" }));
  form.onsubmit = (ev) => {
    ev.preventDefault();
    const s = seed.value.trim() === "" ? Math.floor(Math.random() * 1e9) : Number(seed.value);
    newGame(Number(players.value), seat.value, s);
  };
  return form;
}

export function showSetup() {
  panel();
  cancelJobs();
  document.body.dataset.game = "setup";
  keep();
  router.setMode("game");
  status("A game has as many rounds as players; the round start passes left each round (Sc4).");
  body().replaceChildren(setupForm());
}

function cancelJobs() {
  if (G.token) G.token.cancelled = true;
  G.token = { cancelled: false };
  return G.token;
}

async function newGame(players, me, seed) {
  G.game = { players, names: [], first_start: "A", rounds: [] };
  G.me = me;
  G.seed = seed;
  await nextRound();
}

export async function nextRound() {
  const token = cancelJobs();
  document.body.dataset.game = "start";
  router.setMode("game");
  try {
    G.deal = await call("/api/game/deal", { game: G.game, seed: G.seed });
  } catch (e) {
    status(e.message);
    return;
  }
  const n = G.game.players;
  G.asides = Array(n).fill(null);
  G.preds = Array(n).fill(null);
  G.ended = false;
  G.doc = null;
  keep();
  await chooseAside(token);
}

function order(seat) {
  const n = G.game.players;
  return (idx(seat) - idx(G.deal.start) + n) % n;
}

function seedOf(seat) {
  return (G.seed + 7919 * G.deal.round + 101 * idx(seat)) % 2147483647;
}

function handLine() {
  const hand = G.deal.deal[idx(G.me)];
  return el("p", { className: "deal-hand" }, el("b", { textContent: "Your hand: " }),
    ...hand.map((c) => el("span", { className: "chip", textContent: String(c) })));
}

function heading() {
  const r = G.deal.round + 1;
  const me = order(G.me);
  return `Round ${r} of ${G.game.players} · round start ${G.deal.start} · you are ${G.me}` +
    (G.game.players > 2 ? ` (predicting ${me + 1}${["st", "nd", "rd", "th", "th"][me]})` : "");
}

// The advisor's ranking for your hand, on request (`before`: the predictions made before you).
function advisorButton(before, mark) {
  const out = el("div", { id: "advice" });
  const b = el("button", { id: "advisor", type: "button", textContent: "Advisor's ranking" });
  b.onclick = async () => {
    b.disabled = true;
    out.replaceChildren(el("p", { className: "note", textContent: "catbox's advisor is playing the round out…" }));
    const req = { kind: "start-advice", players: G.game.players, hand: G.deal.deal[idx(G.me)],
      order: order(G.me), samples: 200, seed: seedOf(G.me) };
    if (before) req.before = before;
    try {
      const res = await runJob(req, G.token);
      if (res) out.replaceChildren(adviceTable(res, mark, 10));
    } catch (e) {
      out.replaceChildren(el("p", { className: "message", textContent: e.message }));
    }
  };
  return el("div", {}, b, out);
}

function chooseAside(token) {
  status(heading());
  $("doc-title").textContent = `Game against catbox · round ${G.deal.round + 1} of ${G.game.players}: the round start`;
  const hand = G.deal.deal[idx(G.me)];
  const buttons = [...new Set(hand)].map((c) => el("button", { type: "button", className: "card",
    textContent: String(c), dataset: { card: String(c) }, onclick: () => asideChosen(c, token) }));
  body().replaceChildren(handLine(),
    el("p", { textContent: "Set one card aside (S2): it takes no part in the round." }),
    el("div", { className: "choice aside-choice" }, ...buttons),
    advisorButton(null, null));
}

async function asideChosen(card, token) {
  G.asides[idx(G.me)] = card;
  body().replaceChildren(handLine(), el("p", { className: "note",
    textContent: `You set aside a ${card}. catbox's seats are setting aside theirs…` }));
  const others = letters(G.game.players).filter((s) => s !== G.me);
  try {
    const got = await Promise.all(others.map((s) => runJob({ kind: "start-decision",
      players: G.game.players, hand: G.deal.deal[idx(s)], order: order(s), seed: seedOf(s) }, token)));
    if (token.cancelled || got.includes(null)) return;
    others.forEach((s, i) => { G.asides[idx(s)] = got[i].set_aside; });
    if (G.game.players > 2) await predictions(token);
    else await begin();
  } catch (e) {
    status(e.message);
  }
}

// S3: each seat in turn from the round start; catbox's seats by its player, yours by a button.
async function predictions(token) {
  const n = G.game.players;
  for (let k = 0; k < n; k += 1) {
    const s = letters(n)[(idx(G.deal.start) + k) % n];
    const before = [];
    for (let j = 0; j < k; j += 1) before.push(G.preds[(idx(G.deal.start) + j) % n]);
    if (s === G.me) {
      G.preds[idx(s)] = await myPrediction(before);
    } else {
      showPredictions(`${s} (catbox) is predicting…`);
      const got = await runJob({ kind: "start-decision", players: n, hand: G.deal.deal[idx(s)],
        order: k, before, set_aside: G.asides[idx(s)], seed: seedOf(s) }, token);
      if (!got || token.cancelled) return;
      G.preds[idx(s)] = got.prediction;
    }
  }
  await begin();
}

function predictionLine() {
  const made = letters(G.game.players).filter((s) => G.preds[idx(s)] !== null);
  return made.length ? made.map((s) => `${s}: ${G.preds[idx(s)]}`).join(" · ") : "none yet";
}

function showPredictions(note) {
  body().replaceChildren(handLine(),
    el("p", { className: "predictions", textContent: `Predictions (S3): ${predictionLine()}` }),
    el("p", { className: "note", textContent: note }));
}

function myPrediction(before) {
  return new Promise((resolve) => {
    const aside = G.asides[idx(G.me)];
    showPredictions(`You set aside a ${aside}. How many tricks will you win?`);
    const buttons = G.deal.predictions_allowed.map((p) => el("button", { type: "button",
      className: "card", textContent: String(p), dataset: { prediction: String(p) },
      onclick: () => resolve(p) }));
    body().append(el("div", { className: "choice prediction-choice" }, ...buttons),
      advisorButton(before, (c) => c.set_aside === aside));
  });
}

async function begin() {
  const n = G.game.players;
  try {
    G.doc = await call("/api/game/begin", { players: n, deal: G.deal.deal, set_aside: G.asides,
      predictions: n > 2 ? G.preds : [], start: G.deal.start, revealed: G.deal.revealed });
  } catch (e) {
    status(e.message);
    return;
  }
  G.doc.title = `Game against catbox · round ${G.deal.round + 1} of ${n}`;
  await onBoard(G.doc);
}

// The round's document on the board, played in practice from the player's seat; its address is
// the game's (#game), so a reload comes back to the game.
async function onBoard(doc, ply, phase = "round") {
  const n = G.game.players;
  G.doc = doc;
  doc.address = "#game";
  $("practice").checked = true;
  $("show-all").checked = false;
  $("my-seat").replaceChildren(...letters(n).map((s) => new Option(s, s)));
  $("my-seat").value = G.me;
  document.body.dataset.game = phase;
  status(`${heading()} · predictions: ${n > 2 ? predictionLine() : "none at 2 players"}`);
  body().replaceChildren();
  say("");
  await openDocument(doc, ply);
  keep();
}

// The round on the board has ended: record it, score the game so far.
function watch() {
  const check = () => {
    if (G.game && G.doc && S.doc === G.doc) document.body.dataset.versus = "on";
    else delete document.body.dataset.versus; // the nav marks the game while its round is shown
    if (G.doc && S.doc === G.doc) keep();
    if (!G.doc || G.ended || S.doc !== G.doc || !S.view) return;
    if (S.view.to_play !== null || S.cursor !== S.plies.length - 1) return;
    G.ended = true;
    const rec = { ...G.doc.record, moves: S.moves.map((m) => m.play) };
    G.game.rounds.push(rec);
    roundEnd();
  };
  new MutationObserver(check).observe(document.body, { attributes: true, attributeFilter: ["data-ply"] });
}

router.route("game", async () => {
  if (!G.game && !(await restore())) showSetup();
  else if (document.body.dataset.game === "start" || !S.doc) router.setMode("game");
  else if (S.doc === G.doc) router.setMode("board"); // back to the round on the board
  else await openDocument(G.doc);
  return true;
});
watch();
window.catboxGame = G; // the browser tests' hook
