// Club tournaments (docs/tournaments.md): a new tournament (#/tournaments), its live
// standings with the director's say (#/tournament/ID), an entrant's own page with their
// table (#/tournament/ID/me/TOKEN) and the printable results (#/tournament/ID/print).
// The director's token and the entrants' tokens stay in this browser (localStorage),
// and an entrant's token only ever travels in the address's fragment (never sent).

import { api, keepSeat, pref } from "./api.js";
import { inClub, isAdmin } from "./club.js";
import { levelName, setTermText, t, termify } from "./i18n.js";
import { ladderLabel } from "./lobby.js";
import { shareBase } from "./share.js";
import { h } from "./summary.js";
import { showApiError } from "./ui.js";

const DIRECTED = "domeng.tournaments";
const POLL_MS = 3000;

function kept() {
  try {
    const v = JSON.parse(localStorage.getItem(DIRECTED) || "{}");
    return v && typeof v === "object" ? v : {};
  } catch {
    return {};
  }
}

function keep(id, value) {
  localStorage.setItem(DIRECTED, JSON.stringify({ ...kept(), [id]: { ...(kept()[id] || {}), ...value } }));
}

/** An entrant's own link: their page, with their token in the fragment. */
export function entrantLink(id, token) {
  return `${shareBase()}/#/tournament/${encodeURIComponent(id)}/me/${encodeURIComponent(token)}`;
}

function scoreText(x) {
  return new Intl.NumberFormat(document.documentElement.lang, { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: "exceptZero" }).format(x);
}

/** A space between two elements built by h() (whose children are nodes). */
function space() {
  return document.createTextNode(" ");
}

function statusText(status) {
  return t(`tournament.status.${status}`);
}

function number(label, name, value, min, max) {
  return h("label", { class: "field" }, [h("span", { text: label }), h("input", { type: "number", name, value: String(value), min: String(min), max: String(max), required: true })]);
}

/** The people who have a profile (in a club: the members; at home: the profiles), to be
 *  entered by it: their games then count in their history and rating. */
async function peopleWithProfiles() {
  try {
    if (inClub()) {
      const doc = await api("GET", "/api/members");
      return doc.members.filter((m) => m.role !== "guest" && !m.suspended).map((m) => ({ id: m.id, name: m.name }));
    }
    const doc = await api("GET", "/api/profiles?limit=500");
    return doc.profiles.filter((p) => p.kind === "person").map((p) => ({ id: p.id, name: p.name }));
  } catch {
    return [];
  }
}

function profilesField(people) {
  const box = h("fieldset", { class: "field tournament-profiles", "data-profiles": "", hidden: !people.length }, [h("legend", { text: t("tournament.profiles") })]);
  for (const p of people) box.appendChild(h("label", { class: "check" }, [h("input", { type: "checkbox", name: "profile", value: p.id }), h("span", { text: p.name })]));
  return box;
}

