// The leaderboard (#/leaderboard): players with enough games, by rating, with their
// titles and figures; downloadable as CSV.

import { api } from "./api.js";
import { numberText, setTermText, t, termify } from "./i18n.js";
import { FIGURES, figureLabel as label, markDot, ratingText } from "./profiles.js";
import { h } from "./summary.js";
import { showApiError } from "./ui.js";
import { ladderLabel } from "./lobby.js";

// a player's figures, but for the rounds and the PASSEBUNGE (the page has them)
const COLUMNS = FIGURES.filter(([field]) => field !== "rounds" && field !== "passebunge_per_round");

export function leaderboardPage(root) {
  let doc = null;
  let gone = false;

  function render() {
    root.replaceChildren();
    const card = h("section", { class: "card leaderboard", "data-leaderboard": "" });
    root.appendChild(h("div", { class: "leaderboard-page" }, [card]));
    card.appendChild(h("h1", { text: t("players.leaderboard") }));
    if (!doc) return;
    card.appendChild(h("p", { class: "muted", html: termify(t("players.leaderboard_help", { n: doc.min_games })) }));
    card.appendChild(setTermText(h("p", { class: "muted", "data-levels-note": "" }), t("players.leaderboard_levels")));
    card.appendChild(h("p", {}, [h("a", { class: "button small", href: "/api/leaderboard?format=csv", download: "domeng-leaderboard.csv", "data-csv": "", text: t("players.download_csv") })]));
    if (!doc.players.length) {
      card.appendChild(h("p", { text: t("players.empty", { n: doc.min_games }) }));
      return;
    }
    const table = h("table", { class: "final-standings leaderboard-table" });
    const hr = h("tr");
    hr.append(h("th", { text: "#" }), h("th", { text: t("summary.player") }), h("th", { class: "num", text: t("players.rating") }));
    for (const [, key] of COLUMNS) hr.appendChild(h("th", { class: "num", html: termify(label(key)) }));
    table.appendChild(h("thead", {}, [hr]));
    const body = h("tbody");
    for (const p of doc.players) {
      const tr = h("tr", { "data-board-player": p.id });
      const who = h("td", { class: "who" });
      // a computer level by the ladder's name in the reader's language beside its own
      // ("basic": "Amatör (basic)")
      const name = p.kind === "computer" ? ladderLabel(p.name) : p.name;
      who.append(markDot(p.mark), " ", h("a", { href: `#/player/${encodeURIComponent(p.id)}`, text: name }));
      if (p.kind === "computer") who.append(" ", h("small", { class: "muted", text: `· ${t("players.computer")}` }));
      tr.append(h("td", { class: "rank", "data-label": "#", text: String(p.place) }), who, h("td", { class: "num", "data-label": t("players.rating"), text: ratingText(p) }));
      for (const [field, key] of COLUMNS) tr.appendChild(h("td", { class: "num", "data-label": label(key), text: numberText(p.figures[field]) }));
      body.appendChild(tr);
    }
    table.appendChild(body);
    card.appendChild(h("div", { class: "standings-scroll" }, [table]));
  }

  api("GET", "/api/leaderboard")
    .then((d) => {
      if (gone) return;
      doc = d;
      render();
    })
    .catch((e) => !gone && showApiError(e));
  render();
  return {
    render,
    unmount() {
      gone = true;
    },
  };
}
