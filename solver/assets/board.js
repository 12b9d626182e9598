/* catbox board: draws a position's state (solver/svg.py board_state) onto the SVG skeleton that
 * solver/svg.py board() makes. The one drawing code of the browser: the HTML review and the
 * served board both call CatboxBoard.draw. It changes only classes, data- attributes and texts,
 * exactly as board() would have written them, so a redrawn board reads like a fresh picture.
 * No dependencies, no network. */
"use strict";
const CatboxBoard = (() => {
  const COLOURS = ["R", "B", "Y", "G"];

  function cellName(index, numbers) {
    return String((index % numbers) + 1) + COLOURS[Math.floor(index / numbers)];
  }

  function setClass(el, name, on) {
    if (on) el.classList.add(name); else el.classList.remove(name);
  }

  function setText(el, text) {
    if (el && el.textContent !== text) el.textContent = text;
  }

  /* svg: the board picture (the svg element of class catbox-board); state: board_state(pos) as JSON;
   * opts: {last: "5B"|null, candidates: ["6B", ...], line: ["6B", ...], marks: {"5R": "3"}} */
  function draw(svg, state, opts) {
    opts = opts || {};
    let numbers = Number(svg.getAttribute("data-numbers"));
    let trickCells = {};
    state.trick.forEach((t) => { trickCells[t[1]] = true; });
    let cand = {};
    (opts.candidates || []).forEach((p) => { cand[p] = true; });
    let steps = {};
    (opts.line || []).forEach((p, k) => { (steps[p] = steps[p] || []).push(k + 1); });
    let marks = opts.marks || {};
    let cells = svg.querySelectorAll("g.cell");
    for (let i = 0; i < cells.length; i++) {
      let g = cells[i];
      let name = g.getAttribute("data-cell");
      let number = parseInt(name, 10);
      let row = COLOURS.indexOf(name.charAt(name.length - 1));
      let owner = state.cells.charAt(row * numbers + number - 1);
      if (owner === ".") g.removeAttribute("data-owner");
      else g.setAttribute("data-owner", owner);
      setText(g.querySelector(".tok text"), owner === "." ? "" : owner);
      setClass(g, "trick", !!trickCells[name]);
      setClass(g, "last", opts.last === name);
      setClass(g, "cand", !!cand[name]);
      setText(g.querySelector("text.step"), (steps[name] || []).join(","));
      setText(g.querySelector("text.mark"), marks[name] || "");
    }
    setText(svg.querySelector("text.status"), state.status);
    let slots = svg.querySelectorAll("g.play");
    for (let k = 0; k < slots.length; k++) {
      let slot = slots[k];
      let t = state.trick[k];
      slot.setAttribute("class", t ? "play " + t[1].charAt(t[1].length - 1) : "play none");
      setText(slot.querySelector("text.by"), t ? t[0] : "");
      setText(slot.querySelector("text.num"), t ? t[1] : "");
    }
    let seats = svg.querySelectorAll("g.seat");
    for (let s = 0; s < seats.length; s++) {
      let seat = state.seats[s];
      let sg = seats[s];
      setText(sg.querySelector("text.turn"), seat.mark);
      setText(sg.querySelector("text.info"), seat.text);
      let cards = sg.querySelectorAll("g.card");
      for (let c = 0; c < cards.length; c++) {
        let cls = "card", text = "";
        if (c >= seat.size) cls = "card none";
        else if (seat.hand === null) { cls = "card hidden"; text = "?"; }
        else text = String(seat.hand[c]);
        cards[c].setAttribute("class", cls);
        setText(cards[c].querySelector("text"), text);
      }
      let perms = sg.querySelectorAll("g.perm");
      for (let p = 0; p < perms.length; p++) {
        let colour = perms[p].getAttribute("data-colour");
        let held = seat.colours.indexOf(colour) >= 0;
        perms[p].setAttribute("class", "perm " + colour + (held ? " held" : " lost"));
      }
    }
    let title = svg.querySelector("title");
    if (title) setText(title, title.textContent.replace(/ — .*$/, " — " + state.status));
  }

  return { draw, cellName };
})();
