// The player's own settings for the table, kept in this browser (`domeng.settings`):
// the speed of the movement on the table, the sound, and "confirm my play". A setting
// never chosen follows the screen: "confirm my play" is on on a touch screen, the sound
// is on for a seat and off for a spectator.

import { t } from "./i18n.js";

const STORE = "domeng.settings";
export const SPEEDS = ["normal", "fast", "off"];

function stored() {
  try {
    const doc = JSON.parse(localStorage.getItem(STORE) || "{}");
    return doc && typeof doc === "object" && !Array.isArray(doc) ? doc : {};
  } catch {
    return {};
  }
}

/** A touch screen (a phone, a tablet): taps, not clicks. */
export function touchScreen() {
  return window.matchMedia("(pointer: coarse)").matches || (navigator.maxTouchPoints || 0) > 0;
}

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** How tiles and stones move: "normal", "fast" or "off" (also when the system asks for less motion). */
export function speed() {
  const chosen = stored().speed;
  if (reducedMotion()) return "off";
  return SPEEDS.includes(chosen) ? chosen : "normal";
}

/** Sound on? `spectator`: this screen holds no seat (its default is off). */
export function soundOn(spectator) {
  const chosen = stored().sound;
  return typeof chosen === "boolean" ? chosen : !spectator;
}

/** The first tap on a tile selects it, a second plays it. */
export function confirmPlay() {
  const chosen = stored().confirm;
  return typeof chosen === "boolean" ? chosen : touchScreen();
}

export function setSetting(name, value) {
  localStorage.setItem(STORE, JSON.stringify({ ...stored(), [name]: value }));
}

function field(tag, attrs) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") e.textContent = v;
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v === true ? "" : String(v));
  }
  return e;
}

/**
 * The mute button and the settings (speed, "confirm my play") in `box`, drawn again only
 * when something they show changed (an open settings panel stays open). `changed(name)`:
 * a setting changed.
 */
export function createSettings(box, { changed }) {
  let key = null;
  function render(spectator) {
    const now = JSON.stringify([document.documentElement.lang, spectator, stored(), reducedMotion()]);
    if (now === key) return;
    key = now;
    const open = !!box.querySelector("details[open]");
    const focused = box.contains(document.activeElement) ? document.activeElement.dataset.setting || "sound" : null;
    box.replaceChildren(...settingsBar(spectator, changed, open).children);
    if (focused) {
      const again = box.querySelector(focused === "sound" ? "[data-sound-toggle]" : `[data-setting="${focused}"]`);
      if (again) again.focus();
    }
  }
  return { render };
}

/** A loudspeaker, with waves when the sound is on, crossed out when it is off. */
function speakerIcon(on) {
  const rest = on ? '<path d="M15 8.5a4.5 4.5 0 0 1 0 7M17.5 5.5a8.5 8.5 0 0 1 0 13"/>' : '<path d="M15.5 9l6 6M21.5 9l-6 6"/>';
  return `<svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" class="speaker"><path d="M3 9h4l5-4v14l-5-4H3z" class="speaker-body"/>${rest}</svg>`;
}

function settingsBar(spectator, changed, open) {
  const bar = field("div", {});
  const on = soundOn(spectator);
  const mute = field("button", {
    type: "button",
    class: "small sound-toggle",
    "data-sound-toggle": on ? "on" : "off",
    "aria-pressed": on ? "false" : "true",
    title: t(on ? "living.mute" : "living.unmute"),
    "aria-label": t(on ? "living.mute" : "living.unmute"),
  });
  mute.innerHTML = speakerIcon(on);
  mute.addEventListener("click", () => {
    setSetting("sound", !soundOn(spectator));
    changed("sound");
  });
  bar.appendChild(mute);

  const more = field("details", { class: "settings", open });
  more.appendChild(field("summary", { text: t("living.settings") }));
  const box = field("div", { class: "settings-body" });
  const speedLabel = field("label", {});
  speedLabel.appendChild(field("span", { text: t("living.speed") }));
  const select = field("select", { "data-setting": "speed" });
  for (const s of SPEEDS) select.appendChild(field("option", { value: s, text: t(`living.speed_${s}`), selected: s === speed() }));
  select.disabled = reducedMotion();
  select.addEventListener("change", () => {
    setSetting("speed", select.value);
    changed("speed");
  });
  speedLabel.appendChild(select);
  box.appendChild(speedLabel);
  if (reducedMotion()) box.appendChild(field("p", { class: "muted", text: t("living.reduced_motion") }));
  const confirmLabel = field("label", { class: "check" });
  const check = field("input", { type: "checkbox", "data-setting": "confirm", checked: confirmPlay() });
  check.addEventListener("change", () => {
    setSetting("confirm", check.checked);
    changed("confirm");
  });
  confirmLabel.appendChild(check);
  confirmLabel.appendChild(field("span", { text: t("living.confirm") }));
  box.appendChild(confirmLabel);
  more.appendChild(box);
  bar.appendChild(more);
  return bar;
}
