// Talk at the table: what was said (the `state`'s `chat`, then each `chat` message), an
// input of up to 200 characters, the quick phrases (sent as their key, shown in each
// reader's language), and seats this viewer muted. What people type is shown as text,
// never as HTML.

import { api, mutedSeats, setMuted } from "./api.js";
import { inClub, isAdmin } from "./club.js";
import { setTermText, t } from "./i18n.js";
import { showEnd } from "./logend.js";
import { h } from "./summary.js";
import { refusalText, showApiError, showNote } from "./ui.js";

export const PHRASES = ["hello", "good_luck", "well_played", "pass", "ceki", "pollo", "camat", "hurry_up", "oops", "thanks", "good_game", "again"];
/** Emoji reactions beside the quick phrases: sent as the emoji itself (a text), each
 * with its name in words for a screen reader. */
export const REACTIONS = [["thumbs_up", "👍"], ["applause", "👏"], ["laugh", "😄"], ["surprise", "😮"], ["grimace", "😬"], ["thanks", "🙏"]];
export const MAX_TEXT = 200;
const KEPT = 100;
const REFUSED_MS = 6000;

function keyOf(m) {
  return `${m.at}|${m.seat}|${m.text ?? ""}|${m.phrase ?? ""}`;
}

/** A message's words: a phrase in this reader's language, or the text as typed. */
export function chatWords(m) {
  return m.phrase ? t(`phrase.${m.phrase}`) : String(m.text ?? "");
}

/**
 * The chat panel in `container`. `opts`: {tableId, send(message) -> id or null,
 * onSaid(message) for each new message (the speaker's bubble)}.
 */
