// The tile tracker: what a player keeps in mind, from what their seat's view shows.
// For each number 0–6, how many of the seven tiles that show it are on the line, in
// this seat's hand, and still unseen (in another hand, or among the unused tiles).

import { t } from "./i18n.js";

const NUMBERS = [0, 1, 2, 3, 4, 5, 6];

function shows(tile, n) {
  const [a, b] = typeof tile === "string" ? tile.split("-").map(Number) : tile;
  return a === n || b === n;
}

/** The counts per number: [{n, line, hand, unseen}] (`hand` null without a hand). */
export function trackCounts(view) {
  const line = view.line || [];
  const hand = view.hand || null;
  return NUMBERS.map((n) => {
    const onLine = line.filter((tl) => shows(tl, n)).length;
    const inHand = hand ? hand.filter((tl) => shows(tl, n)).length : null;
    return { n, line: onLine, hand: inHand, unseen: 7 - onLine - (inHand || 0) };
  });
}

function cell(tag, text, attrs = {}) {
  const e = document.createElement(tag);
  e.textContent = text;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

/** The tracker as a small table (`data-tracker`), one column per number. */
export function trackerElement(view) {
  const counts = trackCounts(view);
  const box = document.createElement("details");
  box.className = "tracker";
  box.dataset.tracker = "";
  box.open = true;
  box.appendChild(cell("summary", t("living.tracker")));
  const table = document.createElement("table");
  const head = document.createElement("tr");
  head.appendChild(cell("th", t("living.number"), { scope: "col" }));
  for (const c of counts) head.appendChild(cell("th", String(c.n), { scope: "col", class: "num-head" }));
  table.appendChild(head);
  const rows = [["line", "living.on_line"]];
  if (view.hand) rows.push(["hand", "living.in_hand"]);
  rows.push(["unseen", "living.unseen"]);
  for (const [field, key] of rows) {
    const tr = document.createElement("tr");
    tr.dataset.trackerRow = field;
    tr.appendChild(cell("th", t(key), { scope: "row" }));
    for (const c of counts) {
      const td = cell("td", String(c[field]), { "data-tracker-number": String(c.n) });
      if (field === "unseen" && c.unseen === 0) td.classList.add("gone");
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  box.appendChild(table);
  box.appendChild(cell("p", t("living.tracker_help"), { class: "muted tracker-help" }));
  return box;
}
