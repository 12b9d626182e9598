// The end of an entered round: the scores, the record's download, the review of your round
// (a job in the server's workers: your plays judged from your own view, the review page opened
// from memory) and the next round.
import { $, call, el, explain } from "./net.js";

let review = null; // the review job running: {id, cancelled}

export function resetEnd() {
  $("enter-end").hidden = true;
  stopReview();
}

export function endRound(st, text) {
  $("enter-end").hidden = false;
  $("enter-score").textContent = text;
  $("review-note").textContent = "";
  $("review-link").hidden = true;
  $("open-review").onclick = () => startReview(st);
}

function stopReview() {
  if (review && !review.done) call(`/api/jobs/${review.id}`, null, "DELETE", true).catch(() => {});
  review = null;
}

async function startReview(st) {
  stopReview();
  $("review-link").hidden = true;
  const body = { kind: "review", record: st.record, seat: st.seat, time_limit: 60 };
  if (st.declared) body.paradox = st.declared;
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