/** #/tournaments: a new tournament. */
export function newTournamentPage(root) {
  let people = [];
  let gone = false;
  function render() {
    root.replaceChildren();
    if (inClub() && !isAdmin()) {
      root.appendChild(h("div", { class: "tournament-page" }, [h("section", { class: "card", "data-admins-only": "" }, [h("h1", { text: t("tournament.new_title") }), h("p", { text: t("tournament.admins_only") })])]));
      return;
    }
    const info = window.domengInfo || { levels: ["basic"], default_level: "basic" };
    const form = h("form", { class: "card tournament-form", "data-new-tournament": "" });
    form.append(
      h("h1", { text: t("tournament.new_title") }),
      setTermText(h("p", { class: "muted" }), t("tournament.new_help")),
      h("label", { class: "field" }, [h("span", { text: t("tournament.name") }), h("input", { name: "name", required: true, maxlength: "40", value: t("tournament.default_name") })]),
      h("label", { class: "field" }, [
        h("span", { text: t("tournament.format") }),
        h("select", { name: "format" }, [h("option", { value: "duplicate", text: t("tournament.format_duplicate") }), h("option", { value: "games", text: t("tournament.format_games") })]),
      ]),
      setTermText(h("p", { class: "muted", "data-format-help": "" }), t("tournament.format_help")),
      number(t("tournament.rounds"), "rounds", 3, 1, 20),
      number(t("tournament.deals"), "deals", 4, 1, 20),
      profilesField(people),
      h("label", { class: "field" }, [h("span", { text: t("tournament.people") }), h("textarea", { name: "people", rows: "6", placeholder: t("tournament.people_help") })]),
      number(t("tournament.computers"), "computers", 0, 0, 200),
      h("label", { class: "field" }, [
        h("span", { text: t("lobby.level") }),
        h("select", { name: "level" }, info.levels.map((l) => h("option", { value: l, selected: l === info.default_level, text: ladderLabel(l) }))),
      ]),
      number(t("tournament.turn_seconds"), "turn_seconds", 60, 5, 600),
      h("p", {}, [h("button", { type: "submit", class: "primary", text: t("tournament.create") })]),
    );
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const f = new FormData(form);
      const names = String(f.get("people") || "").split("\n").map((s) => s.trim()).filter(Boolean);
      const level = String(f.get("level"));
      const entrants = [
        ...f.getAll("profile").map((id) => ({ kind: "person", profile_id: String(id) })),
        ...names.map((name) => ({ kind: "person", name })),
        ...Array.from({ length: Number(f.get("computers")) }, (_, n) => ({ kind: "computer", level, name: `${levelName(level)} ${n + 1}` })),
      ];
      const body = {
        name: String(f.get("name")),
        format: String(f.get("format")),
        rounds: Number(f.get("rounds")),
        deals: Number(f.get("deals")),
        entrants,
        // the computer players' pace as the start page sets it
        table: { turn_seconds: Number(f.get("turn_seconds")), stand_in: level, pace_ms: Number(pref("pace", "700")) },
      };
      try {
        const made = await api("POST", "/api/tournaments", body);
        keep(made.id, { director: made.director_token, entrants: made.entrant_tokens });
        location.hash = `#/tournament/${encodeURIComponent(made.id)}`;
      } catch (err) {
        showApiError(err);
      }
    });
    root.appendChild(h("div", { class: "tournament-page" }, [form]));
  }
  render();
  if (!inClub() || isAdmin()) {
    peopleWithProfiles().then((found) => {
      if (gone || !found.length) return;
      people = found;
      // the picker alone is drawn anew: what was typed in the form stays
      root.querySelector("[data-profiles]")?.replaceWith(profilesField(people));
    });
  }
  return {
    render,
    unmount() {
      gone = true;
    },
  };
}

function standingsTable(doc) {
  const table = h("table", { class: "final-standings tournament-standings", "data-tournament-standings": "" });
  const head = h("tr");
  const cols = [t("summary.player"), t("tournament.score"), t("tournament.won"), "PASSEBUNGE", t("tournament.deals_played")];
  head.append(h("th", { text: "#" }), ...cols.map((c, n) => h("th", { class: n ? "num" : null, html: termify(c) })));
  table.appendChild(h("thead", {}, [head]));
  const body = h("tbody");
  for (const s of doc.standings) {
    const tr = h("tr", { "data-standing": s.key, class: s.ranked ? null : "unranked" });
    const name = s.ranked ? s.name : `${s.name} · ${t("tournament.not_ranked")}`;
    tr.append(
      h("td", { class: "rank", "data-label": "#", text: s.place === null ? "–" : String(s.place) }),
      h("td", { class: "who", text: name }),
      h("td", { class: "num", "data-label": t("tournament.score"), "data-score": "", text: scoreText(s.score) }),
      h("td", { class: "num", "data-label": t("tournament.won"), text: String(s.won) }),
      h("td", { class: "num", "data-label": "PASSEBUNGE", text: String(s.passebunge) }),
      h("td", { class: "num", "data-label": t("tournament.deals_played"), text: String(s.deals) }),
    );
    body.appendChild(tr);
  }
  table.appendChild(body);
  return h("div", { class: "standings-scroll" }, [table]);
}

