// What the table waits for between moves (its `waiting_for`, docs/protocol.md "A table
// always moves on"): the people's ready for the next round, or the seats nobody has
// taken yet; whom, and the time left before it goes on without them, for everyone to
// see. The host may start now, wait longer, or start the next round now. And during a
// round, each person away: the time left before a computer player takes their seat.

import { hostAction } from "./api.js";
import { t } from "./i18n.js";
import { h } from "./summary.js";
import { showApiError } from "./ui.js";

const LEFT = "\u0000";

/** "1:05" for 65,000 ms. */
export function leftText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The milliseconds left of a wait (never more than its whole length: a clock that is
 *  off does not make it longer). */
export function leftOf(wait, now = Date.now()) {
  return Math.max(0, Math.min(wait.seconds * 1000, wait.deadline * 1000 - now));
}

/** The seats whose person is away during a round, each with when its stand-in takes
 *  over (the seat's `away`): [{seat, deadline, seconds}]. */
export function awayWaits(table) {
  if (!table || table.status === "finished") return [];
  return table.seats.filter((s) => s.away).map((s) => ({ seat: s.seat, ...s.away }));
}

/** One line: the words of `key` with the time left (ticking) in place of {left}. */
function waitLine(key, who, wait, attrs = {}) {
  const words = t(key, { who, left: LEFT });
  const [before, after = ""] = words.split(LEFT);
  const left = h("strong", { class: "wait-left", "data-wait-left": "", text: leftText(leftOf(wait)) });
  const text = h("p", { class: "wait-text", "data-deadline": String(wait.deadline), "data-seconds": String(wait.seconds), ...attrs });
  text.append(before, left, after);
  return text;
}

/**
 * The words of a wait for ready, and whom they name: "you" when this screen holds one
 * seat (a screen passed round holds several: then every seat by its name) and that
 * seat is among those waited for; `alone`: this screen's seat is the only one.
 */
function readyWords(wait, names, mine = []) {
  const me = mine.length === 1 && wait.seats.includes(mine[0]) ? mine[0] : null;
  const others = wait.seats.filter((n) => n !== me).map((n) => names[n]).join(", ");
  if (me === null) return { key: "wait.ready", who: others, alone: false };
  return others ? { key: "wait.ready_you_and", who: others, alone: false } : { key: "wait.ready_you", who: "", alone: true };
}

/**
 * Draw the waits into `box` (`data-wait`), or hide it: the table's `waiting_for`, and
 * each away seat's countdown to its stand-in. `o`: {table, names, mine (the seats this
 * screen holds), host (this browser holds the host's token), nextRound (the "Next
 * round" button is beside the box), tableId, done(action, answer)}. The host's "start
 * the next round now" is left out where it would only repeat "Next round": when the
 * round waits for this screen's seat alone.
 */
export function drawWait(box, o) {
  const wait = o.table && o.table.status !== "finished" ? o.table.waiting_for : null;
  const away = awayWaits(o.table);
  const mine = o.mine || [];
  const key = wait || away.length ? JSON.stringify([document.documentElement.lang, wait, away, o.host, o.names, mine, !!o.nextRound]) : "";
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.hidden = !key;
  box.replaceChildren();
  let alone = false;
  if (wait && wait.kind === "ready") {
    const said = readyWords(wait, o.names, mine);
    alone = said.alone;
    box.appendChild(waitLine(said.key, said.who, wait));
  } else if (wait) {
    box.appendChild(waitLine("wait.seats", wait.seats.map((n) => String(n + 1)).join(", "), wait));
  }
  for (const a of away) box.appendChild(waitLine("wait.away", o.names[a.seat], a, { "data-away": String(a.seat) }));
  if (wait && o.host && !(alone && o.nextRound)) box.appendChild(hostChoices(wait, o));
}

function hostChoices(wait, o) {
  const row = h("div", { class: "wait-host" });
  const act = async (action, b) => {
    b.disabled = true;
    try {
      o.done(action, await hostAction(o.tableId, action));
    } catch (e) {
      showApiError(e);
      b.disabled = false;
    }
  };
  const choices = wait.kind === "ready" ? [["next_round", "primary"]] : [["start", "primary"], ["wait", ""]];
  for (const [action, cls] of choices) {
    const b = h("button", { type: "button", class: `small ${cls}`.trim(), "data-host": action, text: t(`wait.host_${action}`) });
    b.addEventListener("click", () => act(action, b));
    row.appendChild(b);
  }
  return row;
}

/** Count every wait in `root` down (called each second). */
export function tickWaits(root, now = Date.now()) {
  for (const box of root.querySelectorAll("[data-wait]")) {
    if (box.hidden) continue;
    for (const line of box.querySelectorAll("[data-deadline]")) {
      const out = line.querySelector("[data-wait-left]");
      const wait = { deadline: Number(line.dataset.deadline), seconds: Number(line.dataset.seconds) };
      const words = out && leftText(leftOf(wait, now));
      if (out && out.textContent !== words) out.textContent = words; // unchanged: nothing to lay out
    }
  }
}
