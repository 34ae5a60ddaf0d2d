// Players who come back: the profile this browser plays under, picked on the start page
// or made there, kept like a seat token (domeng.profile). A seat taken with it counts
// for the profile: its figures, its page, its rating.

import { api } from "./api.js";
import { numberText, t } from "./i18n.js";
import { h } from "./summary.js";
import { showApiError, showError } from "./ui.js";

/** A player's figures, each with the text that names it (the game's words as they are). */
export const FIGURES = [
  ["games", "players.games"],
  ["rounds", "players.rounds"],
  ["stones_per_round", "players.stones_per_round"],
  ["camat", "players.camat_titles"],
  ["camat_per_100_rounds", "players.camat_per_100"],
  ["rounds_won", "players.rounds_won"],
  ["ceki", "CEKI"],
  ["pollo", "POLLO"],
  ["manguno", "MANGUNO"],
  ["mattikkeng", "MATTIKKENG"],
  ["passebunge_per_round", "players.passebunge_per_round"],
];

/** The words for a figure's text key: a key is looked up, a game's word stays as it is. */
export function figureLabel(key) {
  return key.includes(".") ? t(key) : key;
}

const STORE = "domeng.profile";
const MORE = "\u0000more"; // the list's last choice while more people may follow (no id is this)

export const MARKS = {
  red: "#c0392b",
  orange: "#d35400",
  gold: "#b7950b",
  green: "#1e8449",
  teal: "#138d75",
  blue: "#2471a3",
  purple: "#7d3c98",
  pink: "#c2185b",
};

/** The profile this browser plays under ({id, name, mark, token}), or null. */
export function currentProfile() {
  try {
    const p = JSON.parse(localStorage.getItem(STORE) || "null");
    return p && p.id && p.token ? p : null;
  } catch {
    return null;
  }
}

/** Keep (or forget, with null) the profile this browser plays under. */
export function keepProfile(p) {
  keep(p);
}

function keep(p) {
  if (p) localStorage.setItem(STORE, JSON.stringify({ id: p.id, name: p.name, mark: p.mark, token: p.token }));
  else localStorage.removeItem(STORE);
}

/** What a seat's body adds to count for the profile: {profile: token}, or nothing. */
export function withProfile() {
  const p = currentProfile();
  return p ? { profile: p.token } : {};
}

/** A profile's coloured mark. */
export function markDot(mark) {
  const dot = h("span", { class: "mark-dot", "aria-hidden": "true" });
  dot.style.background = MARKS[mark] || MARKS.blue;
  return dot;
}

export function ratingText(p) {
  return t("players.rating_value", { rating: numberText(p.rating, 1), uncertainty: numberText(p.uncertainty, 1) });
}

/**
 * The picker on the start page, in `root`. `changed(profile or null)` is called when the
 * person picks, makes or leaves a profile. Answers {render()}.
 */
