// The language the page starts in, and its texts asked for at once: index.html runs this
// module on its own (it imports nothing), so the language file comes while the other
// modules do, not after them. i18n.js reads the texts from here.

export const LANGUAGES = [
  ["en", "English"],
  ["id", "Bahasa Indonesia"],
  ["tr", "Türkçe"],
  ["pt", "Português"],
  ["nl", "Nederlands"],
  ["hi", "हिन्दी"],
];

export const STORE = "domeng.lang";

/** The language to start with: asked in the address (?lang=id, as `domeng --lang id` and
 * docs/rules.md open it), else remembered, else the browser's, else English. */
export function preferredLanguage() {
  const known = LANGUAGES.map(([c]) => c);
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && known.includes(asked)) return asked;
  const saved = localStorage.getItem(STORE);
  if (saved && known.includes(saved)) return saved;
  for (const l of navigator.languages || []) {
    const c = l.slice(0, 2).toLowerCase();
    if (known.includes(c)) return c;
  }
  return "en";
}

const asked = {};

/** A language file's texts (a promise), asked for once; relative to this module, so with
 * the same version in its address as the page's (server/webfiles.py: kept for good). */
export function languageFile(code) {
  asked[code] ??= fetch(new URL(`../i18n/${code}.json`, import.meta.url)).then((r) => {
    if (!r.ok) throw new Error(`language ${code}: ${r.status}`);
    return r.json();
  });
  asked[code].catch(() => delete asked[code]); // asked again next time
  return asked[code];
}

languageFile(preferredLanguage());
