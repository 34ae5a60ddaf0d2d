// Messages to the player (errors are shown, never swallowed) and the glossary popover.

import { escapeHtml, t, termMeaning } from "./i18n.js";

function toast(html, kind) {
  const box = document.getElementById("toasts");
  const n = document.createElement("div");
  n.className = `toast ${kind}`;
  n.setAttribute("role", kind === "error" ? "alert" : "status");
  n.innerHTML = html;
  const close = document.createElement("button");
  close.type = "button";
  close.className = "toast-close";
  close.setAttribute("aria-label", t("close"));
  close.textContent = "×";
  close.addEventListener("click", () => n.remove());
  n.appendChild(close);
  box.appendChild(n);
  setTimeout(() => n.remove(), 8000);
}

/** A piece of news for the player (not an error). */
export function showNote(message) {
  toast(escapeHtml(message), "note");
}

export function showError(message) {
  toast(escapeHtml(message), "error");
}

/** An error the service sent: its meaning in the chosen language, and its code. */
export function showServiceError(code, message) {
  const known = t(`error.${code}`);
  const text = known === `error.${code}` ? t("error.other") : known;
  toast(`${escapeHtml(text)} <small class="code" title="${escapeHtml(message || "")}">(${escapeHtml(code)})</small>`, "error");
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
  document.addEventListener("click", (ev) => {
    const term = ev.target.closest && ev.target.closest(".term");
    if (term) show(term);
    else pop.hidden = true;
  });
  document.addEventListener("focusin", (ev) => {
    if (ev.target.classList && ev.target.classList.contains("term")) show(ev.target);
    else pop.hidden = true;
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") pop.hidden = true;
  });
}
