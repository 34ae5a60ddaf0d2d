// The table alive: what table.js asks for after each message and each drawing. The
// movement of tiles and STONES (motion.js), the sounds (sound.js), the marks of the last
// plays and each plate's moves of the round (history.js), the tile tracker (tracker.js),
// the settings and the mute button (settings.js), and the "Play" of "confirm my play".

import { pileSpot, seatSpot } from "./board.js";
import { historyElement, lastActions } from "./history.js";
import { t } from "./i18n.js";
import { createMotion } from "./motion.js";
import { retryDelay } from "./reconnect.js";
import { confirmPlay, createSettings, soundOn, speed, touchScreen } from "./settings.js";
import { playSound } from "./sound.js";
import { trackerElement, trackCounts } from "./tracker.js";

/** The sound an event makes, if any. */
function soundOf(e) {
  if (e.kind === "played") return "tile";
  if (e.kind === "passed") return "pass";
  if (e.kind === "stones") return "stones";
  if (e.kind === "camat") return "camat";
  if (e.kind === "round_ended" && (e.finish === "ceki" || e.finish === "pollo")) return "ceki";
  return null;
}

export function createLiving(root, { render }) {
  const q = (sel) => root.querySelector(sel);
  const motion = createMotion();
  const timers = new Set();
  const settingsBox = q("[data-settings]");
  const settings = createSettings(settingsBox, { changed: () => render() });
  const pop = q(".history-pop");
  const confirmButton = document.createElement("button");
  confirmButton.type = "button";
  confirmButton.className = "primary small confirm-play";
  confirmButton.dataset.confirmPlay = "";
  confirmButton.hidden = true;
  q(".status-bar").insertBefore(confirmButton, settingsBox);
  let last = null; // what the last drawing showed
  let history = null; // {seat, pinned}: the plate whose moves are shown
  let wasMyTurn = false;
  let trackerKey = null;
  let round = null;
  let onConfirm = () => {};
  confirmButton.addEventListener("click", () => onConfirm());

  function sound(name) {
    if (!last || !soundOn(last.spectator)) return;
    if (playSound(name)) {
      settingsBox.dataset.soundLast = name;
      settingsBox.dataset.sounds = String(Number(settingsBox.dataset.sounds || 0) + 1);
    }
  }

  function later(ms, fn) {
    if (ms <= 0) return fn();
    const id = setTimeout(() => {
      timers.delete(id);
      fn();
    }, ms);
    timers.add(id);
  }

  function showHistory() {
    if (!history || !last || !last.view) {
      pop.hidden = true;
      pop.replaceChildren();
      return;
    }
    const plate = root.querySelector(`svg.board .seat[data-seat="${history.seat}"]`);
    if (!plate) return;
    pop.replaceChildren(historyElement(last.events, history.seat, last.names[history.seat]));
    pop.hidden = false;
    const area = q(".board-area").getBoundingClientRect();
    const r = plate.getBoundingClientRect();
    const width = pop.offsetWidth;
    const left = Math.max(4, Math.min(area.width - width - 4, r.left - area.left + r.width / 2 - width / 2));
    // below the plates of the top half, above the others
    const below = r.top - area.top < area.height / 2;
    pop.style.left = `${left}px`;
    pop.style.top = below ? `${r.bottom - area.top + 6}px` : "";
    pop.style.bottom = below ? "" : `${area.bottom - r.top + 6}px`;
  }

  function onDocumentClick(ev) {
    if (history && history.pinned && !(ev.target.closest && ev.target.closest(".seat, .history-pop"))) {
      history = null;
      showHistory();
    }
    // the settings' panel covers the table: a tap anywhere else closes it
    const panel = settingsBox.querySelector("details[open]");
    if (panel && !settingsBox.contains(ev.target)) panel.open = false;
  }
  document.addEventListener("click", onDocumentClick);
  // and Escape, from inside it, closes it too, back on its button
  settingsBox.addEventListener("keydown", (ev) => {
    const panel = settingsBox.querySelector("details[open]");
    if (ev.key !== "Escape" || !panel) return;
    panel.open = false;
    panel.querySelector("summary").focus();
    ev.stopPropagation(); // the table's own Escape (a chosen tile, the summary) is not meant
  });

  return {
    retryDelay,
    confirming: () => confirmPlay(),

    /** The events a state message brought (already happened: nothing moves). */
    know(events) {
      motion.know(events);
    },

    /** An update's new events: their movement and their sounds, in turn. */
    see(events, table, seat) {
      const timed = motion.see(events, { speed: speed(), paceMs: table.pace_ms });
      for (const { event, inMs } of timed) {
        const name = soundOf(event);
        // STONES are heard by the one who receives them (and by a spectator)
        if (name === "stones" && seat !== null && seat !== undefined && event.receiver !== seat) continue;
        if (name) later(inMs, () => sound(name));
      }
    },

    /** The marks of the last plays for drawBoard. */
    marks(events) {
      return lastActions(events);
    },

    /** Hovering (`hover`/`leave`) or tapping (`tap`) a plate shows its seat's moves. */
    onPlate(seat, how) {
      if (how === "tap") history = history && history.seat === seat && history.pinned ? null : { seat, pinned: true };
      else if (how === "hover" && !(history && history.pinned)) history = { seat, pinned: false };
      else if (how === "leave" && history && !history.pinned) history = null;
      showHistory();
    },

    /** "Your turn…": tap on a touch screen, click elsewhere; "tap it again" once chosen. */
    turnText({ who, selected, endChoices }) {
      const touch = touchScreen();
      if (selected && endChoices && endChoices.length > 1) return t("status.choose_end");
      if (selected) return t(touch ? "living.confirm_tap" : "living.confirm_click", { tile: `[${selected.replace("-", "|")}]` });
      return t(touch ? "living.your_turn_tap" : "status.your_turn", { who });
    },

    /** After each drawing: the movements under way, the tracker, the settings, the popover. */
    drawn(board, info) {
      if (info.view && info.view.round !== round) {
        round = info.view.round;
        motion.reset();
        history = history && history.pinned ? history : null;
      }
      last = info;
      onConfirm = info.onConfirm;
      motion.apply(board, { spot: (s) => seatSpot(info.layout, info.me, s), pile: pileSpot(info.layout) });
      settings.render(info.spectator);
      if (info.myTurn && !wasMyTurn) sound("turn");
      wasMyTurn = info.myTurn;

      const single = info.selected && info.myTurn && (!info.endChoices || info.endChoices.length < 2);
      confirmButton.hidden = !single;
      if (single) confirmButton.textContent = t("living.play_tile", { tile: `[${info.selected.replace("-", "|")}]` });

      const box = q(".tracker-box");
      const key = info.view ? JSON.stringify([document.documentElement.lang, trackCounts(info.view), !!info.view.hand]) : null;
      if (key !== trackerKey) {
        trackerKey = key;
        const open = !box.querySelector("details") || box.querySelector("details").open;
        if (info.view) {
          const el = trackerElement(info.view);
          el.open = open;
          box.replaceChildren(el);
        } else box.replaceChildren();
      }
      if (history) showHistory();
    },

    unmount() {
      for (const id of timers) clearTimeout(id);
      timers.clear();
      document.removeEventListener("click", onDocumentClick);
    },
  };
}
