// Watching a finished game again, step by step: a table's finished rounds, or a record
// file opened in the browser. Every hand is shown, or the game from one seat: what it
// saw, and at its decisions the coach's review and beliefs (coach.js).

import { api } from "./api.js";
import { describe } from "./account.js";
import { ct, decisionElement, luckSkillElement, reviewCache, shownTotal } from "./coach.js";
import { boardRatio, drawBoard, layoutFor, roomBelow } from "./board.js";
import { numberText, seatName, setTermText, t } from "./i18n.js";
import { handsElement } from "./hands.js";
import { keepEnd, showEnd } from "./logend.js";
import { trackerElement } from "./tracker.js";
import { h, summaryElement } from "./summary.js";
import { showApiError } from "./ui.js";

/**
 * Where a round's replay stands, counted in plays (tiles laid on the line) as the coach's
 * "Play n" counts them: "After play 5 of 20", "The deal, before play 1 of 20".
 */
export function stepText(n, total) {
  return n === 0 ? t("replay.step_deal", { total }) : t("replay.step", { n, total });
}

export function replayPage(root, source) {
  const st = { data: null, round: 0, step: 0, timer: null, error: null, seat: null, trackerOpen: null };
  root.innerHTML = `
    <div class="replay-page">
      <div class="table-main">
        <div class="status-bar replay-bar">
          <h1 class="replay-title"></h1>
          <label><span data-i18n="replay.round"></span> <select class="round-select"></select></label>
          <div class="controls" role="group">
            <button type="button" class="small" data-step="first">«</button>
            <button type="button" class="small" data-step="prev">‹</button>
            <button type="button" class="small play-pause" data-step="play"></button>
            <button type="button" class="small" data-step="next">›</button>
            <button type="button" class="small" data-step="last">»</button>
          </div>
          <span class="step-no muted"></span>
          <label><span class="seat-label"></span> <select class="seat-select" data-view-from></select></label>
          <a class="button small download" hidden></a>
        </div>
        <input type="range" class="step-range" min="0" value="0">
        <div class="board-wrap"></div>
        <div class="coach-panel" data-coach-panel hidden></div>
        <div class="replay-summary"></div>
      </div>
      <aside class="side">
        <h2 class="account-title"></h2>
        <ol class="account"></ol>
        <div class="side-actions"><a class="button small" href="#/" data-i18n="nav.lobby"></a></div>
      </aside>
    </div>`;
  const q = (s) => root.querySelector(s);
  keepEnd(q(".account"));

  // On a wide screen the whole board, the hand of the seat watched from included, fits
  // below the replay's controls, as at the table (board.js, roomBelow): its height, and its
  // place's while it comes, is what the window has left under them (--board-room). It is
  // measured when the column changes size, not at each step (a second layout each time);
  // the controls' rows differ with the width and the language (a fixed 11rem left the
  // bottom of the board, the seat's own plate and tiles, below the window at 1280x800).
  const wideScreen = window.matchMedia("(min-width: 901px)");
  const roomWatch = new ResizeObserver(() => {
    const wrap = q(".board-wrap");
    if (!wideScreen.matches) {
      wrap.style.removeProperty("--board-room");
      return;
    }
    const room = roomBelow(wrap);
    if (wrap.style.getPropertyValue("--board-room") !== room) wrap.style.setProperty("--board-room", room);
  });
  roomWatch.observe(q(".table-main"));

  /** A word where the board will be, in a place of the board's size: no jump when it comes. */
  function waiting(text) {
    const wrap = q(".board-wrap");
    const space = h("div", { class: "board-space" }, [h("p", { class: "muted", text })]);
    space.style.aspectRatio = boardRatio(layoutFor(wrap.clientWidth || window.innerWidth));
    wrap.replaceChildren(space);
  }

  function steps() {
    const rnd = st.data && st.data.rounds[st.round];
    return rnd ? rnd.steps : [];
  }

  function go(to) {
    const n = steps().length;
    st.step = Math.max(0, Math.min(n - 1, to));
    render();
  }

  for (const b of root.querySelectorAll("[data-step]")) {
    b.addEventListener("click", () => {
      const k = b.dataset.step;
      if (k === "first") go(0);
      else if (k === "prev") go(st.step - 1);
      else if (k === "next") go(st.step + 1);
      else if (k === "last") go(steps().length - 1);
      else toggle();
    });
  }
  q(".step-range").addEventListener("input", (ev) => go(Number(ev.target.value)));
  q(".seat-select").addEventListener("change", (ev) => {
    st.seat = ev.target.value === "" ? null : Number(ev.target.value);
    render();
  });
  const reviews = reviewCache(source, () => render(), showApiError);
  q(".round-select").addEventListener("change", async (ev) => {
    st.round = Number(ev.target.value);
    st.step = 0;
    render();
    await loadRound(st.round);
  });

  function toggle() {
    if (st.timer) {
      clearInterval(st.timer);
      st.timer = null;
    } else {
      if (st.step >= steps().length - 1) st.step = 0;
      st.timer = setInterval(() => {
        if (st.step >= steps().length - 1) toggle();
        else go(st.step + 1);
      }, 900);
    }
    render();
  }

  function onKey(ev) {
    if (ev.target.closest && ev.target.closest("input, select, textarea")) return;
    if (ev.key === "ArrowRight") go(st.step + 1);
    else if (ev.key === "ArrowLeft") go(st.step - 1);
  }
  window.addEventListener("keydown", onKey);

  function render() {
    for (const n of root.querySelectorAll("[data-i18n]")) setTermText(n, t(n.dataset.i18n));
    q(".play-pause").textContent = st.timer ? "❚❚" : "▶";
    q(".play-pause").setAttribute("aria-label", t(st.timer ? "replay.pause" : "replay.play"));
    q(".play-pause").title = t(st.timer ? "replay.pause" : "replay.play");
    for (const [k, key] of [["first", "replay.first"], ["prev", "replay.prev"], ["next", "replay.next"], ["last", "replay.last"]]) {
      q(`[data-step="${k}"]`).setAttribute("aria-label", t(key));
      q(`[data-step="${k}"]`).title = t(key);
    }
    if (source.kind === "table") {
      const dl = q(".download");
      dl.hidden = false;
      dl.href = `/api/tables/${encodeURIComponent(source.id)}/record?download=1`;
      dl.setAttribute("download", `domeng-${source.id}.json`);
      dl.textContent = t("table.download");
    }
    q(".replay-title").textContent = source.kind === "table" ? t("replay.title_table", { id: source.id }) : t("replay.title_file", { name: source.name || "" });
    const broken = !!st.error;
    for (const sel of [".round-select", ".controls", ".step-range", ".step-no"]) {
      const node = q(sel);
      (node.closest("label") || node).hidden = broken;
    }
    if (broken) {
      q(".download").hidden = true;
      q(".board-wrap").replaceChildren(h("p", { class: "error-text", text: st.error }));
      return;
    }
    if (!st.data) {
      // the bar as it will be (a round, a step, whose view), so that it keeps its height
      q(".round-select").replaceChildren(h("option", { text: t("replay.round_n", { n: 1 }) }));
      q(".step-no").textContent = stepText(0, 0);
      q(".seat-label").textContent = ct("view_from");
      q(".seat-select").replaceChildren(h("option", { value: "", text: ct("everyone") }));
      waiting(t("status.connecting"));
      return;
    }
    if (!st.data.rounds.length) {
      q(".board-wrap").replaceChildren(h("p", { class: "muted", text: t("replay.nothing") }));
      q(".account-title").textContent = "";
      return;
    }
    // "Besse (random)" in a record is a computer player: its level in this page's language,
    // on the plates; the texts name the player alone, as at the table
    const levels = (window.domengInfo && window.domengInfo.levels) || [];
    const seats = st.data.players.map((name) => {
      const m = /^(.*\S) \(([^()]+)\)$/.exec(name);
      return m && levels.includes(m[2]) ? { kind: "computer", level: m[2], name } : { kind: "person", name };
    });
    const names = seats.map((x) => seatName(x, false));
    const plates = seats.map((x) => seatName(x, true));
    const rnd = st.data.rounds[st.round];
    const sel = q(".round-select");
    sel.replaceChildren(...st.data.rounds.map((r, i) => h("option", { value: i, selected: i === st.round, text: t("replay.round_n", { n: i + 1 }) })));
    // while a round is fetched (the service works out one round at a time) its steps wait
    for (const b of root.querySelectorAll("[data-step], .step-range")) b.disabled = !rnd;
    if (!rnd) {
      waiting(t("status.connecting"));
      return;
    }
    const all = rnd.steps;
    const s = all[st.step];
    const range = q(".step-range");
    range.max = String(all.length - 1);
    range.value = String(st.step);
    range.setAttribute("aria-label", stepText(st.step, all.length - 1));
    q(".step-no").textContent = stepText(st.step, all.length - 1);
    const plays = all.slice(1, st.step + 1).map((x) => x.play);
    const view = {
      line: s.line,
      ends: s.ends,
      plays,
      turn: s.turn,
      hand_counts: s.hands.map((x) => x.length),
      stones: s.stones,
      table: s.table,
      camat: s.camat,
      titles: s.titles,
      lacking: s.lacking || null, // what each seat showed it lacks ("lacks 1 3"), as at the table
    };
    const wrap = q(".board-wrap");
    const fresh = new Set();
    if (s.play && s.play.tile) fresh.add(s.play.tile);
    // from one seat: its hand at the bottom, the others' tiles face down (their counts)
    const one = st.seat;
    const seatSel = q(".seat-select");
    q(".seat-label").textContent = ct("view_from");
    seatSel.replaceChildren(h("option", { value: "", selected: one === null, text: ct("everyone") }), ...names.map((n, i) => h("option", { value: String(i), selected: one === i, text: n })));
    // on a phone the hands are shown face up under the board, large enough to read
    const layout = layoutFor(wrap.clientWidth || window.innerWidth);
    const below = layout === "tall" && one === null;
    const shown = one === null ? { me: 0, hand: null, faces: below ? null : s.hands } : { me: one, hand: s.hands[one], faces: null };
    wrap.replaceChildren(
      drawBoard({ layout, names: plates, view, playable: new Set(), myTurn: false, selected: null, endChoices: null, fresh, ...shown, onTile() {}, onEnd() {} }),
    );
    if (below) wrap.appendChild(handsElement(plates, s.hands));
    const panel = q(".coach-panel");
    // the coach's panel where the eye is as the steps go: the side column of a wide
    // screen, above the board on a phone (below it, it was out of sight on both)
    const home = window.innerWidth > 900 ? q(".side") : q(".table-main");
    const before = window.innerWidth > 900 ? q(".side .account-title") : q(".board-wrap");
    if (panel.parentElement !== home || panel.nextElementSibling !== before) home.insertBefore(panel, before);
    panel.hidden = one === null;
    if (one !== null) {
      // the coach's review of this seat's round: at each of its decisions, the values and
      // the beliefs about the hidden hands, judged from what it knew then
      const doc = reviews.get(one, rnd.number);
      const d = doc ? doc.decisions.find((x) => x.index === st.step) : null;
      let body;
      if (!doc) body = h("p", { class: "muted", "data-reviewing": "", text: ct("reviewing") });
      // the decision still to be made at the position shown (after play n, play n + 1):
      // said so, beside "After play n" (it stood beside "Step n" and read as one too many)
      else if (d) body = h("div", { "data-next-play": "" }, [h("p", { class: "muted next-play", text: ct("next_play") }), h("ol", { class: "decisions" }, [decisionElement(d, names, { beliefs: true, seat: one })])]);
      else body = h("p", { class: "muted", text: ct("no_decision", { who: names[one], n: doc.decisions.length, stones: numberText(shownTotal(doc), 2) }) });
      // the tile tracker as it stood for this seat: the line and its own hand; folded on a
      // phone at first (the coach's words and the board come first there), then as the
      // person leaves it from step to step
      const tracker = trackerElement({ line: s.line, hand: s.hands[one] });
      tracker.open = st.trackerOpen ?? window.innerWidth > 900;
      tracker.addEventListener("toggle", () => {
        st.trackerOpen = tracker.open;
      });
      panel.replaceChildren(tracker, body);
    }
    const events = all.slice(0, st.step + 1).flatMap((x) => x.events);
    q(".account-title").textContent = t("account.title", { n: rnd.number });
    const list = q(".account");
    list.replaceChildren(...events.map((e) => setTermText(h("li", { class: `ev ev-${e.kind}` }), describe(e, names))));
    showEnd(list); // its top line whole (logend.js)
    const sum = q(".replay-summary");
    sum.replaceChildren();
    if (st.step === all.length - 1 && rnd.summary) {
      sum.appendChild(summaryElement({ summary: rnd.summary, names, number: rnd.number, events, actions: null }));
      // the followed seat's stones, luck and skill apart (from the coach's review)
      const reviewed = one !== null ? reviews.get(one, rnd.number) : null;
      const luck = reviewed ? luckSkillElement(reviewed, names) : null;
      if (luck) sum.appendChild(luck);
    }
  }

  /** One round of the replay, from the service (it works out the round asked for). */
  function fetchRound(n) {
    if (source.kind === "table") return api("GET", `/api/tables/${encodeURIComponent(source.id)}/replay?round=${n}`);
    return api("POST", `/api/replay?round=${n}`, source.doc || "{}");
  }

  async function loadRound(i) {
    if (!st.data || st.data.rounds[i]) return;
    try {
      st.data.rounds[i] = (await fetchRound(i + 1)).rounds[0];
    } catch (e) {
      showApiError(e);
    }
    if (st.round === i) render();
  }

  async function load() {
    try {
      const first = await fetchRound(1);
      st.data = { ...first, rounds: Array.from({ length: first.round_count }, (_, i) => (i === 0 ? first.rounds[0] : null)) };
    } catch (e) {
      if (e.code === "bad_round") {
        // no finished round yet: nothing to watch
        st.data = { variants: null, players: [], rounds: [], round_count: 0 };
        render();
        return;
      }
      if (e.code === "unknown_table") st.error = t("error.unknown_table");
      else if (e.code === "bad_record") st.error = `${t("error.bad_record")} ${e.message || ""}`;
      else {
        showApiError(e);
        st.error = e.code === "network" ? t("error.network") : e.message || t("error.network");
      }
    }
    render();
  }
  render();
  load();
  return {
    render,
    unmount() {
      if (st.timer) clearInterval(st.timer);
      roomWatch.disconnect();
      window.removeEventListener("keydown", onKey);
    },
  };
}
