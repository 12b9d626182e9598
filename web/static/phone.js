// The board on a phone (a page at most 600 px wide): the picture is cut to the grid and the
// trick, so that each cell is a tap target of at least 40 px, and the seat rows the cut leaves
// out (names, hands, permissions, tricks) and the status line are listed under it as text,
// from the same board state the picture is drawn from. Wider pages show the whole picture.
import { $, el } from "./net.js";

const PHONE = window.matchMedia("(max-width: 600px)");

// The box of `node` in the picture's own units.
function box(svg, node, full) {
  const outer = svg.getBoundingClientRect();
  const r = node.getBoundingClientRect();
  const k = full[2] / outer.width;
  return { x0: (r.left - outer.left) * k + full[0], x1: (r.right - outer.left) * k + full[0],
    y1: (r.bottom - outer.top) * k + full[1] };
}

// The picture's view box and its width and height (the element keeps their ratio).
function size(svg, viewBox, width, height) {
  svg.setAttribute("viewBox", viewBox);
  svg.setAttribute("width", String(Math.round(width)));
  svg.setAttribute("height", String(Math.round(height)));
}

// Cuts the picture in `holder` to its grid on a phone, or gives it back whole.
export function fit(holder) {
  const svg = holder.querySelector("svg.catbox-board");
  if (!svg) return;
  if (!svg.dataset.full) svg.dataset.full = svg.getAttribute("viewBox");
  const [, , w, h] = svg.dataset.full.split(" ");
  size(svg, svg.dataset.full, w, h);
  svg.classList.toggle("cut", PHONE.matches);
  if (!PHONE.matches) return;
  const full = svg.dataset.full.split(" ").map(Number);
  const n = svg.dataset.numbers;
  const first = box(svg, svg.querySelector('g.cell[data-cell="1R"]'), full);
  const last = box(svg, svg.querySelector(`g.cell[data-cell="${n}G"]`), full);
  svg.classList.add("measure"); // the empty trick slots take their place while measured
  const slots = [...svg.querySelectorAll("g.play")].map((g) => box(svg, g, full).y1);
  svg.classList.remove("measure");
  const bottom = Math.max(last.y1, ...slots) + 6;
  const width = last.x1 - first.x0 + 4;
  size(svg, `${first.x0 - 2} 0 ${width} ${bottom}`, width, bottom);
}

// The seat rows and status as text under the cut picture (shown by the CSS on a phone only).
export function listSeats(holder, state) {
  const list = $("seat-list");
  const svg = holder.querySelector("svg.catbox-board");
  if (!svg || !state) return;
  const who = [...svg.querySelectorAll("g.seat text.who")].map((t) => t.textContent);
  const rows = state.seats.map((s, i) => {
    const hand = s.hand === null ? `${s.size} hidden` : s.hand.join(" ");
    const perms = "RBYG".split("").map((c) =>
      el("span", { className: `p ${c}${s.colours.includes(c) ? "" : " lost"}`, textContent: c }));
    return el("li", { className: s.mark ? "to-play" : "" },
      el("b", { textContent: `${s.mark || " "} ${who[i] || ""}` }), el("span", { className: "h", textContent: hand }),
      el("span", { className: "perms" }, ...perms), el("span", { className: "i", textContent: s.text }));
  });
  list.replaceChildren(el("li", { className: "st", textContent: state.status }), ...rows);
}

export function watch(redraw) {
  PHONE.addEventListener("change", redraw);
}
