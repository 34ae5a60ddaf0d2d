// The start page: a new game in one click, a table of your own (with its turn clock,
// its end and the friends invited), this browser's tables, the tables in progress and
// the finished games (a page at a time), taking a seat from a link or an invitation,
// watching, the final standings, opening a record file.

import { api, forgetTable, hostToken, keepHost, keepSeat, myTables, pref, seatsAt, setPref } from "./api.js";
import { hintsSetting } from "./coach.js";
import { removeDialog } from "./host.js";
import { levelName, seatName, setTermText, t, termify } from "./i18n.js";
import { sharePanel } from "./share.js";
import { roundsFinished, standingsElement } from "./standings.js";
import { currentProfile, profilePicker, withProfile } from "./profiles.js";
import { h } from "./summary.js";
import { tileIcon } from "./svg.js";
import { dismissErrors, showApiError, showError } from "./ui.js";

const PAGE = 20;
const CLOCKS = [null, 15, 30, 60, 120];
const DEFAULT_CLOCK = 60;
const END_DEFAULTS = { titles: 3, rounds: 10 };
const END_MAX = { titles: 1000, rounds: 10000 };
const DEFAULT_NAMES = ["Andi", "Besse", "Cicci", "Daeng", "Emba"];

/** What two names that read the same share (the service's name_key): case and spaces
 * aside. No two seats of a table show the same name. */
function nameKey(name) {
  return name.normalize("NFKC").toLowerCase().split(/\s+/).filter(Boolean).join(" ");
}

/** A level where it is chosen or ranked: the ladder's name for players beside the
 * technical name ("Club player (expert:fast)"; docs/bots.md, "The ladder"). */
export function ladderLabel(level) {
  const name = levelName(level);
  return name === level ? level : `${name} (${level})`;
}

/** Start a game: the person of this screen against four computer players. */
export async function newGame() {
  const info = window.domengInfo || {};
  const level = pref("level", info.default_level || "basic");
  const name = currentProfile()?.name || pref("name", "") || "Andi";
  const pace = Number(pref("pace", "700"));
  /** @type {object[]} */
  const seats = [{ kind: "person", name, ...withProfile() }];
  for (let i = 0; i < 4; i++) seats.push({ kind: "computer", level });
  const table = await api("POST", "/api/tables", { seats, pace_ms: pace });
  keepHost(table.id, table.host_token);
  keepSeat(table.id, 0, table.tokens["0"]);
  location.hash = `#/table/${table.id}`;
}

/** The names of a table's seats as the lists show them. */
function seatNames(tb) {
  return tb.seats.map((s) => seatName(s, false));
}

/** The final standings in a dialog (from the lists of finished games). */
function standingsDialog(tb) {
  const layer = h("div", { class: "overlay standings-layer", role: "dialog", "aria-modal": "true", "aria-labelledby": "standings-title" });
  const actions = h("div", { class: "actions" });
  const close = h("button", { type: "button", class: "primary", "data-close-standings": "", text: t("close") });
  actions.appendChild(close);
  if (roundsFinished(tb)) actions.appendChild(h("a", { class: "button", href: `#/replay/${encodeURIComponent(tb.id)}`, text: t("lobby.watch_again") }));
  layer.appendChild(standingsElement(tb, seatNames(tb), actions));
  const done = () => {
    layer.remove();
    document.removeEventListener("keydown", onKey);
  };
  const onKey = (ev) => {
    if (ev.key === "Escape") done();
  };
  close.addEventListener("click", done);
  layer.addEventListener("click", (ev) => ev.target === layer && done());
  layer.querySelector('a[href^="#/replay/"]').addEventListener("click", done);
  document.addEventListener("keydown", onKey);
  document.body.appendChild(layer);
  close.focus();
}

