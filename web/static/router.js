// The address: a small hash router. Each view registers the key its address starts with
// (#enter, #edit, #pos=…, #ply=…) and a function that opens it; the page then shows the view of
// the first key of the address. A view writes its own address with setAddress (replaceState:
// the address names what is shown, so it can be bookmarked, shared or reloaded).
import { S } from "./state.js";

const routes = new Map(); // key -> open(params): Promise<boolean>
let fallback = null;

// `open(params)` shows the view and returns false when the address names nothing it can show.
export function route(key, open) {
  routes.set(key, open);
}

export function otherwise(open) {
  fallback = open;
}

export function params() {
  return new URLSearchParams(location.hash.slice(1));
}

// Shows the view the address names (the first key a view registered), else the fallback.
export async function dispatch() {
  const p = params();
  for (const key of p.keys()) {
    const open = routes.get(key);
    if (open && (await open(p))) return true;
    if (open) break;
  }
  return fallback ? fallback(p) : false;
}

export function setAddress(hash) {
  if (hash !== location.hash) history.replaceState(null, "", hash || location.pathname);
  S.hash = location.hash;
}

// Marks the page's mode (board, enter, edit): the CSS shows each mode's panels.
export function setMode(mode) {
  document.body.dataset.mode = mode;
}

export function start() {
  window.addEventListener("hashchange", () => {
    if (location.hash !== S.hash) dispatch(); // typed or pasted into the address bar
  });
}
