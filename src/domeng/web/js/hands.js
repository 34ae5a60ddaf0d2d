// Every hand face up under the board (a replay on a phone): on a narrow screen the
// plates are too small for readable tiles, so each seat's tiles get a row of their own.

import { tileIcon } from "./svg.js";

function h(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The hands (`data-replay-hands`): per seat its name and its tiles, lying, 26 px high. */
export function handsElement(names, hands) {
  const box = h("ul", "replay-hands");
  box.dataset.replayHands = "";
  hands.forEach((tiles, seat) => {
    const row = h("li", "replay-hand");
    row.dataset.seat = String(seat);
    row.appendChild(h("span", "replay-hand-name", names[seat]));
    const shown = h("span", "replay-hand-tiles");
    if (!tiles.length) shown.appendChild(h("span", "muted", "—"));
    for (const tn of tiles) shown.appendChild(tileIcon(tn, { s: 24 }));
    row.appendChild(shown);
    box.appendChild(row);
  });
  return box;
}