export function profilePicker(root, changed) {
  let people = null; // the service's person profiles fetched so far
  let next = null; // the cursor of the list's next page while more people may follow
  let me = null; // the current profile as the service has it now

  // One page of the profiles (people first, then the computer levels): its people added;
  // once a page holds a computer level, or is the last, every person has come.
  async function more() {
    const page = await api("GET", next ? `/api/profiles?cursor=${encodeURIComponent(next)}` : "/api/profiles");
    const found = page.profiles.filter((p) => p.kind === "person");
    people = [...(people || []), ...found];
    next = found.length === page.profiles.length ? page.next : null;
  }

  async function load() {
    try {
      await more();
      const kept = currentProfile();
      me = kept ? people.find((p) => p.id === kept.id) || null : null;
      if (kept && !me && next) {
        // not on the first page: asked for by itself
        try {
          me = (await api("GET", `/api/profiles/${encodeURIComponent(kept.id)}`)).profile;
        } catch (e) {
          if (e.status !== 404) throw e;
        }
      }
      if (kept && !me) keep(null); // the service no longer has it
    } catch (e) {
      people = people || [];
      showApiError(e);
    }
    render();
  }

  // "More players": the next page's people added to the list, the list kept open to them.
  async function loadMore(select) {
    try {
      await more();
    } catch (e) {
      showApiError(e);
      return;
    }
    const fresh = picker();
    select.replaceWith(fresh);
    fresh.focus();
    try {
      fresh.showPicker(); // open again, where the new names follow the ones seen
    } catch {
      // a browser without it, or the click's activation spent: the list is there to open
    }
  }

  async function pick(id) {
    try {
      const p = await api("POST", `/api/profiles/${encodeURIComponent(id)}/pick`);
      keep(p);
      me = p;
      changed(p);
    } catch (e) {
      showApiError(e);
    }
    render();
  }

  async function make(name, mark) {
    if (!name) {
      showError(t("lobby.name_needed"));
      return;
    }
    try {
      const p = await api("POST", "/api/profiles", { name, mark, language: document.documentElement.lang || "en" });
      keep(p);
      me = p;
      people = [...(people || []), p];
      changed(p);
    } catch (e) {
      if (e.code === "name_taken") showError(t("players.name_taken"));
      else showApiError(e);
    }
    render();
  }

  let early = null; // the form drawn before the profiles came: {row, help}

  function render() {
    const waiting = people === null;
    if (!waiting && !me && early && early.row.isConnected) {
      // the profiles came after the form was drawn (at once, so that the page does not
      // jump when they come): the picker and its help put in, what was typed kept
      if (people.length) early.row.prepend(picker());
      early.help.textContent = people.length ? t("players.help") : t("players.none_yet");
      early = null;
      return;
    }
    early = null;
    root.replaceChildren();
    root.dataset.profileBox = "";
    // while the profiles come, the profile kept here is shown as kept (its rating after)
    const shown = waiting ? currentProfile() : me;
    if (shown) {
      const line = h("p", { class: "profile-now", "data-profile-now": shown.id });
      const rating = waiting ? "" : `${t("players.rating")} ${ratingText(me)}`;
      line.append(markDot(shown.mark), h("strong", { text: t("players.playing_as", { name: shown.name }) }), " ", h("span", { class: "muted", text: rating }));
      const page = h("a", { class: "button small", href: `#/player/${encodeURIComponent(shown.id)}`, text: t("players.my_page") });
      const leave = h("button", { type: "button", class: "small", "data-profile-leave": "", text: t("players.change") });
      leave.addEventListener("click", () => {
        keep(null);
        me = null;
        changed(null);
        render();
      });
      line.append(" ", page, " ", leave);
      root.appendChild(line);
      return;
    }
    root.appendChild(h("h2", { class: "profile-title", text: t("players.who") }));
    const row = h("div", { class: "row" });
    if (people && people.length) row.appendChild(picker());
    const name = h("input", { maxlength: 40, autocomplete: "nickname", "data-profile-name": "", placeholder: t("players.new_name"), "aria-label": t("players.new_name") });
    const mark = h("select", { "data-profile-mark": "", "aria-label": t("players.mark") });
    for (const m of Object.keys(MARKS)) mark.appendChild(h("option", { value: m, text: t(`players.mark_${m}`) }));
    const create = h("button", { type: "button", "data-profile-create": "", text: t("players.create") });
    create.addEventListener("click", () => make(name.value.trim(), mark.value));
    name.addEventListener("keydown", (ev) => ev.key === "Enter" && make(name.value.trim(), mark.value));
    row.append(name, mark, create);
    root.appendChild(row);
    const help = h("p", { class: "muted small-print", text: people && people.length ? t("players.help") : t("players.none_yet") });
    root.appendChild(help);
    if (waiting) early = { row, help };
  }

  function picker() {
    const select = h("select", { "data-profile-pick": "", "aria-label": t("players.choose") });
    select.appendChild(h("option", { value: "", text: t("players.choose") }));
    for (const p of people) select.appendChild(h("option", { value: p.id, text: p.name }));
    if (next) select.appendChild(h("option", { value: MORE, "data-profile-more": "", text: t("players.more") }));
    select.addEventListener("change", () => {
      if (select.value === MORE) loadMore(select);
      else if (select.value) pick(select.value);
    });
    return select;
  }

  load();
  return { render };
}
