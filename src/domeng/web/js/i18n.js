// Languages: every visible text comes from i18n/<lang>.json; the game's terms stay
// untranslated and are explained on hover or tap (the glossary).

import { LANGUAGES, STORE, languageFile, preferredLanguage } from "./language.js";

export { LANGUAGES, preferredLanguage };

/** The game's own words, never translated (longest first, for matching). */
export const TERMS = [
  "LAST DOMINO",
  "LAST MAPPANO",
  "FIRST CAPPU",
  "MAPPAKULING",
  "PASSEBUNGE",
  "MATTIKKENG",
  "MANGUNO",
  "STONES",
  "LEMPA",
  "CUCUQ",
  "CAMAT",
  "CEKI",
  "POLLO",
  "PASS",
];

let dict = {};
let lang = "en";
const cache = {};

/** A group of texts (`"living": {"mute": ...}`) is asked for as "living.mute". */
function withGroups(doc) {
  for (const [group, texts] of Object.entries(doc)) {
    if (group === "terms" || !texts || typeof texts !== "object" || Array.isArray(texts)) continue;
    for (const [k, v] of Object.entries(texts)) if (typeof v === "string") doc[`${group}.${k}`] ??= v;
  }
  return doc;
}

async function fetchLang(code) {
  if (!cache[code]) {
    cache[code] = withGroups(await languageFile(code));
  }
  return cache[code];
}

export async function setLanguage(code) {
  dict = await fetchLang(code);
  lang = code;
  localStorage.setItem(STORE, code);
  document.documentElement.lang = code;
}

export function language() {
  return lang;
}

/** A text by key, with {placeholders} filled in; a missing key shows the key itself. */
export function t(key, vars = {}) {
  let s = dict[key];
  const dot = key.indexOf(".");
  if (s === undefined && dot > 0 && typeof dict[key.slice(0, dot)] === "object") s = dict[key.slice(0, dot)][key.slice(dot + 1)]; // a group's text
  if (s === undefined) {
    console.warn(`missing text ${key} (${lang})`);
    s = key;
  }
  if (typeof s !== "string") return s;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

/**
 * A computer level by the name players know it by, in the current language: the
 * ladder's ("Club player" for expert:fast; docs/bots.md, "The ladder"), or the
 * level's own name when the ladder has none for it.
 */
export function levelName(level) {
  const name = dict[`ladder.${level}`];
  return typeof name === "string" ? name : level;
}

/**
 * A seat's name for display. A computer seat keeps the name the table gave it
 * (the record stores "Besse (expert:fast)"); the level in brackets is shown by the
 * ladder's name in the current language instead ("Besse · Club player", the name
 * the start page and the leaderboard give that level), or left out when `withLevel`
 * is false ("Besse", for the running account).
 */
export function seatName(seat, withLevel = true) {
  const name = String(seat.name ?? "");
  if (seat.kind === "computer" && seat.level) {
    const suffix = ` (${seat.level})`;
    if (name.endsWith(suffix)) {
      const base = name.slice(0, -suffix.length);
      return withLevel ? `${base} · ${levelName(seat.level)}` : base;
    }
  }
  return name;
}

/** The explanation of a term in the current language. */
export function termMeaning(term) {
  return (dict.terms || {})[term] || "";
}

const plurals = {};

/** The language's plural rules, made once (each new one is slow to make). */
export function pluralRules(code) {
  plurals[code] ??= new Intl.PluralRules(code);
  return plurals[code];
}

/** A count of STONES (singular and plural forms per language). */
export function stonesText(n) {
  const forms = dict.n_stones;
  const rule = pluralRules(lang).select(n);
  const form = forms[rule] ?? forms.other;
  return form.replace("{n}", String(n));
}

const numberFormats = {};

/**
 * `x` written as the page's language writes numbers: its decimal sign and grouping
 * ("0,14" in Indonesian, Dutch, Portuguese and Turkish, where "1.200" reads as twelve
 * hundred), `digits` digits after the sign (null: as many as it has, up to 3), a "+"
 * before a positive number when `sign` (as the terminal's Words.number).
 */
export function numberText(x, digits = null, sign = false) {
  const key = `${lang} ${digits} ${sign}`;
  const options = digits === null ? { maximumFractionDigits: 3 } : { minimumFractionDigits: digits, maximumFractionDigits: digits };
  numberFormats[key] ??= new Intl.NumberFormat(lang, { ...options, ...(sign ? { signDisplay: "always" } : {}) });
  return numberFormats[key].format(Number(x) || 0); // no "-0"
}

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

const TERM_RE = new RegExp(`\\b(${TERMS.join("|")})\\b`, "g");

/** HTML of a text with every term wrapped for the glossary (escaped). */
export function termify(s) {
  return escapeHtml(s).replace(TERM_RE, (term) => {
    const meaning = escapeHtml(termMeaning(term));
    return `<abbr class="term" tabindex="0" data-term="${term}" title="${meaning}">${term}</abbr>`;
  });
}

/** Put a text with glossary terms into an element. */
export function setTermText(node, s) {
  node.innerHTML = termify(s);
  return node;
}

/** Fill every [data-i18n] element of `root` (and [data-i18n-attr]="attr:key"). */
export function translateTree(root) {
  for (const n of root.querySelectorAll("[data-i18n]")) setTermText(n, t(n.dataset.i18n));
  for (const n of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of n.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      n.setAttribute(attr, t(key));
    }
  }
}