export function lobbyPage(root) {
  const info = window.domengInfo || { levels: ["basic"], default_level: "basic", variants: { opening: ["double", "free"], block_passes: ["penalized", "free"] } };
  let created = null;
  let mine = []; // this browser's tables (its seats' and the ones it created), as fetched
  const lists = {
    live: { status: null, tables: [], next: null, pages: 1 },
    done: { status: "finished", tables: [], next: null, pages: 1 },
  };
  let timer = null;
  let gone = false;
  const params = new URLSearchParams(location.search);
  let joining = params.get("table") ? { table: params.get("table"), seat: Number(params.get("seat") || 0), invite: params.get("invite") } : null;
  let joinTable = null; // the table joined, as fetched (what the box says depends on it)
  let joinError = null; // {code, message} of a refusal, shown in the box
  let joinName = pref("name", "");

  function levelOptions(select, chosen) {
    select.replaceChildren(...info.levels.map((l) => h("option", { value: l, selected: l === chosen, text: ladderLabel(l) })));
  }

  root.innerHTML = `
    <div class="lobby">
      <section class="card hero">
        <div class="hero-tiles" aria-hidden="true"></div>
        <h1 data-i18n="lobby.title"></h1>
        <p class="intro" data-i18n="lobby.intro"></p>
        <div class="join-box" data-join-box hidden></div>
        <div class="profile-box"></div>
        <button type="button" class="small own-game" data-own-game hidden data-i18n="lobby.own_game"></button>
        <div class="row quick-game">
          <label><span data-i18n="lobby.your_name"></span> <input id="my-name" autocomplete="nickname" maxlength="40"></label>
          <label><span data-i18n="lobby.level"></span> <select id="level"></select></label>
          <button type="button" class="primary big" data-new-game data-i18n="lobby.new_game"></button>
        </div>
      </section>
      <section class="card mine-card" hidden>
        <h2 data-i18n="lobby.mine"></h2>
        <ul class="tables mine"></ul>
      </section>
      <section class="card">
        <h2 data-i18n="lobby.in_progress"></h2>
        <ul class="tables live"></ul>
        <button type="button" class="small more" data-more="live" hidden data-i18n="lobby.more"></button>
      </section>
      <section class="card custom">
        <h2 data-i18n="lobby.custom"></h2>
        <p class="muted" data-i18n="lobby.custom_help"></p>
        <div class="seats-form"></div>
        <div class="row">
          <label><span data-i18n="lobby.opening"></span> <select id="opening"></select></label>
          <label><span data-i18n="lobby.block_passes"></span> <select id="block-passes"></select></label>
          <label><span data-i18n="lobby.pace"></span> <select id="pace"></select></label>
        </div>
        <div class="row">
          <label><span data-i18n="lobby.clock"></span> <select id="turn-clock" data-turn-clock></select></label>
          <label><span data-i18n="lobby.end"></span> <select id="end-kind" data-end-kind></select></label>
          <label class="end-n"><span class="end-n-label"></span> <input id="end-n" data-end-n type="number" min="1" inputmode="numeric"></label>
          <label class="check"><input type="checkbox" id="spectator-chat" data-spectator-chat> <span data-i18n="lobby.spectator_chat"></span></label>
          <label><span class="hints-label"></span> <select id="hints" data-hints-setting></select></label>
        </div>
        <button type="button" class="primary" id="create" data-i18n="lobby.create"></button>
        <div class="created" aria-live="polite"></div>
      </section>
      <section class="card">
        <h2 data-i18n="lobby.finished"></h2>
        <ul class="tables done"></ul>
        <button type="button" class="small more" data-more="done" hidden data-i18n="lobby.more"></button>
      </section>
      <section class="card">
        <h2 data-i18n="lobby.open_record"></h2>
        <p class="muted" data-i18n="lobby.open_record_help"></p>
        <label class="file"><span data-i18n="lobby.choose_file"></span> <input type="file" id="record-file" accept=".json,application/json"></label>
      </section>
    </div>`;
  const q = (s) => root.querySelector(s);
  for (const [name, up] of /** @type {[string, boolean][]} */ ([["6-6", true], ["6-4", false], ["4-1", true], ["5-5", true]])) {
    q(".hero-tiles").appendChild(tileIcon(name, { s: 26, upright: up }));
  }

  // one click
  q("[data-own-game]").addEventListener("click", () => {
    ownGame = true;
    renderQuickGame();
    nameInput.focus();
  });
  const nameInput = q("#my-name");
  nameInput.value = currentProfile()?.name || pref("name", "");
  const picker = profilePicker(q(".profile-box"), (p) => {
    if (p) nameInput.value = p.name; // profiles.js: the seat counts for it
  });
  nameInput.addEventListener("change", () => setPref("name", nameInput.value.trim()));
  q("#level").addEventListener("change", () => setPref("level", q("#level").value));
  q("[data-new-game]").addEventListener("click", async (ev) => {
    ev.currentTarget.disabled = true;
    setPref("name", nameInput.value.trim());
    setPref("level", q("#level").value);
    try {
      await newGame();
    } catch (e) {
      showApiError(e);
      ev.currentTarget.disabled = false;
    }
  });

  // the custom table
  const kinds = ["me", "person", "computer"];
  const seatRows = [0, 1, 2, 3, 4].map((i) => ({ kind: i === 0 ? "me" : "computer", name: "", level: info.default_level, open: false }));
  const paces = [["slow", 1500], ["normal", 800], ["fast", 300]];
  let clockTouched = false;
  let endKind = "titles";
  const endN = { ...END_DEFAULTS };

  /** The clock a table gets unless one was chosen: none for one person against the
   * computer players, a minute a move once friends play. */
  function defaultClock() {
    const people = seatRows.filter((r) => r.kind !== "computer").length;
    return people > 1 ? DEFAULT_CLOCK : null;
  }

  q("#turn-clock").addEventListener("change", () => (clockTouched = true));
  q("#end-kind").addEventListener("change", () => {
    endKind = q("#end-kind").value;
    renderEnd();
  });
  q("#end-n").addEventListener("input", () => {
    const n = Number(q("#end-n").value);
    if (Number.isInteger(n) && n >= 1) endN[endKind] = Math.min(n, END_MAX[endKind]);
  });

  q("#record-file").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    try {
      const textDoc = await file.text();
      JSON.parse(textDoc);
      sessionStorage.setItem("domeng.record", textDoc);
      sessionStorage.setItem("domeng.record.name", file.name);
      location.hash = "#/replay-file";
    } catch {
      showError(t("error.bad_record"));
    }
  });

  q("#create").addEventListener("click", async () => {
    // the name the player already typed above is theirs at this table too
    const typed = nameInput.value.trim() || pref("name", "");
    const firstMe = seatRows.findIndex((r) => r.kind === "me");
    // no two seats of a table show one name: a seat of this screen left unnamed takes
    // a name no other one has (two typed the same are refused, in words)
    const used = new Set(seatRows.filter((r) => r.kind === "me" && r.name.trim()).map((r) => nameKey(r.name)));
    const meName = (r, i) => {
      if (r.name.trim()) return r.name.trim();
      const name = [i === firstMe && typed, currentProfile()?.name, DEFAULT_NAMES[i], ...DEFAULT_NAMES].find((x) => x && !used.has(nameKey(x)));
      used.add(nameKey(name));
      return name;
    };
    const seats = seatRows.map((r, i) => {
      if (r.kind === "computer") return { kind: "computer", level: r.level };
      if (r.kind === "me") return { kind: "person", name: meName(r, i), ...withProfile() };
      // a friend's seat: invited (a link with a code only the host has), or anyone may sit
      return r.open ? { kind: "person", open: true } : { kind: "person" };
    });
    const clock = q("#turn-clock").value;
    const body = {
      seats,
      variants: { opening: q("#opening").value, block_passes: q("#block-passes").value },
      pace_ms: Number(q("#pace").value),
      turn_seconds: clock ? Number(clock) : null,
      end: endKind === "open" ? null : { [endKind]: endN[endKind] },
      spectator_chat: q("#spectator-chat").checked,
      hints: { auto: null, on: true, off: false }[q("#hints").value || "auto"],
    };
    try {
      const table = await api("POST", "/api/tables", body);
      keepHost(table.id, table.host_token);
      for (const [seat, token] of Object.entries(table.tokens || {})) keepSeat(table.id, Number(seat), token);
      created = table;
      renderCreated();
      // the answer below the form, often below the window's edge: brought into sight
      q(".created").scrollIntoView({ block: "nearest" });
      refresh();
    } catch (e) {
      showApiError(e);
    }
  });

  for (const kind of ["live", "done"]) {
    q(`[data-more="${kind}"]`).addEventListener("click", () => {
      lists[kind].pages += 1;
      refresh();
    });
  }

  function tableLine(tb, { held = false } = {}) {
    const li = h("li", { class: "table-item", "data-table": tb.id });
    const seats = seatsAt(tb.id);
    const hosting = !!hostToken(tb.id);
    const finished = tb.status === "finished";
    const who = tb.seats
      .map((s) => {
        if (s.kind === "person" && !s.taken) return `<em>${t(s.open ? "table.open_seat" : "lobby.invited_seat")}</em>`;
        return escapeName(seatName(s));
      })
      .join(", ");
    const head = h("div", { class: "table-head" });
    head.appendChild(h("strong", { text: t("lobby.table_name", { id: tb.id }) }));
    head.appendChild(h("span", { class: "muted", text: ` · ${t(`lobby.status.${tb.status}`)} · ${t("lobby.round_n", { n: tb.round })}` }));
    if (hosting) head.appendChild(h("span", { class: "badge", text: t("lobby.host_badge") }));
    li.appendChild(head);
    li.appendChild(h("div", { class: "who", html: who }));
    if (finished && tb.standings && tb.standings.length) {
      const names = seatNames(tb);
      const first = tb.standings.filter((r) => r.rank === 1).map((r) => names[r.seat]);
      li.appendChild(h("div", { class: "winner-line", text: t("lobby.winner", { who: first.join(", ") }) }));
    }
    const acts = h("div", { class: "acts" });
    if (!finished && seats.length) {
      acts.appendChild(h("a", { class: "button primary small", href: `#/table/${tb.id}`, text: t("lobby.back_to_seat") }));
    } else if (!finished && hosting) {
      acts.appendChild(h("a", { class: "button primary small", href: `#/table/${tb.id}`, text: t("lobby.open_table") }));
    }
    if (!finished && !seats.length && !held) {
      // a seat anyone may take; not for a browser that holds a seat here already
      for (const s of tb.seats) {
        if (s.kind === "person" && !s.taken && s.open) {
          const b = h("button", { type: "button", class: "small", "data-sit": s.seat, text: t("lobby.join_seat", { n: s.seat + 1 }) });
          b.addEventListener("click", () => {
            joining = { table: tb.id, seat: s.seat, invite: null };
            joinTable = tb;
            joinError = null;
            renderJoin();
            const input = q("[data-join-box] input");
            if (input) input.focus();
          });
          acts.appendChild(b);
        }
      }
    }
    if (!finished && !seats.length) acts.appendChild(h("a", { class: "button small", href: `#/watch/${tb.id}`, text: t("lobby.watch") }));
    if (finished) {
      const b = h("button", { type: "button", class: "small primary", "data-show-standings": "", text: t("standings.show") });
      b.addEventListener("click", () => standingsDialog(tb));
      acts.appendChild(b);
    }
    if (tb.round > 0) {
      // "watch again" once a round is over (a replay shows finished rounds only)
      if (roundsFinished(tb)) acts.appendChild(h("a", { class: "button small", href: `#/replay/${tb.id}`, text: t("lobby.watch_again") }));
      acts.appendChild(h("a", { class: "button small", href: `/api/tables/${tb.id}/record?download=1`, download: `domeng-${tb.id}.json`, text: t("table.download") }));
    }
    if (finished && hosting) {
      const b = h("button", { type: "button", class: "small danger", "data-host": "remove", text: t("host.remove") });
      b.addEventListener("click", () => removeDialog(tb.id, refresh));
      acts.appendChild(b);
    }
    li.appendChild(acts);
    return li;
  }

  function escapeName(s) {
    const d = document.createElement("span");
    d.textContent = s;
    return d.innerHTML;
  }

  /** Everything, in the language chosen (at the start and when it changes); what the
   * person chose or typed stays as it was. */
  function render() {
    for (const n of root.querySelectorAll("[data-i18n]")) n.innerHTML = termify(t(n.dataset.i18n));
    levelOptions(q("#level"), q("#level").value || pref("level", info.default_level));
    const openingNow = q("#opening").value || info.variants.opening[0];
    q("#opening").replaceChildren(...info.variants.opening.map((o) => h("option", { value: o, selected: o === openingNow, text: t(`variant.opening.${o}`) })));
    const passesNow = q("#block-passes").value || info.variants.block_passes[0];
    q("#block-passes").replaceChildren(...info.variants.block_passes.map((o) => h("option", { value: o, selected: o === passesNow, text: t(`variant.block_passes.${o}`) })));
    const paceNow = q("#pace").value || "800";
    q("#pace").replaceChildren(...paces.map(([k, ms]) => h("option", { value: ms, selected: String(ms) === paceNow, text: t(`pace.${k}`) })));
    picker.render();
    hintsSetting(q("#hints"), q(".hints-label"));
    renderClock();
    renderEnd();
    renderSeats();
    renderCreated();
    renderJoin();
    renderTables();
  }

  function renderClock() {
    const sel = q("#turn-clock");
    const chosen = clockTouched ? sel.value : String(defaultClock() ?? "");
    sel.replaceChildren(
      ...CLOCKS.map((n) => h("option", { value: n ?? "", selected: String(n ?? "") === chosen, text: n === null ? t("lobby.clock.none") : t("lobby.clock.n", { n }) })),
    );
  }

  function renderEnd() {
    q("#end-kind").replaceChildren(...["titles", "rounds", "open"].map((k) => h("option", { value: k, selected: k === endKind, text: t(`lobby.end.${k}`) })));
    const field = q(".end-n");
    field.hidden = endKind === "open";
    if (endKind !== "open") {
      setTermText(q(".end-n-label"), t(`lobby.end_n.${endKind}`));
      const input = q("#end-n");
      input.max = String(END_MAX[endKind]);
      if (document.activeElement !== input) input.value = String(endN[endKind]);
    }
  }

  /** The seats of "a table of your own"; ``focusKind``: the seat whose kind was just changed. */
  function renderSeats(focusKind = null) {
    const form = q(".seats-form");
    form.replaceChildren();
    seatRows.forEach((r, i) => {
      const row = h("div", { class: "seat-row" });
      row.appendChild(h("span", { class: "seat-no", text: t("lobby.seat_n", { n: i + 1 }) }));
      const kind = h("select", { "aria-label": t("lobby.seat_kind", { n: i + 1 }), "data-seat-kind": i });
      kind.replaceChildren(...kinds.map((k) => h("option", { value: k, selected: r.kind === k, text: t(`lobby.kind.${k}`) })));
      kind.addEventListener("change", () => {
        r.kind = kind.value;
        renderSeats(i);
        if (!clockTouched) renderClock(); // friends at the table: a turn clock by default
      });
      row.appendChild(kind);
      if (r.kind === "me") {
        const name = h("input", { value: r.name, placeholder: t("lobby.name_placeholder"), maxlength: 40, "aria-label": t("lobby.seat_name", { n: i + 1 }), "data-seat-name": i });
        name.addEventListener("input", () => (r.name = name.value));
        row.appendChild(name);
      } else if (r.kind === "computer") {
        const lvl = h("select", { "aria-label": t("lobby.seat_level", { n: i + 1 }) });
        levelOptions(lvl, r.level);
        lvl.addEventListener("change", () => (r.level = lvl.value));
        row.appendChild(lvl);
      } else {
        const access = h("select", { "aria-label": t("lobby.seat_access", { n: i + 1 }), "data-seat-access": i });
        access.replaceChildren(
          h("option", { value: "invited", selected: !r.open, text: t("lobby.access.invited") }),
          h("option", { value: "open", selected: r.open, text: t("lobby.access.open") }),
        );
        access.addEventListener("change", () => (r.open = access.value === "open"));
        row.appendChild(access);
      }
      form.appendChild(row);
    });
    if (focusKind !== null) form.querySelector(`[data-seat-kind="${focusKind}"]`).focus();
  }

  function renderCreated() {
    const out = q(".created");
    out.replaceChildren();
    if (created) {
      out.appendChild(h("p", { text: t("lobby.created", { id: created.id }) }));
      const panel = sharePanel({ invites: created.invites || {}, joins: created.links.join });
      if (panel) out.appendChild(panel);
      const go = seatsAt(created.id).length || hostToken(created.id) ? `#/table/${created.id}` : `#/watch/${created.id}`;
      out.appendChild(h("a", { class: "button primary", href: go, text: t("lobby.go_to_table") }));
    }
  }

  async function loadJoin() {
    if (!joining) return;
    try {
      joinTable = await api("GET", `/api/tables/${encodeURIComponent(joining.table)}`);
    } catch (e) {
      joinError = { code: e.code, message: e.message };
    }
    renderJoin();
  }

  let ownGame = false; // invited, the person asked for a game of their own all the same

  /** Invited to a seat: the invitation first and alone, one name to type; the profile
   * (when none is chosen) and a new game of one's own only on asking. */
  function renderQuickGame() {
    const invited = !!joining && !ownGame;
    q(".quick-game").hidden = invited;
    q("[data-own-game]").hidden = !invited;
    q(".profile-box").hidden = invited && !currentProfile();
  }

  function renderJoin() {
    const jb = q("[data-join-box]");
    jb.hidden = !joining;
    jb.replaceChildren();
    renderQuickGame();
    if (!joining) return;
    const tb = joinTable;
    const n = joining.seat + 1;
    const hostSeat = tb && tb.host !== null && tb.host !== undefined ? tb.seats[tb.host] : null;
    const title = joining.invite && hostSeat ? t("lobby.join_invited", { host: seatName(hostSeat, false), n, id: joining.table }) : t("lobby.join_title", { n, id: joining.table });
    const heading = setTermText(h("p", { "data-join-title": "" }), title);
    jb.appendChild(heading);
    // no name field left (a refusal, or a seat held here already): no "type your name"
    const noField = () => {
      const plain = joining.invite && hostSeat ? t("lobby.join_invited_plain", { host: seatName(hostSeat, false), n, id: joining.table }) : t("lobby.join_title_plain", { n, id: joining.table });
      setTermText(heading, plain);
    };
    const say = (code, extra = []) => {
      noField();
      const known = t(`error.${code}`);
      const p = h("p", { class: "error-text", "data-join-error": code, text: known === `error.${code}` ? t("error.other") : known });
      jb.appendChild(p);
      for (const x of extra) jb.appendChild(x);
    };
    const seat = tb ? tb.seats[joining.seat] : null;
    if (seatsAt(joining.table).length) {
      // one seat per browser at a table (the seats of one screen are created together)
      const back = h("a", { class: "button primary", href: `#/table/${joining.table}`, text: t("lobby.back_to_seat") });
      back.addEventListener("click", () => history.replaceState(null, "", location.pathname + location.hash));
      noField();
      jb.appendChild(h("p", { class: "error-text", "data-join-error": "already_seated", text: t("lobby.already_seated") }));
      jb.appendChild(back);
      return;
    }
    if (joinError && !tb) return say(joinError.code);
    if (tb && tb.status === "finished") return say("game_over");
    if (tb && !seat) return say("unknown_seat");
    if (seat && seat.kind !== "person") return say("computer_seat");
    if (seat && seat.taken && !joinError) return say("seat_taken");
    if (joinError && ["bad_invite", "seat_taken", "game_over"].includes(joinError.code)) return say(joinError.code);
    if (joinError) {
      say(joinError.code);
      setTermText(heading, title); // the field stays: the heading still asks for the name
    }
    // each name box says whose name it asks for: the start page's own one is "Your name"
    const input = h("input", { value: joinName, maxlength: 40, "aria-label": t("lobby.join_name", { id: joining.table }), placeholder: t("lobby.name_placeholder"), "data-join-name": "" });
    const btn = h("button", { type: "button", class: "primary", "data-join": "", text: t("lobby.take_seat") });
    const go = async () => {
      const name = input.value.trim();
      if (!name) {
        showError(t("lobby.name_needed"));
        input.focus();
        return;
      }
      setPref("name", name);
      const body = { ...(joining.invite ? { name, invite: joining.invite } : { name }), ...withProfile() };
      try {
        const r = await api("POST", `/api/tables/${encodeURIComponent(joining.table)}/seats/${joining.seat}`, body);
        keepSeat(r.table_id, r.seat, r.token);
        dismissErrors(); // a name refused before is answered: no red line over the table
        history.replaceState(null, "", location.pathname);
        location.hash = `#/table/${r.table_id}`;
      } catch (e) {
        joinError = { code: e.code, message: e.message };
        showApiError(e);
        renderJoin();
      }
    };
    btn.addEventListener("click", go);
    input.addEventListener("input", () => (joinName = input.value));
    input.addEventListener("keydown", (ev) => ev.key === "Enter" && go());
    jb.appendChild(h("div", { class: "row" }, [input, btn]));
  }

  function moreButton(kind) {
    q(`[data-more="${kind}"]`).hidden = !lists[kind].next;
  }

  /** The lists of tables: the only part that the refresh every few seconds redraws. */
  function renderTables() {
    const mineIds = new Set(mine.map((x) => x.id));
    const newest = (a, b) => b.created - a.created;
    const myLive = mine.filter((x) => x.status !== "finished").sort(newest);
    const myDone = mine.filter((x) => x.status === "finished").sort(newest);
    // in progress: the tables with a seat anyone may take first, then the others to watch
    // (a table still waiting for the friends its host invited has nothing to see yet)
    const others = lists.live.tables.filter((x) => x.status !== "finished" && !mineIds.has(x.id) && (x.links.join.length || x.status !== "waiting")).sort(newest);
    const liveTables = [...others.filter((x) => x.links.join.length), ...others.filter((x) => !x.links.join.length)];
    const doneTables = [...myDone, ...lists.done.tables.filter((x) => !mineIds.has(x.id)).sort(newest)];
    q(".mine-card").hidden = !myLive.length;
    q(".tables.mine").replaceChildren(...myLive.map((x) => tableLine(x, { held: true })));
    const live = q(".tables.live");
    const done = q(".tables.done");
    live.replaceChildren(...liveTables.map((x) => tableLine(x)));
    done.replaceChildren(...doneTables.map((x) => tableLine(x, { held: mineIds.has(x.id) })));
    if (!liveTables.length) live.appendChild(h("li", { class: "muted", text: t("lobby.none") }));
    if (!doneTables.length) done.appendChild(h("li", { class: "muted", text: t("lobby.none") }));
    moreButton("live");
    moreButton("done");
  }

  async function pages(list) {
    const tables = [];
    let cursor = null;
    let next = null;
    for (let i = 0; i < list.pages; i++) {
      const query = new URLSearchParams({ limit: String(PAGE) });
      if (list.status) query.set("status", list.status);
      if (cursor) query.set("cursor", cursor);
      const r = await api("GET", `/api/tables?${query}`);
      tables.push(...r.tables);
      next = r.next;
      if (!next) break;
      cursor = next;
    }
    list.tables = tables;
    list.next = next;
  }

  async function mineNow() {
    const found = await Promise.all(
      myTables().map((id) =>
        api("GET", `/api/tables/${encodeURIComponent(id)}`).catch((e) => {
          if (e.code === "unknown_table") forgetTable(id); // removed, or another database
          else throw e;
          return null;
        }),
      ),
    );
    mine = found.filter(Boolean);
  }

  async function refresh() {
    try {
      await Promise.all([mineNow(), pages(lists.live), pages(lists.done)]);
      if (!gone) renderTables();
    } catch (e) {
      if (!gone) showApiError(e);
    }
  }

  render();
  loadJoin();
  refresh();
  timer = setInterval(refresh, 5000);
  return {
    render,
    unmount() {
      gone = true;
      clearInterval(timer);
    },
  };
}
