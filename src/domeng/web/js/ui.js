// Messages to the player (errors are shown, never swallowed) and the glossary popover.

import { escapeHtml, t, termMeaning } from "./i18n.js";

const TOAST_MS = 8000;
const TOASTS_SHOWN = 3; // more at once would cover the board: the oldest goes

/**
 * Show `text` in a toast (kind "error" or "note"). The same words already showing are
 * said once: that toast stays (its time starts again) and no second one is added, so a
 * burst of refusals (a flood of chat) is one line, not a pile over the table.
 */
function toast(text, kind, code = "") {
  const box = document.getElementById("toasts");
  const same = [...box.children].find((n) => n.dataset.text === text && n.dataset.kind === kind);
  if (same) {
    clearTimeout(Number(same.dataset.timer));
    same.dataset.timer = String(setTimeout(() => same.remove(), TOAST_MS));
    return same;
  }
  const n = document.createElement("div");
  n.className = `toast ${kind}`;
  n.setAttribute("role", kind === "error" ? "alert" : "status");
  n.dataset.text = text;
  n.dataset.kind = kind;
  if (code) n.dataset.code = code; // for the curious (and the tests): never shown as such
  const words = document.createElement("span");
  words.textContent = text;
  n.appendChild(words);
  const close = document.createElement("button");
  close.type = "button";
  close.className = "toast-close";
  close.setAttribute("aria-label", t("close"));
  close.textContent = "×";
  close.addEventListener("click", () => n.remove());
  n.appendChild(close);
  box.appendChild(n);
  while (box.children.length > TOASTS_SHOWN) box.firstElementChild.remove();
  n.dataset.timer = String(setTimeout(() => n.remove(), TOAST_MS));
  return n;
}

/** The errors showing, taken away: what they said no longer holds (the name refused,
 * another taken, the seat is the person's now). */
export function dismissErrors() {
  for (const n of [...document.getElementById("toasts").children]) {
    if (n.dataset.kind === "error") {
      clearTimeout(Number(n.dataset.timer));
      n.remove();
    }
  }
}

/** A piece of news for the player (not an error). */
export function showNote(message) {
  toast(message, "note");
}

export function showError(message) {
  toast(message, "error");
}

/** Show a dialog's `layer` on the page, closed by Escape as by its own buttons; answers
 *  its close(). */
export function openLayer(layer) {
  const onKey = (ev) => {
    if (ev.key === "Escape") close();
  };
  const close = () => {
    layer.remove();
    document.removeEventListener("keydown", onKey);
  };
  document.addEventListener("keydown", onKey);
  document.body.appendChild(layer);
  return close;
}

/** The words of a refusal's code in the chosen language (a code without words of its
 * own: "the table service refused this"); the code itself is never shown. */
export function refusalText(code) {
  const known = t(`error.${code}`);
  return known === `error.${code}` ? t("error.other") : known;
}

/** An error the service sent: its meaning in the chosen language, said once. */
export function showServiceError(code, message) {
  toast(refusalText(code), "error", code || "other");
  console.info(`service error ${code}: ${message}`);
}

export function showApiError(e) {
  showServiceError(e.code || "other", e.message);
}

/** Tap or focus a term: its meaning in a small popover (hover shows the title too). */
export function installGlossary() {
  const pop = document.getElementById("glossary-pop");
  function show(target) {
    const term = target.dataset.term;
    pop.innerHTML = `<strong>${escapeHtml(term)}</strong> — ${escapeHtml(termMeaning(term))}`;
    pop.hidden = false;
    const r = target.getBoundingClientRect();
    const x = Math.min(window.innerWidth - 300, Math.max(8, r.left + window.scrollX));
    pop.style.left = `${x}px`;
    pop.style.top = `${r.bottom + window.scrollY + 6}px`;
  }
  // the target of a click or a focus is a node, or the document or window (no closest)
  document.addEventListener("click", (/** @type {{ target: any }} */ ev) => {
    const term = ev.target.closest && ev.target.closest(".term");
    if (term) show(term);
    else pop.hidden = true;
  });
  document.addEventListener("focusin", (/** @type {{ target: any }} */ ev) => {
    if (ev.target.classList && ev.target.classList.contains("term")) show(ev.target);
    else pop.hidden = true;
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") pop.hidden = true;
  });
}
