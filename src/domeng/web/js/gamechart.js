// At the end of a game: each player's STONES after each of its rounds, as a chart in the
// final standings (asked of the service: GET /api/tables/{id}/stones).

import { api } from "./api.js";
import { t, termify } from "./i18n.js";
import { h } from "./summary.js";

// a finished game's STONES do not change: asked once per table, however often the
// standings are drawn again (a later ask could also find the table removed)
const asked = new Map();

function stonesOf(tableId) {
  if (!asked.has(tableId)) asked.set(tableId, api("GET", `/api/tables/${encodeURIComponent(tableId)}/stones`));
  return asked.get(tableId);
}

/**
 * Each round's STONES per seat (`byRound`, as the service keeps them after each finished
 * round), and the game's last ones when it ended in a round not finished (the host ended
 * it mid-round): `final`, each seat's STONES in the final standings. Without that last
 * point the chart stopped a round early and disagreed with the standings above it.
 */
export function stonesByRound(byRound, final) {
  const last = byRound[byRound.length - 1];
  if (final && final.length && (!last || final.some((n, seat) => n !== last[seat]))) return [...byRound, final];
  return byRound;
}

/** An element that fills with the chart of table `tableId`'s STONES by round; `final`:
 * each seat's STONES in the final standings. The charts' module is asked for with the
 * STONES, not with the table's page: it is one import fewer in the chain a table's first
 * drawing waits for on a phone's network. */
export function stonesChart(tableId, names, final = null) {
  const box = h("div", { class: "stones-chart", "data-stones-chart": "" });
  Promise.all([stonesOf(tableId), import("./charts.js")])
    .then(([doc, { lineChart }]) => {
      const rounds = stonesByRound(doc.stones, final);
      // nothing to draw before a round has finished (a game closed in its first round
      // drew one point, the players level at 0 but for a PASS or two: the standings
      // above say as much) or a stone has moved (five players level at 0)
      if (!doc.stones.length || rounds.every((r) => r.every((n) => n === 0))) return;
      const title = t("players.stones_over_rounds");
      box.appendChild(h("h3", { html: termify(title) }));
      const series = names.map((name, seat) => ({ name, points: rounds.map((r) => r[seat]) }));
      box.appendChild(lineChart({ title, xLabel: t("players.chart_round"), series, legend: true, integer: true }));
    })
    .catch(() => box.remove()); // the standings stand without it
  return box;
}
