// The page's door to the server and its few DOM helpers. Every request goes to this server only;
// a refused request becomes an Error with the server's message and its detail ({kind, message,
// rule, where, rule_text}).

export const $ = (id) => document.getElementById(id);

export async function call(path, body, method, keepalive) {
  const init = { method: method || (body ? "POST" : "GET"), headers: {}, keepalive: !!keepalive };
  if (body) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  let doc = null;
  try {
    doc = await res.json();
  } catch (e) {
    doc = { error: { message: `the server answered ${res.status} without JSON` } };
  }
  if (!res.ok) {
    const err = new Error((doc && doc.error && doc.error.message) || `HTTP ${res.status}`);
    err.status = res.status;
    err.detail = doc && doc.error;
    throw err;
  }
  return doc;
}

// A refused request's message with the library's rule text when the server sent one.
export function explain(e) {
  const d = e.detail;
  return d && d.rule_text ? `${e.message} — ${d.rule}: ${d.rule_text}` : e.message;
}

export function say(text, el) {
  const box = el || $("message");
  box.textContent = text || "";
  box.hidden = !text;
}

// Offers `text` as a file download named `filename`.
export function download(text, filename) {
  const blob = new Blob([text], { type: "text/plain" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

// A new element: el("button", {className: "card", onclick}, "5").
export function el(tag, props, ...children) {
  const node = document.createElement(tag);
  const { dataset, ...rest } = props || {};
  Object.assign(node, rest);
  for (const [k, v] of Object.entries(dataset || {})) node.dataset[k] = v;
  node.append(...children);
  return node;
}
