// The panels around the picture: the hand to play with its colour buttons, the move list and the
// round's score. What is legal, and why not, comes from the server (the library's rules and their
// text); this module only draws it. `act` holds the board's actions: {play(p), show(ply)}.
import { $, el } from "./net.js";
import { COLOURS, S, WORDS, botSeat } from "./state.js";

export function drawHand(v, act) {
  const hand = $("hand");
  hand.replaceChildren();
  $("colours").replaceChildren();
  if (v.to_play === null) {
    $("hand-label").textContent = "Round over";
    $("pick-hint").textContent = "";
    return;
  }
  const bot = botSeat(v);
  $("hand-label").textContent = bot ? `${v.to_play} (catbox) to play` : `${v.to_play} to play`;
  if (v.hand === null) {
    $("pick-hint").textContent = `${v.to_play}'s hand is unknown: click the empty cell it played`;
    return;
  }
  $("pick-hint").textContent = bot ? "catbox is choosing…" : "choose a card, then a colour (or click a cell)";
  const legal = new Set(v.moves.legal);
  const counts = {};
  for (const n of v.hand) counts[n] = (counts[n] || 0) + 1;
  for (const n of Object.keys(counts).map(Number).sort((a, b) => a - b)) {
    const playable = COLOURS.some((c) => legal.has(`${n}${c}`));
    const b = el("button", {
      className: playable ? "card" : "card dead",
      textContent: counts[n] > 1 ? `${n}×${counts[n]}` : String(n),
      title: playable ? `play a ${n}` : `no legal colour for ${n}`,
      disabled: !!bot,
      onclick: () => selectCard(n, act),
      dataset: { card: String(n) },
    });
    hand.appendChild(b);
  }
}

// The colours for card `n`: the legal ones, and the others titled with the rule (id and the
// library's text) that forbids them.
export function selectCard(n, act) {
  const v = S.view;
  S.selected = n;
  for (const b of $("hand").children) b.classList.toggle("chosen", b.dataset.card === String(n));
  const legal = new Set(v.moves.legal);
  const why = {};
  for (const i of v.moves.illegal) why[i.play] = i;
  const colours = $("colours");
  colours.replaceChildren();
  for (const c of COLOURS) {
    const play = `${n}${c}`;
    const no = why[play];
    colours.appendChild(el("button", {
      className: legal.has(play) ? `colour ${c}` : `colour ${c} illegal`,
      textContent: `${c} ${WORDS[c]}`,
      title: legal.has(play) ? `play ${play}` : `illegal: ${no ? `${no.text} (${no.rule})` : "not allowed"}`,
      onclick: () => act.play(play),
      dataset: { play },
    }));
  }
  for (const cell of $("board").querySelectorAll(".cell")) {
    const name = cell.dataset.cell;
    cell.classList.toggle("pick", name.slice(0, -1) === String(n) && legal.has(name));
  }
  $("pick-hint").textContent = `${n}: choose a colour`;
}

export function drawMoves(act) {
  const list = $("moves");
  list.replaceChildren();
  let trick = null;
  S.moves.forEach((m, i) => {
    if (!trick) {
      trick = el("li");
      list.appendChild(trick);
    }
    const b = el("button", { className: "move", onclick: () => act.show(i + 1), dataset: { ply: String(i + 1) } },
      el("small", { textContent: m.by }), ` ${m.play}`);
    if (i + 1 === S.cursor) b.classList.add("current");
    if (i + 1 > S.cursor) b.classList.add("future");
    trick.appendChild(b);
    if (m.ends_trick) {
      if (m.winner) trick.appendChild(el("span", { className: "won", textContent: `→ ${m.winner}` }));
      trick = null;
    }
  });
  if (!S.moves.length) list.appendChild(el("li", { className: "empty", textContent: "No moves yet." }));
}

// The round's score line (a finished round), with the seat names when the document has them.
export function scoreText(score, names) {
  const who = (s) => {
    const i = s.charCodeAt(0) - 65;
    return names && names[i] ? `${s} ${names[i]}` : s;
  };
  const parts = Object.entries(score.seats).map(([s, x]) =>
    `${who(s)}: ${x.tricks} tricks${x.prediction !== null ? ` (predicted ${x.prediction})` : ""}` +
    `${x.score !== null ? `, ${x.score} points` : ""}`);
  const head = score.paradox ? `${who(score.paradox)} caused a paradox. ` : "Round over. ";
  return head + parts.join(" · ");
}

export function drawScore(v) {
  const box = $("score");
  box.hidden = !v.score;
  if (v.score) box.textContent = scoreText(v.score, S.doc && S.doc.names);
}