export function createChat(container, opts) {
  const messages = [];
  const seen = new Set();
  const pending = new Map(); // id of a text sent -> the text, put back if it is refused
  const sent = new Set(); // ids of every chat message sent: a refusal of one is said here
  let refusedTimer = 0;
  let ctx = { names: [], mine: new Set(), canTalk: false, seats: [] };

  container.innerHTML = `
    <section class="chat" data-chat aria-labelledby="chat-title">
      <div class="chat-head">
        <h2 id="chat-title"></h2>
        <details class="mute"><summary></summary><div class="mute-list"></div></details>
      </div>
      <ol class="chat-log" data-chat-log aria-live="polite"></ol>
      <form class="chat-form" data-chat-form>
        <input data-chat-input maxlength="${MAX_TEXT}" autocomplete="off">
        <button type="submit" class="small primary" data-chat-send></button>
      </form>
      <p class="chat-refused" data-chat-refused role="status" hidden></p>
      <p class="muted chat-silent" hidden></p>
      <div class="reactions" role="group" data-reactions></div>
      <div class="phrases" role="group" data-phrases></div>
    </section>`;
  const q = (s) => container.querySelector(s);
  const input = q("[data-chat-input]");
  q("[data-chat-form]").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const id = say({ type: "chat", text: text.slice(0, MAX_TEXT) });
    if (id !== null && id !== undefined) {
      pending.set(id, text);
      input.value = "";
    }
  });
  const phrases = q("[data-phrases]");
  for (const key of PHRASES) {
    const b = h("button", { type: "button", class: "small phrase", "data-phrase": key }, [h("span")]);
    b.addEventListener("click", () => say({ type: "chat", phrase: key }));
    phrases.appendChild(b);
  }

  /** Send a chat message; answers its id (null: not sent). */
  function say(message) {
    const id = opts.send(message);
    if (id !== null && id !== undefined) {
      sent.add(id);
      if (sent.size > KEPT) sent.delete(sent.values().next().value);
    }
    return id;
  }

  /** A refusal said once, in words, under the input (a burst of them: the same line). */
  function sayRefused(code) {
    const note = q("[data-chat-refused]");
    note.textContent = refusalText(code);
    note.dataset.code = code;
    note.hidden = false;
    clearTimeout(refusedTimer);
    refusedTimer = window.setTimeout(() => (note.hidden = true), REFUSED_MS);
  }

  const reactions = q("[data-reactions]");
  for (const [name, emoji] of REACTIONS) {
    const b = h("button", { type: "button", class: "small reaction", "data-reaction": name, text: emoji });
    b.addEventListener("click", () => say({ type: "chat", text: emoji }));
    reactions.appendChild(b);
  }

  function line(m) {
    const li = h("li", { class: m.seat === null ? "spectator" : "", "data-chat-seat": m.seat === null ? "" : m.seat });
    const name = m.seat === null ? t("chat.spectator") : m.name;
    li.appendChild(h("span", { class: "chat-name", text: `${name}:` }));
    li.appendChild(document.createTextNode(" "));
    const words = h("span", { class: m.phrase ? "chat-text phrase-text" : "chat-text", "data-chat-text": "" });
    if (m.phrase) setTermText(words, chatWords(m)); // our own words: the game's terms explained
    else words.textContent = chatWords(m); // typed by someone: text, never HTML
    li.appendChild(words);
    if (inClub() && !ctx.mine.has(m.seat)) li.appendChild(moderation(m));
    return li;
  }

  /** In a club: "Report" for anyone, "Hide" for an admin (hidden for everyone). */
  function moderation(m) {
    const box = h("span", { class: "chat-moderation" });
    const path = `/api/tables/${encodeURIComponent(opts.tableId)}/chat`;
    const report = h("button", { type: "button", class: "link small", "data-report-chat": "", text: t("club.report") });
    report.addEventListener("click", async () => {
      try {
        await api("POST", `${path}/report`, { at: m.at });
        showNote(t("club.reported"));
      } catch (e) {
        showApiError(e);
      }
    });
    box.appendChild(report);
    if (isAdmin()) {
      const hide = h("button", { type: "button", class: "link small", "data-hide-chat": "", text: t("club.hide") });
      hide.addEventListener("click", async () => {
        try {
          await api("POST", `${path}/hide`, { at: m.at });
        } catch (e) {
          showApiError(e);
        }
      });
      box.appendChild(hide);
    }
    return box;
  }

  // Whether the reader is at the log's end (it then follows what is said): kept as they
  // scroll, so that drawing the log never has to measure the page first.
  const logBox = q("[data-chat-log]");
  let atEnd = true;
  logBox.addEventListener("scroll", () => (atEnd = logBox.scrollHeight - logBox.scrollTop - logBox.clientHeight < 30), { passive: true });

  function drawLog() {
    const log = logBox;
    const muted = mutedSeats(opts.tableId);
    const shown = messages.filter((m) => m.seat === null || !muted.has(m.seat));
    // the same lines as drawn last: nothing to do (the table redraws on every move)
    const last = shown[shown.length - 1];
    const key = JSON.stringify([document.documentElement.lang, shown.length, last ? keyOf(last) : null, [...muted]]);
    if (log.dataset.key === key) return;
    log.dataset.key = key;
    log.replaceChildren(...shown.map(line));
    if (!shown.length) log.appendChild(h("li", { class: "muted", text: t("chat.none") }));
    if (atEnd || !log.dataset.drawn) {
      // at the next frame, when the page is laid out anyway (not forced now)
      requestAnimationFrame(() => showEnd(log)); // its top line whole (logend.js)
    }
    log.dataset.drawn = "1";
  }

  function drawMute() {
    const list = q(".mute-list");
    const muted = mutedSeats(opts.tableId);
    const others = ctx.seats.filter((s) => s.kind === "person" && s.taken && !ctx.mine.has(s.seat));
    q(".mute").hidden = !others.length;
    list.replaceChildren(
      ...others.map((s) => {
        const on = muted.has(s.seat);
        const who = ctx.names[s.seat];
        const b = h("button", { type: "button", class: "small", "aria-pressed": on ? "true" : "false", "data-mute": s.seat, text: t(on ? "chat.unmute" : "chat.mute", { who }) });
        b.addEventListener("click", () => {
          setMuted(opts.tableId, s.seat, !on);
          render(ctx);
          // the toggle keeps the focus through the redrawing
          const again = list.querySelector(`[data-mute="${s.seat}"]`);
          if (again) again.focus();
        });
        return b;
      }),
    );
  }

  function render(next = ctx) {
    ctx = next;
    q("#chat-title").textContent = t("chat.title");
    q(".mute summary").textContent = t("chat.mute_title");
    input.placeholder = t("chat.placeholder");
    input.setAttribute("aria-label", t("chat.placeholder"));
    q("[data-chat-send]").textContent = t("chat.send");
    phrases.setAttribute("aria-label", t("chat.phrases"));
    for (const b of phrases.querySelectorAll("[data-phrase]")) setTermText(b.firstChild, t(`phrase.${b.dataset.phrase}`));
    q("[data-chat-form]").hidden = !ctx.canTalk;
    phrases.hidden = !ctx.canTalk;
    reactions.hidden = !ctx.canTalk;
    reactions.setAttribute("aria-label", t("chat.reactions"));
    for (const b of reactions.querySelectorAll("[data-reaction]")) {
      const name = t(`reaction.${b.dataset.reaction}`);
      b.setAttribute("aria-label", name);
      b.title = name;
    }
    const silent = q(".chat-silent");
    silent.hidden = ctx.canTalk;
    silent.textContent = t("chat.silent");
    drawMute();
    drawLog();
  }

  function remember(m) {
    const k = keyOf(m);
    if (seen.has(k)) return false;
    seen.add(k);
    messages.push(m);
    if (messages.length > KEPT) seen.delete(keyOf(messages.shift()));
    return true;
  }

  return {
    /** What was said before (a `state` message's `chat`). */
    setAll(list) {
      let changed = false;
      for (const m of list || []) changed = remember(m) || changed;
      if (changed) {
        messages.sort((a, b) => a.at - b.at);
        drawLog();
      }
    },
    /** A `chat` message: shown, and its speaker's bubble (unless muted). */
    add(m) {
      if (!remember(m)) return; // the same words come once per connection of this screen
      drawLog();
      if (m.seat !== null && !mutedSeats(opts.tableId).has(m.seat)) opts.onSaid(m);
    },
    /** A refusal: when of something said here, a text typed comes back to the input and
     * the refusal is said in words under it; answers whether it was (no toast then). */
    refused(replyTo, code) {
      if (!sent.has(replyTo)) return false;
      sent.delete(replyTo);
      const text = pending.get(replyTo);
      pending.delete(replyTo);
      if (text !== undefined && !input.value) input.value = text;
      sayRefused(code);
      return true;
    },
    /** A club's admin hid the message said at `at`: gone for everyone. */
    hide(at) {
      for (let i = messages.length - 1; i >= 0; i--) if (messages[i].at === at) messages.splice(i, 1);
      drawLog();
    },
    /** When the newest message was said (0: nothing yet). */
    lastAt() {
      return messages.reduce((at, m) => Math.max(at, Number(m.at) || 0), 0);
    },
    /** How many of the messages kept were said after `at` and heard (a muted seat's
     * are not), by others than the seats in `mine` (this screen's own words are never
     * news to it): those not yet seen, when `at` is the newest one seen. */
    heardAfter(at, mine = new Set()) {
      const muted = mutedSeats(opts.tableId);
      return messages.filter((m) => Number(m.at) > at && (m.seat === null || (!muted.has(m.seat) && !mine.has(m.seat)))).length;
    },
    isMuted(seat) {
      return mutedSeats(opts.tableId).has(seat);
    },
    render,
  };
}
