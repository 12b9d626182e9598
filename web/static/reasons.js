// catbox's reasons on the board (practice): for any play catbox made in the other seats, on
// request, the candidates its player ranked with the estimates it ranked them by (the same
// computation as the play: web/practice.py play_reasons, same seed and level). They show that
// seat's cards: ask after the round, or accept seeing them.
import { $, el } from "./net.js";
import { reasonsTable, runJob } from "./practicejobs.js";
import { S } from "./state.js";

function panel() {
  const pick = el("select", { id: "why-move", "aria-label": "a play of catbox" });
  const ask = el("button", { id: "why-play", type: "button", textContent: "Why this play?" });
  const out = el("div", { id: "why-out" });
  const p = el("section", { id: "reasons-panel", className: "panel", hidden: true },
    el("h2", { textContent: "catbox's reasons" }),
    el("div", { className: "row" }, pick, ask), out,
    el("p", { className: "note", textContent: "The ranked candidates show that seat's hand." }));
  ask.onclick = () => explain(Number(pick.value), out);
  $("practice").closest("section").after(p); // below the practice settings: they never move
}

// The plays made by catbox: in practice, every seat but yours.
function catboxPlies() {
  if (!$("practice").checked) return [];
  const me = $("my-seat").value;
  const out = [];
  S.moves.forEach((m, i) => {
    if (m.by !== me && i < S.cursor) out.push(i + 1);
  });
  return out;
}

// Shown whenever catbox plays the other seats, before its first play too: the panel takes its
// place when practice is ticked (the user's own tap), never under a finger later.
function refresh() {
  const plies = catboxPlies();
  $("reasons-panel").hidden = !$("practice").checked;
  $("why-play").disabled = !plies.length;
  const pick = $("why-move");
  const keep = pick.value;
  pick.replaceChildren(...plies.reverse().map((k) =>
    new Option(`move ${k}: ${S.moves[k - 1].by} ${S.moves[k - 1].play}`, String(k))));
  if (!plies.length) pick.append(new Option("no play by catbox yet", ""));
  if ([...pick.options].some((o) => o.value === keep)) pick.value = keep;
}

async function explain(ply, out) {
  if (!ply) return;
  out.replaceChildren(el("p", { className: "note", textContent: "catbox is working out its reasons…" }));
  // the board's practice asks for the play at ply k with seed k (analysis.js) and the
  // server's level: the reasons job takes the same
  try {
    const res = await runJob({ kind: "reasons", position: S.plies[ply - 1], seed: ply - 1 });
    out.replaceChildren(reasonsTable(res));
    if (res.play !== S.moves[ply - 1].play) {
      out.append(el("p", { className: "message", textContent: `(the play made was ${S.moves[ply - 1].play}: ` +
        "it was made at another level or by hand)" }));
    }
  } catch (e) {
    out.replaceChildren(el("p", { className: "message", textContent: e.message }));
  }
}

// The panel, kept up to date as the board shows each ply.
export function setupReasons() {
  panel();
  new MutationObserver(refresh).observe(document.body, { attributes: true, attributeFilter: ["data-ply"] });
  for (const id of ["practice", "my-seat"]) $(id).addEventListener("change", refresh);
  refresh();
}
