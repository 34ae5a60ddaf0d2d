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

/** An element that fills with the chart of table `tableId`'s STONES by round. The
 * charts' module is asked for with the STONES, not with the table's page: it is one
 * import fewer in the chain a table's first drawing waits for on a phone's network. */
export function stonesChart(tableId, names) {
  const box = h("div", { class: "stones-chart", "data-stones-chart": "" });
  Promise.all([stonesOf(tableId), import("./charts.js")])
    .then(([doc, { lineChart }]) => {
      if (!doc.stones.length) return;
      const title = t("players.stones_over_rounds");
      box.appendChild(h("h3", { html: termify(title) }));
      const series = names.map((name, seat) => ({ name, points: doc.stones.map((r) => r[seat]) }));
      box.appendChild(lineChart({ title, xLabel: t("players.chart_round"), series, legend: true, integer: true }));
    })
    .catch(() => box.remove()); // the standings stand without it
  return box;
}
