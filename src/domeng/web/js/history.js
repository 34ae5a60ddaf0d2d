// What each seat did this round, from the round's events (every seat may know them):
// the last tile each one laid (marked on the line until they lay another), whether
// their last move was a PASS, and the list of their plays and passes (a plate's popover).

import { t } from "./i18n.js";
import { el, tileIcon } from "./svg.js";

/** Five colours that tell the seats apart on the felt (the plate's stripe, the tile's mark). */
export const SEAT_COLOURS = ["#5fb4f5", "#ffb454", "#c58cf0", "#ff7aa8", "#7fe0d4"];

/** Five shapes that tell the seats apart without their colour (circle, square, triangle,
 * diamond, star), drawn in the seat's colour with a dark edge, at cx, cy. */
export function seatShape(seat, cx, cy, r, colour) {
  const k = ((seat % 5) + 5) % 5;
  const attrs = { fill: colour, class: "seat-shape", "data-seat-shape": k, "aria-hidden": "true" };
  if (k === 0) return el("circle", { cx, cy, r, ...attrs });
  if (k === 1) return el("rect", { x: cx - r * 0.9, y: cy - r * 0.9, width: r * 1.8, height: r * 1.8, ...attrs });
  const pts = [];
  const corners = k === 2 ? 3 : k === 3 ? 4 : 10;
  for (let i = 0; i < corners; i++) {
    const a = -Math.PI / 2 + (i * 2 * Math.PI) / corners;
    const rr = k === 4 && i % 2 ? r * 0.5 : k === 2 ? r * 1.2 : r * 1.15;
    pts.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`);
  }
  return el("polygon", { points: pts.join(" "), ...attrs });
}

/**
 * From the round's events: `tiles` (line tile → the seat that laid it, for each seat's
 * last tile), `latest` (the last tile laid of all), `passed` (the seats whose last move
 * was a PASS: their plate shows it until they are in turn again).
 */
export function lastActions(events) {
  const lastTile = new Map();
  const passed = new Set();
  let latest = null;
  for (const e of events || []) {
    if (e.kind === "played") {
      lastTile.set(e.seat, e.tile);
      passed.delete(e.seat);
      latest = e.tile;
    } else if (e.kind === "passed") {
      passed.add(e.seat);
    }
  }
  const tiles = new Map([...lastTile].map(([seat, tile]) => [tile, seat]));
  return { tiles, latest, passed };
}

/** A seat's plays and passes of this round, in order. */
export function seatMoves(events, seat) {
  return (events || []).filter((e) => (e.kind === "played" || e.kind === "passed") && e.seat === seat);
}

function item(text) {
  const li = document.createElement("li");
  li.textContent = text;
  return li;
}

/** The popover of a plate (`data-history`): who, and each move of theirs this round. */
export function historyElement(events, seat, name) {
  const box = document.createElement("div");
  box.className = "history";
  box.dataset.history = String(seat);
  box.setAttribute("role", "note");
  const title = document.createElement("strong");
  title.textContent = t("living.history_title", { who: name });
  box.appendChild(title);
  const moves = seatMoves(events, seat);
  const list = document.createElement("ol");
  for (const e of moves) {
    if (e.kind === "played") {
      const li = item(` ${e.opening ? t("living.history_opened") : t(`end_choice.${e.end}`)}`);
      li.prepend(tileIcon(e.tile, { s: 14 }));
      li.dataset.move = "played";
      list.appendChild(li);
    } else {
      const li = item(e.passebunge ? "PASSEBUNGE" : "PASS");
      li.dataset.move = "passed";
      list.appendChild(li);
    }
  }
  if (!moves.length) list.appendChild(item(t("living.history_none")));
  box.appendChild(list);
  return box;
}
