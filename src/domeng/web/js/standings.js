// The standings of a game (the table's `standings`): who wins, every player's rank and
// figures over the game. Final once the game is over (`status: "finished"`).

import { setTermText, t, termify } from "./i18n.js";
import { stonesChart } from "./gamechart.js";
import { hintsNote } from "./coach.js";
import { h } from "./summary.js";

const COLUMNS = [
  ["titles", "summary.titles"],
  ["stones", "summary.stones"],
  ["received", "standings.received"],
  ["rounds_won", "standings.rounds_won"],
  ["ceki", "CEKI"],
  ["pollo", "POLLO"],
  ["manguno", "MANGUNO"],
  ["mattikkeng", "MATTIKKENG"],
];

/** How many rounds of the table are over (each has its winner): a replay shows only those. */
export function roundsFinished(table) {
  return (table.standings || []).reduce((n, row) => n + row.rounds_won, 0);
}

function heading(key) {
  return key.includes(".") ? t(key) : key; // the game's own words stay as they are
}

/**
 * The standings as an element (`data-standings`). `table`: the table as the service
 * sends it; `names`: the seats' names; `actions`: an element with buttons, or null.
 */
export function standingsElement(table, names, actions = null) {
  const final = table.status === "finished";
  const box = h("section", { class: "standings-card", "data-standings": "", "aria-labelledby": "standings-title" });
  box.appendChild(h("h2", { id: "standings-title", text: t(final ? "standings.title" : "standings.so_far") }));
  const rows = table.standings || [];
  const first = rows.filter((r) => r.rank === 1).map((r) => names[r.seat]);
  if (final && first.length) {
    const key = first.length > 1 ? "standings.winners" : "standings.winner";
    box.appendChild(h("p", { class: "winner", "data-winner": "", text: t(key, { who: first.join(", ") }) }));
  }
  if (final && table.ended) {
    const end = table.end || {};
    let why = t(`standings.ended.${table.ended}`);
    if (table.ended === "end" && end.titles) why = t("standings.ended.titles", { n: end.titles });
    else if (table.ended === "end" && end.rounds) why = t("standings.ended.rounds", { n: end.rounds });
    box.appendChild(setTermText(h("p", { class: "muted", "data-ended": table.ended }), why));
  }
  const grid = h("table", { class: "final-standings" });
  const head = h("tr");
  head.appendChild(h("th", { text: t("standings.rank") }));
  head.appendChild(h("th", { text: t("summary.player") }));
  for (const [, key] of COLUMNS) head.appendChild(h("th", { class: "num", html: termify(heading(key)) }));
  grid.appendChild(h("thead", {}, [head]));
  const body = h("tbody");
  for (const r of rows) {
    const tr = h("tr", { class: r.rank === 1 ? "won" : "", "data-standing-seat": r.seat });
    tr.appendChild(h("td", { class: "rank", "data-label": t("standings.rank"), text: String(r.rank) }));
    const who = h("td", { class: "who", text: names[r.seat] });
    const hints = hintsNote((table.seats || [])[r.seat]); // "3 hints": the coach's, asked for
    if (hints) who.appendChild(h("small", { class: "muted hints-note", "data-hints": "", text: ` · ${hints}` }));
    tr.appendChild(who);
    for (const [field, key] of COLUMNS) {
      tr.appendChild(h("td", { class: "num", "data-label": heading(key), text: String(r[field]) }));
    }
    body.appendChild(tr);
  }
  grid.appendChild(body);
  box.appendChild(h("div", { class: "standings-scroll" }, [grid]));
  if (final && table.id) {
    const stones = names.map((_, seat) => (rows.find((r) => r.seat === seat) || {}).stones ?? 0);
    box.appendChild(stonesChart(table.id, names, rows.length ? stones : null)); // gamechart.js
  }
  if (actions) box.appendChild(actions);
  return box;
}
