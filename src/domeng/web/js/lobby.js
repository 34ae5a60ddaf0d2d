// The start page: a new game in one click, a custom table, the tables in progress and
// the finished games, joining an open seat, watching, opening a record file.

import { api, keepSeat, pref, seatsAt, setPref } from "./api.js";
import { seatName, setTermText, t, termify } from "./i18n.js";
import { h } from "./summary.js";
import { tileIcon } from "./svg.js";
import { showApiError, showError } from "./ui.js";

export function levelLabel(level) {
  const key = `level.${level}`;
  const s = t(key);
  return s === key ? level : s;
}

export function isLoopback(url) {
  return /\/\/(127\.|localhost|\[::1\])/.test(url);
}

function shareBase() {
  return (window.domengAddress || location.origin).replace(/\/$/, "");
}

/** Start a game: the person of this screen against four computer players. */
export async function newGame() {
  const info = window.domengInfo || {};
  const level = pref("level", info.default_level || "basic");
  const name = pref("name", "") || "Andi";
  const pace = Number(pref("pace", "700"));
  const seats = [{ kind: "person", name }];
  for (let i = 0; i < 4; i++) seats.push({ kind: "computer", level });
  const table = await api("POST", "/api/tables", { seats, pace_ms: pace });
  keepSeat(table.id, 0, table.tokens["0"]);
  location.hash = `#/table/${table.id}`;
}

