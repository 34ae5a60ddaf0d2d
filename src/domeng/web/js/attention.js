// Calling a player back: when the page is hidden (another tab, another app on the phone)
// and it becomes their turn, or a round waits for them to say they are ready, the tab's
// title and icon say so, a sound plays (unless muted) and a phone vibrates. All is put
// back as the page is seen again.

import { t } from "./i18n.js";
import { soundOn } from "./settings.js";
import { playSound } from "./sound.js";

// the page's icon with a red dot in its corner
const CALLING_ICON = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect x="14" y="4" width="36" height="56" rx="8" fill="#fbf7ec" stroke="#3a3026" stroke-width="4"/><line x1="18" y1="32" x2="46" y2="32" stroke="#3a3026" stroke-width="3"/><circle cx="32" cy="18" r="5" fill="#1d1a16"/><circle cx="32" cy="46" r="5" fill="#1d1a16"/><circle cx="50" cy="14" r="13" fill="#d93025" stroke="#fff" stroke-width="3"/></svg>',
)}`;
const BUZZ = [180, 90, 180];

export function createAttention() {
  let calling = null; // "turn" or "round" while the page calls its player back
  let wanted = null; // what the last drawing would call for
  let title = "";
  let icon = null;

  const link = () => document.querySelector('link[rel~="icon"]');

  function call(kind, spectator) {
    if (!calling) {
      title = document.title;
      icon = link() ? link().getAttribute("href") : null;
    }
    calling = kind;
    document.title = `● ${t(`attention.${kind}`)} — Domeng`;
    if (link()) link().setAttribute("href", CALLING_ICON);
    document.documentElement.dataset.attention = kind;
    // the turn's own sound is the living table's (living.js), heard wherever the page is
    if (kind === "round" && soundOn(spectator)) playSound("turn");
    if (typeof navigator.vibrate === "function") navigator.vibrate(BUZZ);
  }

  function calm() {
    if (!calling) return;
    calling = null;
    document.title = title;
    if (link() && icon !== null) link().setAttribute("href", icon);
    delete document.documentElement.dataset.attention;
  }

  const onVisible = () => {
    if (!document.hidden) calm();
  };
  document.addEventListener("visibilitychange", onVisible);

  return {
    /** After each drawing: `myTurn`, `roundWaits` (a round's summary waits for this
     * player's "next round"); a call starts as either becomes true while hidden. */
    update({ myTurn, roundWaits, spectator }) {
      const want = myTurn ? "turn" : roundWaits ? "round" : null;
      if (!want) calm();
      else if (document.hidden && want !== wanted) call(want, spectator);
      wanted = want;
    },
    unmount() {
      calm();
      document.removeEventListener("visibilitychange", onVisible);
    },
  };
}
