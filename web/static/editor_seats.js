// The editor's seat fields: each seat's hand (or, left empty, an unknown hand of a given size),
// permissions still held, tricks, prediction and set-aside card. The fields are read back into
// the draft table as typed; the position reader on the server judges them.
import { $, el } from "./net.js";

const FIELDS = [
  ["hand", "hand", "e.g. 1 4 4 7 (empty: hidden)"],
  ["hand_size", "size if hidden", ""],
  ["tricks", "tricks", "0"],
  ["prediction", "prediction", "none"],
  ["set_aside", "set aside", "none"],
];
let timer = null;

function input(letter, key, label, hint, value) {
  return el("label", { className: `seat-field f-${key}` }, label, el("input", {
    value: value === undefined || value === null ? "" : Array.isArray(value) ? value.join(" ") : String(value),
    placeholder: hint,
    autocomplete: "off",
    inputMode: "numeric",
    name: `${letter}.${key}`,
    dataset: { seat: letter, key },
  }));
}

function colours(letter, held) {
  const box = el("span", { className: "perms" }, "colours");
  for (const c of "RBYG") {
    box.appendChild(el("label", { className: `perm ${c}` }, el("input", {
      type: "checkbox", checked: held.includes(c), name: `${letter}.colors.${c}`, dataset: { seat: letter, colour: c },
    }), c));
  }
  return box;
}

// Draws one block per seat; `onChange` runs after a pause in typing, or at once on a click.
export function drawSeats(table, letters, onChange) {
  const holder = $("edit-seats");
  holder.replaceChildren();
  for (const s of letters) {
    const seat = (table.seat && table.seat[s]) || {};
    const block = el("fieldset", { className: "seat-block", dataset: { seat: s } }, el("legend", { textContent: `Seat ${s}` }));
    for (const [key, label, hint] of FIELDS) block.appendChild(input(s, key, label, hint, seat[key]));
    block.appendChild(colours(s, seat.colors || "RBYG"));
    holder.appendChild(block);
  }
  holder.oninput = (ev) => {
    clearTimeout(timer);
    timer = setTimeout(onChange, ev.target.type === "checkbox" ? 0 : 250);
  };
}

function value(text, list) {
  const words = text.trim().split(/[\s,]+/).filter(Boolean);
  if (!words.length) return undefined;
  const numbers = words.map(Number);
  if (numbers.some((n) => !Number.isInteger(n))) return text.trim(); // the reader names the key
  return list ? numbers : numbers.length === 1 ? numbers[0] : text.trim();
}

// Reads every seat block back into `table.seat` (left-out keys take the reader's defaults).
export function readSeats(table) {
  for (const block of $("edit-seats").querySelectorAll(".seat-block")) {
    const s = block.dataset.seat;
    const seat = {};
    for (const field of block.querySelectorAll("input[data-key]")) {
      const v = value(field.value, field.dataset.key === "hand");
      if (v !== undefined) seat[field.dataset.key] = v;
    }
    if ("hand" in seat) delete seat.hand_size;
    const held = [...block.querySelectorAll("input[data-colour]")].filter((c) => c.checked);
    if (held.length < 4) seat.colors = held.map((c) => c.dataset.colour).join("");
    table.seat[s] = seat;
  }
}