/** #/tournament/ID (and .../print, .../me/TOKEN). */
export function tournamentPage(root, id, mode = "standings", token = null) {
  let doc = null;
  let me = null;
  let gone = false;
  let timer = null;
  const mine = () => kept()[id] || {};

  async function director(action, extra = {}) {
    try {
      // in a club the signed-in admin directs: no token
      const token = mine().director ? { token: mine().director } : {};
      doc = await api("POST", `/api/tournaments/${encodeURIComponent(id)}/${action}`, { ...token, ...extra });
      if (action === "entrants" && doc.added && doc.added.token) keep(id, { entrants: { ...(mine().entrants || {}), [doc.added.key]: doc.added.token } });
      render();
      return true;
    } catch (e) {
      showApiError(e);
      return false;
    }
  }

  function roundsElement() {
    const box = h("section", { class: "card", "data-rounds": "" }, [h("h2", { text: t("tournament.tables") })]);
    if (!doc.rounds.length) box.appendChild(h("p", { class: "muted", text: t("tournament.no_round") }));
    for (const r of [...doc.rounds].reverse()) {
      box.appendChild(h("h3", { text: t("tournament.round_n", { n: r.number }) }));
      const list = h("ul", { class: "tournament-tables" });
      for (const x of r.tables) {
        const li = h("li", { "data-table": x.id });
        li.append(
          h("strong", { text: t("tournament.table_n", { n: x.number }) }),
          " ",
          h("span", { class: "muted", text: x.seats.map((s) => s.name).join(", ") }),
          " ",
          h("a", { href: `#/watch/${encodeURIComponent(x.id)}`, "data-watch": "", text: t("tournament.watch") }),
        );
        if (x.finished) li.append(" · ", h("a", { href: x.links.record, download: `domeng-${x.id}.json`, text: t("tournament.record") }));
        list.appendChild(li);
      }
      box.appendChild(list);
    }
    return box;
  }

  function directorElement() {
    const box = h("section", { class: "card", "data-director": "" }, [h("h2", { text: t("tournament.director") })]);
    const finished = doc.status === "finished";
    const buttons = h("p", { class: "actions" });
    if (!finished) {
      const next = h("button", { class: "primary", "data-start-round": "", disabled: doc.status === "playing", text: t("tournament.next_round") });
      next.addEventListener("click", () => director("next"));
      const end = h("button", { "data-end-tournament": "", text: t("tournament.end") });
      end.addEventListener("click", () => {
        if (confirm(t("tournament.end_confirm"))) director("end");
      });
      buttons.append(next, " ", end);
    }
    box.appendChild(buttons);
    // in a club every admin is given the personal links; at home this browser keeps them
    const tokens = { ...(doc.entrant_tokens || {}), ...(mine().entrants || {}) };
    const list = h("ul", { class: "tournament-entrants" });
    for (const e of doc.entrants.filter((x) => !x.fill)) {
      const li = h("li", { "data-entrant": e.key });
      li.append(h("strong", { text: e.name }), " ");
      if (!e.active) li.append(h("span", { class: "muted", text: t("tournament.withdrawn") }), " ");
      if (tokens[e.key]) li.append(h("a", { href: entrantLink(id, tokens[e.key]), "data-entrant-link": "", text: t("tournament.entrant_link") }), " ");
      if (!finished && e.kind === "person") {
        const replace = h("button", { class: "small", text: t("tournament.replace") });
        replace.addEventListener("click", () => director("replace", { entrant: e.key }));
        li.append(replace, " ");
      }
      if (!finished && e.active) {
        const withdraw = h("button", { class: "small", text: t("tournament.withdraw") });
        withdraw.addEventListener("click", () => director("withdraw", { entrant: e.key }));
        li.append(withdraw);
      }
      list.appendChild(li);
    }
    box.appendChild(list);
    if (!finished) box.appendChild(lateForm());
    return box;
  }

  // The late arrival's form is made once (per language): the standings come again every
  // few seconds, and what the director was typing in it stays.
  let late = null;
  let people = null; // the people with a profile, once asked for
  function lateForm() {
    const lang = document.documentElement.lang;
    if (late && late.lang === lang) return late.form;
    const pick = h("select", { name: "profile", "data-late-profile": "", "aria-label": t("tournament.late_profile"), hidden: !(people && people.length) }, [
      h("option", { value: "", text: t("tournament.late_profile") }),
      ...(people || []).map((p) => h("option", { value: p.id, text: p.name })),
    ]);
    const form = h("form", { class: "inline", "data-late": "" }, [
      h("label", {}, [h("span", { text: t("tournament.late") }), space(), h("input", { name: "name", maxlength: "40" })]),
      space(),
      pick,
      space(),
      h("button", { type: "submit", class: "small", text: t("tournament.add") }),
    ]);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const data = new FormData(form);
      const name = String(data.get("name") || "").trim();
      const profile = String(data.get("profile") || "");
      const add = profile ? { kind: "person", profile_id: profile, ...(name ? { name } : {}) } : { kind: "person", name };
      if (!name && !profile) return;
      director("entrants", { add }).then((done) => {
        if (done) form.reset();
      });
    });
    late = { lang, form };
    if (people === null) {
      people = [];
      peopleWithProfiles().then((found) => {
        people = found;
        if (!late) return;
        // the choice is filled in where it is: what was typed stays
        const select = late.form.querySelector("[data-late-profile]");
        select.append(...found.map((p) => h("option", { value: p.id, text: p.name })));
        select.hidden = !found.length;
      });
    }
    return form;
  }

  function meElement() {
    const box = h("section", { class: "card", "data-me": "" });
    if (!me) return box;
    box.appendChild(h("h2", { text: me.entrant.name }));
    if (me.table && !me.table.finished) {
      box.appendChild(h("p", { text: t("tournament.your_table", { n: tableNumber(me.table.id), seat: me.table.seat + 1 }) }));
      const go = h("button", { class: "primary", "data-go-table": "", text: t("tournament.go") });
      go.addEventListener("click", () => {
        keepSeat(me.table.id, me.table.seat, token);
        location.hash = `#/table/${encodeURIComponent(me.table.id)}`;
      });
      box.appendChild(go);
    } else {
      box.appendChild(h("p", { class: "muted", "data-wait-round": "", text: me.status === "finished" ? t("tournament.over") : t("tournament.wait_round") }));
    }
    return box;
  }

  function tableNumber(tableId) {
    for (const r of doc.rounds) for (const x of r.tables) if (x.id === tableId) return x.number;
    return "?";
  }

  function render() {
    root.replaceChildren();
    const page = h("div", { class: `tournament-page ${mode === "print" ? "printable" : ""}` });
    root.appendChild(page);
    if (!doc) return;
    const head = h("section", { class: "card" }, [
      h("h1", { text: doc.name }),
      h("p", { class: "muted", "data-status": doc.status, text: `${t(`tournament.format_${doc.format}`)} · ${statusText(doc.status)} · ${t("tournament.round_of", { n: doc.rounds.length, of: doc.rounds_planned })}` }),
    ]);
    if (doc.format === "games") head.appendChild(h("p", { class: "muted", text: t("tournament.scale", { scale: doc.scale }) }));
    if (mode !== "print") {
      head.appendChild(
        h("p", { class: "actions" }, [
          h("a", { class: "button small", href: `#/tournament/${encodeURIComponent(id)}/print`, text: t("tournament.printable") }),
          space(),
          h("a", { class: "button small", href: doc.links.csv, download: `tournament-${id}.csv`, "data-csv": "", text: t("players.download_csv") }),
        ]),
      );
    } else {
      const print = h("button", { class: "noprint", text: t("tournament.print") });
      print.addEventListener("click", () => window.print());
      head.appendChild(h("p", {}, [print]));
    }
    page.appendChild(head);
    if (mode === "me") page.appendChild(meElement());
    page.appendChild(h("section", { class: "card" }, [h("h2", { text: t("tournament.standings") }), standingsTable(doc)]));
    if (mode === "print") return;
    if (mine().director || (inClub() && isAdmin())) page.appendChild(directorElement());
    page.appendChild(roundsElement());
  }

  async function load() {
    try {
      doc = await api("GET", `/api/tournaments/${encodeURIComponent(id)}`);
      if (mode === "me" && token) me = await api("POST", `/api/tournaments/${encodeURIComponent(id)}/me`, { token });
      if (!gone) render();
    } catch (e) {
      if (!gone) showApiError(e);
    }
    if (!gone && mode !== "print" && (!doc || doc.status !== "finished")) timer = setTimeout(load, POLL_MS);
  }

  load();
  render();
  return {
    render,
    unmount() {
      gone = true;
      clearTimeout(timer);
    },
  };
}
