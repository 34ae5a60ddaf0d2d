// The round's summary: every hand and the unused tiles, how the round ended, who gave
// whom how many stones and why, and the standings.

import { describe, endingText, standInSeats } from "./account.js";
import { escapeHtml, setTermText, stonesText, t, termify } from "./i18n.js";
import { tileIcon } from "./svg.js";

function h(tag, attrs = {}, children = []) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") e.textContent = v;
    else if (k === "html") e.innerHTML = v;
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c) e.appendChild(c);
  return e;
}
export { h };

function roleBadges(s, seat) {
  const roles = [];
  if (s.first_cappu === seat) roles.push("FIRST CAPPU");
  if (s.manguno === seat) roles.push("MANGUNO");
  if (s.mattikkeng.includes(seat)) roles.push("MATTIKKENG");
  if (s.cucuq === seat) roles.push("CUCUQ");
  if (s.finish === "ceki" && s.first_cappu === seat) roles.push("CEKI");
  if (s.finish === "pollo" && s.first_cappu === seat) roles.push("POLLO");
  return roles;
}

/**
 * The summary as an element. `o`: {summary, names, number, events (the round's events,
 * for the stones moved during it), actions (an element with buttons, or null)}.
 */
export function summaryElement(o) {
  const s = o.summary;
  const names = o.names;
  const box = h("section", { class: "summary", "data-round-summary": "", "aria-labelledby": "summary-title" });
  box.appendChild(h("h2", { id: "summary-title", text: t("summary.title", { n: o.number }) }));
  // the buttons first: "Next round" in view without scrolling (a bar that stays on top
  // of a phone's screen), and first for Tab, the glossary's terms after it
  if (o.actions) {
    o.actions.classList.add("action-bar");
    box.appendChild(o.actions);
  }
  box.appendChild(setTermText(h("p", { class: "ending" }), endingText(s, names)));
  // a computer played for someone in this round (away, or out of time): said plainly
  const standIns = standInSeats(o.events);
  if (standIns.length) {
    const who = standIns.map((seat) => names[seat]).join(", ");
    box.appendChild(h("p", { class: "stand-in-note", "data-stand-in-note": "", text: t("summary.stand_ins", { who }) }));
  }
  if (s.camat_elected) {
    box.appendChild(setTermText(h("p", { class: "camat-news" }), t("ev.camat", { who: names[s.camat], titles: s.titles[s.camat] })));
  }

  // the hands
  const hands = h("table", { class: "hands" });
  const head = h("tr");
  for (const k of ["summary.player", "summary.tiles_left", "summary.pips", "summary.role"]) head.appendChild(h("th", { class: k === "summary.pips" ? "num" : "", text: t(k) }));
  hands.appendChild(h("thead", {}, [head]));
  const body = h("tbody");
  for (let seat = 0; seat < 5; seat++) {
    const row = h("tr", { class: seat === s.winner ? "won" : "" });
    row.appendChild(h("td", { text: names[seat] }));
    const tiles = h("div", { class: "tiles" });
    if (!s.hands[seat].length) tiles.appendChild(h("span", { class: "muted", text: "—" }));
    for (const tn of s.hands[seat]) tiles.appendChild(tileIcon(tn));
    row.appendChild(h("td", {}, [tiles]));
    row.appendChild(h("td", { class: "num", text: String(s.pip_totals[seat]) }));
    const roles = roleBadges(s, seat);
    const cell = h("td", { html: roles.map((r) => termify(r)).join(" ") });
    if (seat === s.winner) cell.insertAdjacentHTML("afterbegin", `<span class="win-mark">${escapeHtml(t("summary.won"))}</span> `);
    row.appendChild(cell);
    body.appendChild(row);
  }
  hands.appendChild(body);
  const grid = h("div", { class: "summary-grid" });
  const left = h("div", { class: "scroll" }, [hands]);
  grid.appendChild(left);

  const unused = h("p", { class: "unused" });
  unused.appendChild(h("span", { text: `${t("summary.unused")}: ` }));
  for (const tn of s.unused) unused.appendChild(tileIcon(tn));
  left.appendChild(unused);

  // stones
  const movedTitle = setTermText(h("h3"), t("summary.stones_moved"));
  const moved = h("ul", { class: "transfers" });
  const stonesEvents = (o.events || []).filter((e) => e.kind === "stones");
  const shown = stonesEvents.length ? stonesEvents : s.transfers.map((x) => ({ kind: "stones", ...x }));
  for (const e of shown) moved.appendChild(setTermText(h("li"), describe(e, names)));
  if (!shown.length) moved.appendChild(h("li", { text: t("summary.no_stones") }));
  // fewer than the rules give (the table ran out, the givers had too few): a CEKI that
  // brought 1 STONES would look like a mistake
  const award = s.award;
  if (award && award.received < award.owed) {
    const vars = { who: names[award.receiver], owed: stonesText(award.owed), got: stonesText(award.received) };
    moved.appendChild(setTermText(h("li", { class: "short", "data-short": "" }), t("summary.short", vars)));
  }

  // standings
  const right = h("div", { class: "scroll" });
  grid.appendChild(right);
  right.appendChild(h("h3", { class: "standings-title", text: t("summary.standings") }));
  const st = h("table", { class: "standings" });
  const sh = h("tr");
  for (const k of ["summary.player", "summary.stones", "summary.titles"]) sh.appendChild(h("th", { class: k === "summary.player" ? "" : "num", html: termify(t(k)) }));
  st.appendChild(h("thead", {}, [sh]));
  const sb = h("tbody");
  for (let seat = 0; seat < 5; seat++) {
    const row = h("tr");
    const nameCell = h("td", { text: names[seat] });
    if (s.camat === seat) nameCell.insertAdjacentHTML("beforeend", ` ${termify("CAMAT")}`);
    row.appendChild(nameCell);
    row.appendChild(h("td", { class: "num", text: String(s.stones[seat]) }));
    row.appendChild(h("td", { class: "num", text: String(s.titles[seat]) }));
    sb.appendChild(row);
  }
  st.appendChild(sb);
  right.appendChild(st);
  right.appendChild(setTermText(h("p", { class: "muted" }), t("summary.table_holds", { stones: stonesText(s.table) })));
  box.appendChild(grid);
  box.appendChild(movedTitle);
  box.appendChild(moved);
  return box;
}
