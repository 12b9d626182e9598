// The game against catbox (game.js) kept in the tab's session storage after every step, so a
// reload (a phone at the table) goes on where it was: the rounds played, the round start's
// choices, the round on the board with its plays and the ply shown.
import { G } from "./game.js";
import { S } from "./state.js";

const KEY = "catbox-game";

export function keep() {
  try {
    if (!G.game) {
      sessionStorage.removeItem(KEY);
      return;
    }
    const saved = { game: G.game, me: G.me, seed: G.seed, phase: document.body.dataset.game,
      deal: G.deal, asides: G.asides, preds: G.preds, doc: null };
    if (G.doc) {
      const shown = S.doc === G.doc;
      saved.doc = { ...G.doc, plies: shown ? S.plies : G.doc.plies,
        moves: shown ? S.moves : G.doc.moves, cursor: shown ? S.cursor : 0 };
    }
    sessionStorage.setItem(KEY, JSON.stringify(saved));
  } catch (e) {
    // storage full or refused: the game goes on without it
  }
}

// The game kept in this tab, or null.
export function kept() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(KEY) || "null");
    return saved && saved.game ? saved : null;
  } catch (e) {
    return null;
  }
}