export function lobbyPage(root) {
  const info = window.domengInfo || { levels: ["basic"], default_level: "basic", variants: { opening: ["double", "free"], block_passes: ["penalized", "free"] } };
  let created = null;
  let tables = [];
  let timer = null;
  const params = new URLSearchParams(location.search);
  let joining = params.get("table") ? { table: params.get("table"), seat: Number(params.get("seat") || 0) } : null;
  let joinName = pref("name", "");

  function levelOptions(select, chosen) {
    select.replaceChildren(...info.levels.map((l) => h("option", { value: l, selected: l === chosen, text: levelLabel(l) })));
  }

  root.innerHTML = `
    <div class="lobby">
      <section class="card hero">
        <div class="hero-tiles" aria-hidden="true"></div>
        <h1 data-i18n="lobby.title"></h1>
        <p class="intro" data-i18n="lobby.intro"></p>
        <div class="join-box" hidden></div>
        <div class="row">
          <label><span data-i18n="lobby.your_name"></span> <input id="my-name" autocomplete="nickname" maxlength="40"></label>
          <label><span data-i18n="lobby.level"></span> <select id="level"></select></label>
          <button type="button" class="primary big" data-new-game data-i18n="lobby.new_game"></button>
        </div>
      </section>
      <section class="card">
        <h2 data-i18n="lobby.in_progress"></h2>
        <ul class="tables live"></ul>
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
        <button type="button" class="primary" id="create" data-i18n="lobby.create"></button>
        <div class="created"></div>
      </section>
      <section class="card">
        <h2 data-i18n="lobby.finished"></h2>
        <ul class="tables done"></ul>
      </section>
      <section class="card">
        <h2 data-i18n="lobby.open_record"></h2>
        <p class="muted" data-i18n="lobby.open_record_help"></p>
        <label class="file"><span data-i18n="lobby.choose_file"></span> <input type="file" id="record-file" accept=".json,application/json"></label>
      </section>
    </div>`;
  const q = (s) => root.querySelector(s);
  for (const [name, up] of [["6-6", true], ["6-4", false], ["4-1", true], ["5-5", true]]) {
    q(".hero-tiles").appendChild(tileIcon(name, { s: 26, upright: up }));
  }

  // one click
  const nameInput = q("#my-name");
  nameInput.value = pref("name", "");
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
  const seatRows = [0, 1, 2, 3, 4].map((i) => ({ kind: i === 0 ? "me" : "computer", name: "", level: info.default_level }));
  const paces = [["slow", 1500], ["normal", 800], ["fast", 300]];

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
    const seats = seatRows.map((r, i) => {
      if (r.kind === "computer") return { kind: "computer", level: r.level };
      const s = { kind: "person" };
      if (r.kind === "me") s.name = r.name.trim() || ["Andi", "Besse", "Cicci", "Daeng", "Emba"][i];
      else if (r.name.trim()) s.name = r.name.trim();
      return s;
    });
    // invited people are open seats: a name typed for them is only a hint, not a seat taken
    for (const [i, r] of seatRows.entries()) if (r.kind === "person") delete seats[i].name;
    const body = {
      seats,
      variants: { opening: q("#opening").value, block_passes: q("#block-passes").value },
      pace_ms: Number(q("#pace").value),
    };
    try {
      const table = await api("POST", "/api/tables", body);
      for (const [seat, token] of Object.entries(table.tokens || {})) keepSeat(table.id, Number(seat), token);
      created = table;
      renderCreated();
      refresh();
    } catch (e) {
      showApiError(e);
    }
  });

  function tableLine(tb) {
    const li = h("li", { class: "table-item" });
    const held = seatsAt(tb.id);
    const who = tb.seats
      .map((s) => (s.kind === "person" && !s.taken ? `<em>${t("table.open_seat")}</em>` : escapeName(seatName(s))))
      .join(", ");
    const head = h("div", { class: "table-head" });
    head.appendChild(h("strong", { text: t("lobby.table_name", { id: tb.id }) }));
    head.appendChild(h("span", { class: "muted", text: ` · ${t(`lobby.status.${tb.status}`)} · ${t("lobby.round_n", { n: tb.round })}` }));
    li.appendChild(head);
    li.appendChild(h("div", { class: "who", html: who }));
    const acts = h("div", { class: "acts" });
    if (held.length && tb.status !== "finished") {
      acts.appendChild(h("a", { class: "button primary small", href: `#/table/${tb.id}`, text: t("lobby.back_to_seat") }));
    }
    if (tb.status !== "finished") {
      for (const s of tb.seats) {
        if (s.kind === "person" && !s.taken) {
          const b = h("button", { type: "button", class: "small", text: t("lobby.join_seat", { n: s.seat + 1 }) });
          b.addEventListener("click", () => {
            joining = { table: tb.id, seat: s.seat };
            renderJoin();
            q(".join-box input").focus();
          });
          acts.appendChild(b);
        }
      }
      acts.appendChild(h("a", { class: "button small", href: `#/watch/${tb.id}`, text: t("lobby.watch") }));
    }
    if (tb.round > 0) {
      acts.appendChild(h("a", { class: "button small", href: `#/replay/${tb.id}`, text: t("lobby.watch_again") }));
      acts.appendChild(h("a", { class: "button small", href: `/api/tables/${tb.id}/record?download=1`, download: `domeng-${tb.id}.json`, text: t("table.download") }));
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
    renderSeats();
    renderCreated();
    renderJoin();
    renderTables();
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
      });
      row.appendChild(kind);
      if (r.kind === "me") {
        const name = h("input", { value: r.name, placeholder: t("lobby.name_placeholder"), maxlength: 40, "aria-label": t("lobby.your_name"), "data-seat-name": i });
        name.addEventListener("input", () => (r.name = name.value));
        row.appendChild(name);
      } else if (r.kind === "computer") {
        const lvl = h("select", { "aria-label": t("lobby.level") });
        levelOptions(lvl, r.level);
        lvl.addEventListener("change", () => (r.level = lvl.value));
        row.appendChild(lvl);
      } else {
        row.appendChild(h("span", { class: "muted", text: t("lobby.invite_help") }));
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
      if (created.links.join.length) {
        out.appendChild(h("p", { text: t("table.share") }));
        for (const j of created.links.join) {
          const url = shareBase() + j;
          out.appendChild(h("p", {}, [h("a", { class: "share-link", href: url, text: url })]));
        }
        if (isLoopback(shareBase())) out.appendChild(h("p", { class: "muted", text: t("table.share_local") }));
      }
      const go = seatsAt(created.id).length ? `#/table/${created.id}` : `#/watch/${created.id}`;
      out.appendChild(h("a", { class: "button primary", href: go, text: t("lobby.go_to_table") }));
    }
  }

  function renderJoin() {
    const jb = q(".join-box");
    jb.hidden = !joining;
    jb.replaceChildren();
    if (joining) {
      jb.appendChild(setTermText(h("p", {}), t("lobby.join_title", { n: joining.seat + 1, id: joining.table })));
      const input = h("input", { value: joinName, maxlength: 40, "aria-label": t("lobby.your_name"), placeholder: t("lobby.name_placeholder"), "data-join-name": "" });
      const btn = h("button", { type: "button", class: "primary", "data-join": "", text: t("lobby.take_seat") });
      const go = async () => {
        const name = input.value.trim();
        if (!name) {
          showError(t("lobby.name_needed"));
          input.focus();
          return;
        }
        setPref("name", name);
        try {
          const r = await api("POST", `/api/tables/${encodeURIComponent(joining.table)}/seats/${joining.seat}`, { name });
          keepSeat(r.table_id, r.seat, r.token);
          history.replaceState(null, "", location.pathname);
          location.hash = `#/table/${r.table_id}`;
        } catch (e) {
          showApiError(e);
        }
      };
      btn.addEventListener("click", go);
      input.addEventListener("input", () => (joinName = input.value));
      input.addEventListener("keydown", (ev) => ev.key === "Enter" && go());
      jb.appendChild(h("div", { class: "row" }, [input, btn]));
    }
  }

  /** The lists of tables: the only part that the refresh every few seconds redraws. */
  function renderTables() {
    const live = q(".tables.live");
    const done = q(".tables.done");
    const liveTables = tables.filter((x) => x.status !== "finished").reverse();
    const doneTables = tables.filter((x) => x.status === "finished").reverse();
    live.replaceChildren(...liveTables.map(tableLine));
    done.replaceChildren(...doneTables.map(tableLine));
    if (!liveTables.length) live.appendChild(h("li", { class: "muted", text: t("lobby.none") }));
    if (!doneTables.length) done.appendChild(h("li", { class: "muted", text: t("lobby.none") }));
  }

  async function refresh() {
    try {
      const r = await api("GET", "/api/tables");
      tables = r.tables.sort((a, b) => a.created - b.created);
      renderTables();
    } catch (e) {
      showApiError(e);
    }
  }

  render();
  refresh();
  timer = setInterval(refresh, 5000);
  return {
    render,
    unmount() {
      clearInterval(timer);
    },
  };
}
