// A player's page (#/player/<id>): their figures, rating and stones over their games as
// charts, the recent games each with its replay, and head to head against each opponent.

import { api } from "./api.js";
import { lineChart } from "./charts.js";
import { numberText, t, termify } from "./i18n.js";
import { ladderLabel } from "./lobby.js";
import { FIGURES, MARKS, figureLabel as label, markDot, ratingText } from "./profiles.js";
import { h } from "./summary.js";
import { showApiError } from "./ui.js";

function when(at) {
  return at ? new Date(at * 1000).toLocaleString(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" }) : "";
}

async function openRecord(url, name) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(String(r.status));
  sessionStorage.setItem("domeng.record", await r.text());
  sessionStorage.setItem("domeng.record.name", name);
  location.hash = "#/replay-file";
}

export function playerPage(root, id) {
  let doc = null;
  let gone = false;

  function render() {
    root.replaceChildren();
    const page = h("div", { class: "player-page", "data-player-page": id });
    root.appendChild(page);
    if (!doc) return;
    const p = doc.profile;
    const head = h("section", { class: "card player-head" });
    const title = h("h1", {});
    // a computer level by the ladder's name beside its own ("Master (expert:strong)")
    title.append(markDot(p.mark), ` ${p.kind === "computer" ? ladderLabel(p.name) : p.name}`);
    head.appendChild(title);
    const kind = p.kind === "computer" ? t("players.computer") : t("players.person");
    head.appendChild(h("p", { class: "rating-line", "data-rating": p.rating, html: `${kind} · ${t("players.rating")} <strong>${ratingText(p)}</strong>` }));
    const grid = h("dl", { class: "figures" });
    for (const [field, key] of FIGURES) {
      grid.appendChild(h("div", { "data-figure": field }, [h("dt", { html: termify(label(key)) }), h("dd", { text: numberText(doc.figures[field]) })]));
    }
    head.appendChild(grid);
    // four computer seats of a 3-round game are 12 of its rounds: say so beside them
    if (p.kind === "computer") head.appendChild(h("p", { class: "muted small", "data-level-seats": "", text: t("players.level_seats") }));
    page.appendChild(head);
    if (!doc.recent.length) {
      page.appendChild(h("section", { class: "card" }, [h("p", { class: "muted", text: t("players.no_games") })]));
      return;
    }
    const colour = MARKS[p.mark] || MARKS.blue;
    const charts = h("section", { class: "card charts" });
    const s = doc.series;
    charts.appendChild(h("h2", { text: t("players.chart_rating") }));
    charts.appendChild(
      lineChart({
        title: t("players.chart_rating"),
        xLabel: t("players.chart_games"),
        xs: s.games,
        series: [{ name: p.name, colour, points: s.rating.map((r) => r[1]), band: s.rating.map((r) => [r[1] - r[2], r[1] + r[2]]) }],
      }),
    );
    const stonesTitle = t("players.chart_stones", { n: s.moving_games });
    charts.appendChild(h("h2", { html: termify(stonesTitle) }));
    charts.appendChild(lineChart({ title: stonesTitle, xLabel: t("players.chart_games"), xs: s.games, series: [{ name: p.name, colour, points: s.stones.map((r) => r[1]) }] }));
    page.appendChild(charts);

    const recent = h("section", { class: "card" }, [h("h2", { text: t("players.recent") })]);
    const table = h("table", { class: "player-games" });
    const hr = h("tr");
    for (const k of ["players.when", "players.where", "players.rounds", "players.stones_per_round", "players.camat_titles", "players.rating_after", ""]) {
      hr.appendChild(h("th", { html: k ? termify(t(k)) : "" }));
    }
    table.appendChild(h("thead", {}, [hr]));
    const body = h("tbody");
    for (const g of doc.recent) {
      const tr = h("tr", { "data-game": g.game });
      tr.appendChild(h("td", { text: when(g.last) }));
      tr.appendChild(h("td", { text: t(`players.source_${g.source}`) }));
      tr.appendChild(h("td", { class: "num", text: String(g.rounds) }));
      tr.appendChild(h("td", { class: "num", text: numberText(g.stones_per_round) }));
      tr.appendChild(h("td", { class: "num", text: String(g.camat) }));
      tr.appendChild(h("td", { class: "num", text: ratingText(g) }));
      const cell = h("td");
      if (g.replay) cell.appendChild(h("a", { class: "button small", href: g.replay, "data-replay": g.game, text: t("players.replay") }));
      else if (g.record) {
        const b = h("button", { type: "button", class: "small", "data-replay": g.game, text: t("players.replay") });
        b.addEventListener("click", () => openRecord(g.record, `${g.game}.json`).catch(() => showApiError({ code: "unknown_game", message: g.game })));
        cell.appendChild(b);
      }
      tr.appendChild(cell);
      body.appendChild(tr);
    }
    table.appendChild(body);
    recent.appendChild(h("div", { class: "standings-scroll" }, [table]));
    page.appendChild(recent);

    if (doc.head_to_head.length) {
      const heads = h("section", { class: "card" }, [h("h2", { text: t("players.head_to_head") })]);
      const ht = h("table", { class: "player-heads" });
      const hh = h("tr");
      for (const k of ["players.opponent", "players.together", "players.mine", "players.theirs"]) hh.appendChild(h("th", { html: termify(t(k, { name: p.name })) }));
      ht.appendChild(h("thead", {}, [hh]));
      const hb = h("tbody");
      for (const o of doc.head_to_head) {
        const tr = h("tr", { "data-opponent": o.opponent.id });
        const who = h("td");
        who.append(markDot(o.opponent.mark), " ", h("a", { href: `#/player/${encodeURIComponent(o.opponent.id)}`, text: o.opponent.name }));
        tr.append(who, h("td", { class: "num", text: String(o.rounds) }), h("td", { class: "num", text: numberText(o.stones_per_round) }), h("td", { class: "num", text: numberText(o.opponent_stones_per_round) }));
        hb.appendChild(tr);
      }
      ht.appendChild(hb);
      heads.appendChild(h("div", { class: "standings-scroll" }, [ht]));
      page.appendChild(heads);
    }
    page.appendChild(h("p", {}, [h("a", { class: "button small", href: "#/leaderboard", text: t("players.leaderboard") })]));
  }

  api("GET", `/api/profiles/${encodeURIComponent(id)}`)
    .then((d) => {
      if (gone) return;
      doc = d;
      render();
    })
    .catch((e) => {
      if (gone) return;
      showApiError(e);
      root.replaceChildren(h("div", { class: "player-page" }, [h("section", { class: "card" }, [h("p", { text: t("players.not_found") }), h("a", { class: "button small", href: "#/", text: t("nav.lobby") })])]));
    });
  render();
  return {
    render,
    unmount() {
      gone = true;
    },
  };
}
