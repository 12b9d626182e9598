// The end of an entered round: the scores, the record's download, the review of your round
// (a job in the server's workers: your plays judged from your own view, the review page opened
// from memory) and the game: the rounds entered so far (catbox-game/1, checked by the server:
// the start passes left, Sc4), their totals and winners, the next round and the game's download.
import { $, call, download, el, explain } from "./net.js";

let review = null; // the review job running: {id, cancelled}
// the game: the finished rounds before the one being entered (round records as JSON)
export const G = { rounds: [], last: null };

export function resetEnd() {
  $("enter-end").hidden = true;
  stopReview();
}

// `onNext(start)` opens the form for the game's next round.
export function endRound(st, text, onNext) {
  $("enter-end").hidden = false;
  $("enter-score").textContent = text;
  $("review-note").textContent = "";
  $("review-link").hidden = true;
  $("open-review").onclick = () => startReview(st);
  showGame(st, onNext);
}

// The game with this round: totals, winners and what comes next.
async function showGame(st, onNext) {
  const box = $("game-panel");
  box.replaceChildren();
  G.last = null;
  try {
    G.last = await call("/api/enter/game", { rounds: [...G.rounds, st.record] });
  } catch (e) {
    box.append(el("p", { className: "message", textContent: `The game: ${explain(e)}` }));
    return;
  }
  const g = G.last;
  const who = (s) => (st.names.length ? `${s} ${st.names[s.charCodeAt(0) - 65]}` : s);
  const totals = Object.entries(g.score.game.totals).map(([s, t]) => `${who(s)} ${t}`).join(" · ");
  const head = g.score.game.complete
    ? `Game over after ${g.round} rounds. Winner${g.score.game.winners.length > 1 ? "s" : ""}: ${g.score.game.winners.map(who).join(", ")}.`
    : `Game: round ${g.round} of ${st.record.players} entered.`;
  const row = el("div", { className: "row" },
    el("button", { id: "download-game", textContent: "Download the game", onclick: downloadGame }));
  if (g.next_start) {
    row.prepend(el("button", { id: "next-round", className: "primary",
      textContent: `Next round (${g.next_start} starts)`, onclick: () => nextRound(st, g, onNext) }));
  }
  box.append(el("p", { id: "game-totals", className: "score", textContent: `${head} Totals: ${totals}` }), row);
}

function downloadGame() {
  call("/api/export", { what: "game", game: G.last.game })
    .then((out) => download(out.text, out.filename))
    .catch((e) => { $("review-note").textContent = explain(e); });
}

// The form again for the game's next round: the same players, seat and names, the start seat
// passed left (fixed), the new hand, set-aside card and predictions to fill in.
function nextRound(st, g, onNext) {
  G.rounds.push(st.record);
  const form = $("enter-round");
  form.elements.hand.value = "";
  form.elements.aside.value = "";
  form.elements.predictions.value = "";
  onNext(g.next_start);
}

function stopReview() {
  if (review && !review.done) call(`/api/jobs/${review.id}`, null, "DELETE", true).catch(() => {});
  review = null;
}

async function startReview(st) {
  stopReview();
  $("review-link").hidden = true;
  const body = { kind: "review", record: st.record, seat: st.seat, time_limit: 60 };
  try {
    const snap = await call("/api/jobs", body);
    review = { id: snap.id, done: false };
    pollReview(review);
  } catch (e) {
    $("review-note").textContent = explain(e);
  }
}

async function pollReview(job) {
  if (review !== job) return;
  let snap;
  try {
    snap = await call(`/api/jobs/${job.id}?since=0`);
  } catch (e) {
    $("review-note").textContent = explain(e);
    return;
  }
  const p = snap.progress;
  if (snap.state === "queued" || snap.state === "running") {
    $("review-note").textContent = p && p.total ? `reviewing your play ${p.done} of ${p.total}…` : "reviewing…";
    setTimeout(() => pollReview(job), 300);
    return;
  }
  job.done = true;
  if (snap.state !== "done") {
    $("review-note").textContent = snap.error ? snap.error.message : snap.state;
    return;
  }
  const url = URL.createObjectURL(new Blob([snap.result.html], { type: "text/html" }));
  const link = $("review-link");
  link.href = url;
  link.hidden = false;
  $("review-note").replaceChildren(el("span", { textContent: snap.result.summary }));
}
