// The browser table of Domeng: a small router over the pages, the language menu, the
// glossary. No build step: plain JavaScript modules served by `domeng serve`.

import { takeHandoff } from "./handoff.js";
import { api } from "./api.js";
import { LANGUAGES, preferredLanguage, setLanguage, t, translateTree } from "./i18n.js";
import { installGlossary, showApiError } from "./ui.js";
import { claimGuest, claimPage, clubBar, clubSession, signInPage } from "./club.js";
import { PAGES, pageOf } from "./pages.js";

const view = document.getElementById("view");
let current = null;

let routing = 0; // the address shown last: a page whose module comes late is not drawn

async function route() {
  const mine = ++routing;
  // the page left goes at once (nothing of it is seen, nor acts, while the next comes)
  if (current) current.unmount();
  current = null;
  view.replaceChildren();
  const [name, draw] = pageOf(location.hash, !!window.domengClub.member);
  // the start page for any other address too
  document.body.dataset.page = name === "lobby" ? "lobby" : location.hash.replace(/^#\/?/, "").split("/")[0];
  let module;
  try {
    module = await PAGES[name]();
  } catch (e) {
    showApiError(e);
    return;
  }
  if (mine !== routing) return;
  current = draw(module, view);
  document.title = `Domeng — ${t(titleKey(document.body.dataset.page))}`;
  window.scrollTo(0, 0);
}

/** The key of a page's title (the players' pages keep theirs in their own group). */
function titleKey(page) {
  return { player: "players.title_player", leaderboard: "players.title_leaderboard", members: "club.members_title", club: "club.sign_in_title" }[page] || `title.${page}`;
}

/** "Hindi" in the page's other languages (what Intl.DisplayNames says, written here:
 * building one costs the page a long task at load on a phone). */
const HINDI = { en: "Hindi", id: "Hindi", tr: "Hintçe", pt: "híndi", nl: "Hindi" };

/** A language's name in the menu: in itself, and Hindi's also in the page's language
 * ("हिन्दी (Hindi)"), so that where the system has no Devanagari font of its own (the
 * menu draws with the system's fonts outside a Hindi page, see style.css) it can still
 * be found. */
function menuLabel(code, label) {
  const page = document.documentElement.lang;
  if (code !== "hi" || page === "hi") return label;
  return `${label} (${HINDI[page] || "Hindi"})`;
}

function labelMenu(menu) {
  for (const o of menu.options) o.textContent = menuLabel(o.value, LANGUAGES.find(([c]) => c === o.value)[1]);
}

function languageMenu() {
  const menu = /** @type {HTMLSelectElement} */ (document.querySelector("[data-language-menu]"));
  menu.replaceChildren(
    ...LANGUAGES.map(([code]) => {
      const o = document.createElement("option");
      o.value = code;
      o.lang = code;
      return o;
    }),
  );
  labelMenu(menu);
  menu.value = document.documentElement.lang;
  menu.addEventListener("change", async () => {
    await setLanguage(menu.value);
    labelMenu(menu);
    translateTree(document);
    document.title = `Domeng — ${t(titleKey(document.body.dataset.page))}`;
    if (window.domengClub && window.domengClub.member) clubBar();
    if (current) current.render();
  });
}

async function start() {
  // asked for at once, while the language file comes (not one after the other)
  /** @type {Promise<{doc?: any, error?: any}>} */
  const info = api("GET", "/api").then(
    (doc) => ({ doc }),
    (error) => ({ error }),
  );
  const session = clubSession(); // a club's: who is signed in (at home: no club)
  await setLanguage(preferredLanguage());
  translateTree(document);
  languageMenu();
  installGlossary();
  window.domengClub = await session;
  if (window.domengClub.club && !(await signedIn())) return; // a stranger: the club's door
  const { doc, error } = await info;
  if (error) showApiError(error);
  else {
    window.domengInfo = doc;
    const addrs = window.domengInfo.addresses || [];
    const lan = addrs.find((a) => !/\/\/(127\.|localhost|\[::1\])/.test(a));
    window.domengAddress = lan || location.origin;
  }
  window.addEventListener("hashchange", route);
  takeHandoff(); // a seat brought from another device (handoff.js)
  const params = new URLSearchParams(location.search);
  if (params.has("new")) {
    history.replaceState(null, "", location.pathname + location.hash);
    try {
      await (await PAGES.lobby()).newGame();
    } catch (e) {
      showApiError(e);
    }
  }
  // the page drawn in a task of its own: its module is here already (pages.js asked for
  // it at once), and drawn in the same task as the language's texts it made one long
  // task of the two on a phone, which Lighthouse counts against the page (blocking time)
  await new Promise((resolve) => setTimeout(resolve, 0));
  await route();
  document.body.dataset.ready = "true";
}

/** In a club: whether a member is signed in; if not, the sign-in page (or the page of a
 *  one-time link) shows, and the page starts again once they are. */
async function signedIn() {
  const params = new URLSearchParams(location.search);
  const again = () => location.replace(location.pathname + location.hash);
  const guest = params.get("guest");
  if (guest) {
    try {
      const doc = await claimGuest(guest);
      location.replace(`${location.pathname}#/table/${encodeURIComponent(doc.member.table)}`);
    } catch (e) {
      showApiError(e);
    }
    return false;
  }
  const code = params.get("claim");
  document.body.dataset.page = "club";
  if (code) {
    current = claimPage(view, code, again);
    document.title = `Domeng — ${t("club.claim_title")}`;
  } else if (!window.domengClub.member) {
    current = signInPage(view, again);
    document.title = `Domeng — ${t("club.sign_in_title")}`;
  } else {
    clubBar();
    return true;
  }
  document.body.dataset.ready = "true";
  return false;
}

start();
