// The coach in the browser: the Hint button at the table (the coach's best tile marked
// on the board, and why, in the reader's language), the review of a seat's decisions in
// a finished round (after the round, and in the replay), and the chart of the coach's
// beliefs about the hidden hands. The texts are the language file's "coach" group.

import { api } from "./api.js";
import { language, numberText, setTermText, stonesText as countOfStones, t } from "./i18n.js";
import { h } from "./summary.js";

/** A text of the "coach" group, with {placeholders} filled in. */
export function ct(key, vars = {}) {
  const group = t("coach");
  let s = group && typeof group === "object" ? group[key] : undefined;
  if (typeof s !== "string") {
    console.warn(`missing text coach.${key}`);
    s = `coach.${key}`;
  }
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

function tileText(tile) {
  return `[${tile.replace("-", "|")}]`;
}

/** A move in words: its tile and end, or, for the round's first play (`opening`), the
 * tile that opens the line (an empty line has no end). */
function moveText(m, opening = false) {
  return ct(opening ? "move_open" : `move_${m.end}`, { tile: tileText(m.tile) });
}

function stonesText(x, sign = false) {
  return numberText(x, 2, sign);
}

/** A value as the page shows it, to the hundredth. */
function hundredths(x) {
  return Number(Number(x).toFixed(2));
}

/** A decision's loss from its values as the page shows them (the best's less the played
 * move's), so that the numbers on the page agree with one another: -1.96 and -2.07 shown,
 * the loss is 0.11, even when the values themselves are 0.104 apart. */
export function shownLoss(d) {
  const value = (m) => d.moves.find((x) => x.tile === m.tile && x.end === m.end)?.value;
  const best = value(d.best);
  const played = value(d.played);
  if (best === undefined || played === undefined) return hundredths(d.loss);
  return hundredths(hundredths(best) - hundredths(played));
}

/** The shown losses of a review, added up: its total, and its decisions' part of the
 * stones the seat received. */
export function shownTotal(doc) {
  if (!doc.decisions) return hundredths(doc.luck_skill ? doc.luck_skill.decisions : doc.total_loss || 0);
  return hundredths(doc.decisions.reduce((sum, d) => sum + shownLoss(d), 0));
}

/** One of the coach's reasons (docs/bots.md, "The coach") as a sentence. */
export function reasonText(r, names) {
  return ct(`reason.${r.key}`, {
    seat: r.seat !== undefined ? names[r.seat] : "",
    number: r.number !== undefined ? r.number : "",
    other: r.other !== undefined ? r.other : "",
    tile: r.tile ? tileText(r.tile) : "",
    end: r.end ? ct(`end_${r.end}`) : "",
    finish: r.finish || "",
    stones: r.stones !== undefined ? stonesText(r.stones) : "",
  });
}

/** The new table's `hints` setting: a label and a select (auto, on, off). */
export function hintsSetting(select, label) {
  label.textContent = ct("setting");
  const now = select.value || "auto";
  select.replaceChildren(...["auto", "on", "off"].map((k) => h("option", { value: k, selected: k === now, text: ct(`setting_${k}`) })));
}

/** How many hints a seat asked for, for the standings ("" for none). */
export function hintsNote(seat) {
  return seat && seat.hints ? ct("hints_n", { n: seat.hints }) : "";
}

/**
 * The Hint button and the coach's answer at the table. `send(message)` sends on the
 * connection of the seat shown and answers the message's id (null: not sent).
 */
export function createHints(box, { send }) {
  const st = { asked: null, hint: null, refused: null };
  box.classList.add("coach-hint");
  box.dataset.hintBox = "";

  function came(msg) {
    st.asked = null;
    st.refused = null;
    st.hint = msg;
  }

  function refused(replyTo) {
    if (st.asked !== null && replyTo === st.asked) {
      st.asked = null;
      return true;
    }
    return false;
  }

  /** The tile the coach marks on the board, while the position it was asked in lasts. */
  function marked(state) {
    return st.hint && st.hint.state === state ? st.hint.best.tile : null;
  }

  /** `o`: {table, myTurn, state, names, opening (the line is empty: the hint's move opens it)}. */
  function render(o) {
    const on = !!(o.table && o.table.hints && o.table.status === "playing");
    box.hidden = !on;
    if (!on) {
      box.replaceChildren();
      return;
    }
    const fresh = st.hint && st.hint.state === o.state;
    const parts = [];
    const button = h("button", { type: "button", class: "small hint-button", "data-hint": "", text: ct("hint") });
    button.title = ct("hint_title");
    button.disabled = !o.myTurn || st.asked !== null || fresh;
    button.addEventListener("click", () => {
      const id = send({ type: "hint" });
      if (id !== null) {
        st.asked = id;
        render(o);
      }
    });
    parts.push(button);
    if (st.asked !== null) parts.push(h("span", { class: "muted", "data-hint-thinking": "", text: ct("thinking") }));
    else if (fresh && o.myTurn) {
      const best = st.hint.best;
      const said = h("p", { class: "hint-text", "data-hint-text": "" });
      const why = st.hint.reasons.map((r) => reasonText(r, o.names)).join(" ");
      setTermText(said, `${ct("best", { move: moveText(best, !!o.opening) })} ${why}`.trim());
      parts.push(said);
    }
    box.replaceChildren(...parts);
  }

  return { came, refused, marked, render };
}

/** The coach's beliefs: per other seat, the chance that it holds each number 0-6. */
export function beliefsChart(numbers, names, seat) {
  const box = h("div", { class: "beliefs", "data-beliefs": "" });
  box.appendChild(h("h3", { text: ct("beliefs_title") }));
  for (let s = 0; s < numbers.length; s++) {
    if (s === seat) continue;
    const row = h("div", { class: "beliefs-row", "data-beliefs-seat": s });
    row.appendChild(h("span", { class: "beliefs-who", text: names[s] }));
    const bars = h("span", { class: "beliefs-bars", role: "img" });
    bars.setAttribute("aria-label", ct("beliefs_of", { seat: names[s], chances: numbers[s].map((p, n) => `${n}: ${Math.round(p * 100)}%`).join(", ") }));
    numbers[s].forEach((p, n) => {
      const bar = h("span", { class: "bar", title: `${n}: ${Math.round(p * 100)}%` }, [h("span", { class: "fill" }), h("span", { class: "num", text: String(n) })]);
      bar.firstChild.style.height = `${Math.round(p * 100)}%`;
      bars.appendChild(bar);
    });
    row.appendChild(bars);
    box.appendChild(row);
  }
  return box;
}

/** One reviewed decision (`domeng review --json`'s) as an element. */
export function decisionElement(d, names, { beliefs = false, seat = -1 } = {}) {
  const item = h("li", { class: `decision${d.mark ? ` ${d.mark}` : ""}`, "data-decision": d.index });
  const opening = d.index === 0; // the round's first play opens the line
  const head = ct("decision", { n: d.index + 1, played: moveText(d.played, opening), best: moveText(d.best, opening), loss: stonesText(shownLoss(d)) });
  item.appendChild(h("p", { class: "decision-head", text: head }));
  if (d.mark) item.appendChild(h("strong", { class: "mark", "data-mark": d.mark, text: ct(`mark_${d.mark}`) }));
  const moves = h("p", { class: "muted decision-moves", text: d.moves.map((m) => `${moveText(m, opening)} ${stonesText(m.value, true)}`).join(" · ") });
  item.appendChild(moves);
  if (d.reasons.length) item.appendChild(setTermText(h("p", { class: "decision-why" }), d.reasons.map((r) => reasonText(r.stones === undefined ? r : { ...r, stones: shownLoss(d) }, names)).join(" ")));
  item.appendChild(h("p", { class: "muted hindsight", "data-hindsight": "", text: ct("hindsight", { played: stonesText(d.hindsight.played), best: moveText(d.hindsight.best, opening), value: stonesText(d.hindsight.best.value) }) }));
  if (d.stand_in) item.appendChild(h("p", { class: "muted", text: ct("stand_in") }));
  if (beliefs && d.numbers) item.appendChild(beliefsChart(d.numbers, names, seat));
  return item;
}

/**
 * Luck and skill apart (`data-luck-skill`): of the stones the seat received in the round,
 * those its decisions cost (the sum of its losses) and those the deal brought; null when
 * the review has no such figures.
 */
export function luckSkillElement(doc, names) {
  const ls = doc.luck_skill;
  if (!ls) return null;
  // the decisions' part as the losses shown add up, the deal's the rest of the stones
  const skill = shownTotal(doc);
  const text = ct("luck_skill", { who: names[doc.seat], received: countOfStones(ls.received), skill: stonesText(skill), luck: stonesText(ls.received - skill) });
  const p = h("p", { class: "luck-skill", "data-luck-skill": "" });
  p.dataset.decisions = String(ls.decisions);
  p.dataset.deal = String(ls.deal);
  return setTermText(p, text);
}

/** The form of a count of `n` in the page's language ("1 decision", "2 decisions"). */
function oneOrOther(n) {
  return new Intl.PluralRules(language()).select(n) === "one" ? "one" : "other";
}

/** A round's review (GET .../review) as an element (`data-review`). */
export function reviewElement(doc, names) {
  const box = h("section", { class: "review-card", "data-review": "" });
  box.appendChild(h("h2", { text: ct("review_title", { who: names[doc.seat], n: doc.round }) }));
  const luck = luckSkillElement(doc, names);
  if (luck) box.appendChild(luck);
  if (!doc.decisions.length) {
    box.appendChild(h("p", { class: "muted", text: ct("review_none") }));
    return box;
  }
  box.appendChild(h("ol", { class: "decisions" }, doc.decisions.map((d) => decisionElement(d, names))));
  const mistakes = doc.decisions.filter((d) => d.mark === "mistake").length;
  const blunders = doc.decisions.filter((d) => d.mark === "blunder").length;
  box.appendChild(h("p", { class: "review-total", "data-review-total": "", text: ct(`total_${oneOrOther(doc.decisions.length)}`, { stones: stonesText(shownTotal(doc)), n: doc.decisions.length, mistakes, blunders }) }));
  box.appendChild(h("p", { class: "muted small", text: ct("trust") }));
  return box;
}

/** The review of `seat` in round `round` (from 1), from a table or a record file. */
export function fetchReview(source, seat, round) {
  const query = `seat=${seat}&round=${round}`;
  if (source.kind === "table") return api("GET", `/api/tables/${encodeURIComponent(source.id)}/review?${query}`);
  return api("POST", `/api/review?${query}`, source.doc || "{}");
}

/** Reviews asked for, by seat and round: each fetched once. `changed()` redraws. */
export function reviewCache(source, changed, failed) {
  const got = {};
  return {
    get(seat, round) {
      const key = `${seat}/${round}`;
      if (!(key in got)) {
        got[key] = null;
        fetchReview(source, seat, round)
          .then((doc) => {
            got[key] = doc;
            changed();
          })
          .catch((e) => {
            delete got[key];
            failed(e);
          });
      }
      return got[key];
    },
  };
}
