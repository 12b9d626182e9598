// The end of a round of the game against catbox (game.js): the game's scores so far (the
// server's `catbox score GAME --json` shape), catbox's round-start choices with its reasons,
// the next round or the winner, the game record's download and the review of its rounds.
import { $, call, download, el } from "./net.js";
import { adviceTable, runJob } from "./practicejobs.js";
import { G, nextRound, showSetup, status } from "./game.js";
import { keep } from "./gamekeep.js";

const letters = (n) => Array.from({ length: n }, (_, i) => String.fromCharCode(65 + i));
const idx = (s) => s.charCodeAt(0) - 65;

function scoreTable(doc) {
  const seats = letters(G.game.players);
  const head = el("tr", {}, el("th", { textContent: "round" }),
    ...seats.map((s) => el("th", { textContent: s === G.me ? `${s} (you)` : `${s} (catbox)` })));
  const rows = doc.rounds.map((r, i) => el("tr", {}, el("td", { textContent: String(i + 1) }),
    ...seats.map((s) => {
      const x = r.seats[s];
      const why = r.paradox === s ? " paradox" : x.prediction !== null ? ` (${x.tricks}/${x.prediction})` : "";
      return el("td", { textContent: `${x.score}${why}`, title: `${x.tricks} tricks` });
    })));
  const totals = el("tr", { className: "totals" }, el("td", { textContent: "total" }),
    ...seats.map((s) => el("td", { textContent: String(doc.game.totals[s]) })));
  return el("table", { id: "versus-totals", className: "analysis" }, el("thead", {}, head),
    el("tbody", {}, ...rows, totals));
}

// Why catbox's seats set aside and predicted what they did this round (now that it is over:
// the reasons show their hands): the rankings its player chose by.
function whyStart(s, deal, asides, preds, out) {
  const n = G.game.players;
  const k = (idx(s) - idx(deal.start) + n) % n;
  const before = [];
  for (let j = 0; j < k; j += 1) before.push(preds[(idx(deal.start) + j) % n]);
  const req = { kind: "start-reasons", players: n, hand: deal.deal[idx(s)], order: k,
    set_aside: asides[idx(s)], seed: (G.seed + 7919 * deal.round + 101 * idx(s)) % 2147483647 };
  if (n > 2) req.before = before;
  return async (ev) => {
    ev.target.disabled = true;
    try {
      const res = await runJob(req);
      out.append(el("h3", { textContent: `${s}'s set-aside card (S2), predictions before it assumed` }),
        adviceTable({ ...res.aside, assumed: n > 2 },
          (c) => c === res.aside.candidates.find((r) => r.set_aside === res.aside.chosen), 6));
      if (res.prediction) {
        out.append(el("h3", { textContent: `${s}'s prediction (S3), knowing the ones before it` }),
          adviceTable(res.prediction, (c) => c.prediction === preds[idx(s)], 6));
      }
    } catch (e) {
      out.append(el("p", { className: "message", textContent: e.message }));
    }
  };
}

function startReasons(deal, asides, preds) {
  const out = el("div", { className: "start-reasons" });
  const n = G.game.players;
  const buttons = letters(n).filter((s) => s !== G.me).map((s) => el("button", { type: "button",
    className: "why-start", onclick: whyStart(s, deal, asides, preds, out),
    textContent: `Why ${s}: set aside ${asides[idx(s)]}${n > 2 ? `, predict ${preds[idx(s)]}` : ""}?` }));
  out.prepend(el("div", { className: "row" }, ...buttons));
  return out;
}

async function openReview(box) {
  box.replaceChildren(el("p", { className: "note", textContent: "Reviewing your plays round by round…" }));
  try {
    const res = await runJob({ kind: "game-review", rounds: G.game.rounds, seat: G.me });
    box.replaceChildren(el("span", { textContent: "Review: " }), ...res.pages.map((page, i) => {
      const url = URL.createObjectURL(new Blob([page], { type: "text/html" }));
      return el("a", { href: url, target: "_blank", className: "versus-review-link", textContent: `round ${i + 1}` });
    }));
  } catch (e) {
    box.replaceChildren(el("p", { className: "message", textContent: e.message }));
  }
}

export async function roundEnd() {
  const deal = G.deal;
  const asides = G.asides.slice();
  const preds = G.preds.slice();
  let doc;
  try {
    doc = await call("/api/game/score", { game: G.game });
  } catch (e) {
    status(e.message);
    return;
  }
  G.score = doc;
  const over = G.game.rounds.length >= G.game.players;
  const winners = doc.game.winners;
  const who = winners.map((s) => (s === G.me ? `${s} (you)` : `${s} (catbox)`)).join(" and ");
  status(over ? `Game over: ${winners.length > 1 ? "shared win" : "winner"} ${who}.`
    : `Round ${G.game.rounds.length} of ${G.game.players} over.`);
  document.body.dataset.game = over ? "over" : "between";
  keep();
  const review = el("div", { id: "versus-review", className: "row" });
  const actions = el("div", { className: "row game-actions" });
  if (!over) actions.append(el("button", { id: "versus-next", type: "button", textContent: "Next round",
    onclick: () => nextRound() }));
  else actions.append(el("button", { id: "versus-again", type: "button", textContent: "New game",
    onclick: () => { G.game = null; showSetup(); } }));
  actions.append(
    el("button", { id: "versus-download", type: "button", textContent: "Download the game record",
      onclick: async () => {
        const out = await call("/api/game/export", { game: G.game, syntax: "toml" });
        download(out.text, out.filename);
      } }),
    el("button", { id: "versus-review-open", type: "button", textContent: "Review my plays",
      onclick: () => openReview(review) }));
  $("versus-body").replaceChildren(scoreTable(doc), actions, review, startReasons(deal, asides, preds));
}
