// The browser table of Domeng: a small router over the pages, the language menu, the
// glossary. No build step: plain JavaScript modules served by `domeng serve`.

import { api } from "./api.js";
import { LANGUAGES, preferredLanguage, setLanguage, t, translateTree } from "./i18n.js";
import { leaderboardPage } from "./leaderboard.js";
import { lobbyPage, newGame } from "./lobby.js";
import { playerPage } from "./player.js";
import { replayPage } from "./replay.js";
import { rulesPage } from "./rules.js";
import { tablePage } from "./table.js";
import { installGlossary, showApiError } from "./ui.js";

const view = document.getElementById("view");
let current = null;

function route() {
  if (current) current.unmount();
  current = null;
  const hash = location.hash.replace(/^#\/?/, "");
  const [page, arg] = hash.split("/");
  view.replaceChildren();
  document.body.dataset.page = page;
  if (page === "table" && arg) current = tablePage(view, decodeURIComponent(arg));
  else if (page === "watch" && arg) current = tablePage(view, decodeURIComponent(arg), { watch: true });
  else if (page === "replay" && arg) current = replayPage(view, { kind: "table", id: decodeURIComponent(arg) });
  else if (page === "replay-file") {
    current = replayPage(view, { kind: "file", doc: sessionStorage.getItem("domeng.record"), name: sessionStorage.getItem("domeng.record.name") });
  } else if (page === "rules") current = rulesPage(view);
  else if (page === "player" && arg) current = playerPage(view, decodeURIComponent(arg));
  else if (page === "leaderboard") current = leaderboardPage(view);
  else {
    document.body.dataset.page = "lobby"; // the start page, for any other address too
    current = lobbyPage(view);
  }
  document.title = `Domeng — ${t(titleKey(document.body.dataset.page))}`;
  window.scrollTo(0, 0);
}

/** The key of a page's title (the players' pages keep theirs in their own group). */
function titleKey(page) {
  return { player: "players.title_player", leaderboard: "players.title_leaderboard" }[page] || `title.${page}`;
}

/** A language's name in the menu: in itself, and Hindi's also in the page's language
 * ("हिन्दी (Hindi)"), so that where the system has no Devanagari font of its own (the
 * menu draws with the system's fonts outside a Hindi page, see style.css) it can still
 * be found. */
function menuLabel(code, label) {
  const page = document.documentElement.lang;
  if (code !== "hi" || page === "hi") return label;
  try {
    return `${label} (${new Intl.DisplayNames([page], { type: "language" }).of(code)})`;
  } catch {
    return `${label} (Hindi)`;
  }
}

function labelMenu(menu) {
  for (const o of menu.options) o.textContent = menuLabel(o.value, LANGUAGES.find(([c]) => c === o.value)[1]);
}

function languageMenu() {
  const menu = document.querySelector("[data-language-menu]");
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
    if (current) current.render();
  });
}

async function start() {
  await setLanguage(preferredLanguage());
  translateTree(document);
  languageMenu();
  installGlossary();
  try {
    window.domengInfo = await api("GET", "/api");
    const addrs = window.domengInfo.addresses || [];
    const lan = addrs.find((a) => !/\/\/(127\.|localhost|\[::1\])/.test(a));
    window.domengAddress = lan || location.origin;
  } catch (e) {
    showApiError(e);
  }
  window.addEventListener("hashchange", route);
  const params = new URLSearchParams(location.search);
  if (params.has("new")) {
    history.replaceState(null, "", location.pathname + location.hash);
    try {
      await newGame();
    } catch (e) {
      showApiError(e);
    }
  }
  route();
  document.body.dataset.ready = "true";
}

start();
