// The table page: one WebSocket per seat this screen holds (several for "this screen"
// seats), or one to watch; the board, the running account, the round's summary.

import { api, forgetSeat, seatsAt } from "./api.js";
import { describe } from "./account.js";
import { drawBoard, layoutFor } from "./board.js";
import { seatName, setTermText, t, termify } from "./i18n.js";
import { h, summaryElement } from "./summary.js";
import { isLoopback } from "./lobby.js";
import { showApiError, showError, showServiceError } from "./ui.js";

function socketUrl(id) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${location.host}/ws/tables/${encodeURIComponent(id)}`;
}

export function tablePage(root, tableId, { watch = false } = {}) {
  const st = {
    table: null,
    events: [],
    eventsRound: 0,
    conns: [],
    active: null,
    revealed: null,
    selectedAt: 0,
    selected: null,
    pending: false,
    shownLine: null,
    fresh: new Set(),
    hideSummaryOf: 0,
    readySent: 0,
    closed: false,
    seq: 0,
  };

  root.innerHTML = `
    <div class="table-page">
      <div class="table-main">
        <div class="status-bar">
          <p class="status" role="status" aria-live="polite"></p>
          <button type="button" class="small show-summary" hidden data-i18n="table.show_summary"></button>
        </div>
        <div class="share" hidden></div>
        <div class="board-wrap"></div>
      </div>
      <aside class="side">
        <h2 class="account-title"></h2>
        <ol class="account" aria-live="polite"></ol>
        <div class="side-actions">
          <a class="button small download" data-i18n="table.download"></a>
          <button type="button" class="small leave" data-i18n="table.leave" hidden></button>
          <a class="button small" href="#/" data-i18n="nav.lobby"></a>
          <a class="button small" href="#/rules" data-i18n="nav.rules"></a>
        </div>
      </aside>
      <div class="overlay summary-layer" role="dialog" aria-modal="true" aria-labelledby="summary-title" hidden></div>
      <div class="overlay cover" role="dialog" aria-modal="true" hidden>
        <div class="cover-card">
          <p class="cover-text"></p>
          <button type="button" class="primary reveal" data-reveal></button>
        </div>
      </div>
    </div>`;
  const q = (sel) => root.querySelector(sel);
  q(".download").href = `/api/tables/${encodeURIComponent(tableId)}/record?download=1`;
  q(".download").setAttribute("download", `domeng-${tableId}.json`);
  q(".show-summary").addEventListener("click", () => {
    st.hideSummaryOf = 0;
    render();
  });
  q(".leave").addEventListener("click", async () => {
    if (!window.confirm(t("table.leave_confirm"))) return;
    for (const c of st.conns.filter((x) => x.token)) {
      try {
        await api("POST", `/api/tables/${encodeURIComponent(tableId)}/seats/${c.seat}/leave`, { token: c.token });
      } catch (e) {
        showApiError(e);
        return;
      }
      forgetSeat(tableId, c.seat);
    }
    location.hash = "#/";
  });
  q(".reveal").addEventListener("click", () => {
    st.revealed = st.active;
    render();
    const first = root.querySelector('[data-playable="true"]') || root.querySelector("[data-tile]");
    if (first) first.focus();
  });

  // -- connections ---------------------------------------------------------------
  const held = watch ? [] : seatsAt(tableId);
  if (held.length) {
    for (const { seat, token } of held) st.conns.push({ seat, token, ws: null, view: null, state: 0, open: false });
  } else {
    st.conns.push({ seat: null, token: null, ws: null, view: null, state: 0, open: false });
  }
  for (const c of st.conns) connect(c);

  function connect(c) {
    if (st.closed) return;
    const ws = new WebSocket(socketUrl(tableId));
    c.ws = ws;
    ws.addEventListener("open", () => {
      if (st.closed) {
        ws.close();
        return;
      }
      c.open = true;
      ws.send(JSON.stringify(c.token ? { type: "hello", token: c.token } : { type: "hello" }));
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      onMessage(c, msg);
    });
    ws.addEventListener("close", () => {
      c.open = false;
      if (!st.closed && c.ws === ws) {
        render();
        setTimeout(() => connect(c), 1000);
      }
    });
  }

  function onMessage(c, msg) {
    switch (msg.type) {
      case "welcome":
        c.seat = msg.seat;
        break;
      case "state":
        c.state = msg.state;
        st.table = msg.table;
        c.view = msg.view;
        if (msg.view && (msg.view.round > st.eventsRound || (msg.view.events || []).length >= st.events.length)) {
          st.events = msg.view.events || [];
          st.eventsRound = msg.view.round;
        }
        st.pending = false;
        render();
        break;
      case "update":
        c.state = msg.state;
        st.table = msg.table;
        c.view = msg.view;
        if (msg.view) {
          if (msg.view.round !== st.eventsRound) {
            st.events = [];
            st.eventsRound = msg.view.round;
          }
          for (const e of msg.events) {
            if (e.round === st.eventsRound && e.index === st.events.length) st.events.push(e);
          }
        }
        st.pending = false;
        render();
        break;
      case "seats":
        c.state = msg.state;
        st.table = msg.table;
        render();
        break;
      case "left":
        forgetSeat(tableId, c.seat);
        c.seat = null;
        c.token = null;
        render();
        break;
      case "error":
        st.pending = false;
        if (msg.code === "bad_token") {
          forgetSeat(tableId, c.seat);
          c.token = null;
          c.seat = null;
          c.ws.send(JSON.stringify({ type: "hello" }));
        } else if (msg.code === "unknown_table") {
          st.closed = true;
        } else if (msg.code === "stale_state") {
          c.ws.send(JSON.stringify({ type: "sync" }));
        }
        showServiceError(msg.code, msg.message);
        render();
        break;
      default:
        break;
    }
  }

  function send(c, message) {
    if (!c.ws || c.ws.readyState !== WebSocket.OPEN) {
      showError(t("error.network"));
      return false;
    }
    c.ws.send(JSON.stringify({ ...message, id: ++st.seq }));
    return true;
  }

  // -- what is shown -------------------------------------------------------------
  function seated() {
    return st.conns.filter((c) => c.seat !== null && c.seat !== undefined && c.view);
  }

  function chooseActive() {
    const mine = seated();
    if (!mine.length) return st.conns.find((c) => c.view) || st.conns[0];
    const inTurn = mine.find((c) => c.view.turn === c.seat);
    if (inTurn) return inTurn;
    return mine.find((c) => c.seat === st.active) || mine[0];
  }

  /** The seats' names: with a computer's level for the plates around the table, without it in the texts. */
  function names(withLevel = false) {
    if (!st.table) return ["", "", "", "", ""];
    return st.table.seats.map((s) => (s.kind === "person" && !s.taken ? t("table.open_seat") : seatName(s, withLevel)));
  }

  function onTile(tile, viaKeyboard = false) {
    st.keyboard = viaKeyboard;
    const c = chooseActive();
    const v = c && c.view;
    if (!v || v.turn !== c.seat || st.pending || covered()) return;
    const moves = v.legal_moves.filter((m) => m.tile === tile);
    if (!moves.length) {
      showError(t("table.not_playable", { tile: `[${tile.replace("-", "|")}]` }));
      return;
    }
    const ends = [...new Set(moves.map((m) => m.end))];
    if (ends.length > 1 && v.ends && v.ends[0] !== v.ends[1]) {
      // Another click on the chosen tile puts it back (a phone has no Escape key), but not
      // the second click of a double-click, which would close the choice it just opened.
      const now = performance.now();
      st.selected = st.selected === tile && now - st.selectedAt > 400 ? null : tile;
      st.selectedAt = now;
      render();
      const first = root.querySelector("[data-end]");
      if (first) first.focus();
      return;
    }
    play(c, tile, moves[0].end);
  }

  function play(c, tile, end) {
    st.selected = null;
    if (send(c, { type: "play", tile, end, state: c.state })) st.pending = true;
    render();
  }

  function onEnd(end, viaKeyboard = false) {
    st.keyboard = viaKeyboard;
    const c = chooseActive();
    if (st.selected && c) play(c, st.selected, end);
  }

  /** Several people's seats at this screen: counted from the seats it holds, not from the
   * views already come (at the start one seat's view comes before the other's). */
  function sharedScreen() {
    return st.conns.filter((c) => c.seat !== null && c.seat !== undefined).length > 1;
  }

  function covered() {
    return sharedScreen() && st.active !== null && st.revealed !== st.active;
  }

  function readyAll() {
    for (const c of seated()) send(c, { type: "ready" });
    st.readySent = st.eventsRound;
    render();
  }

  function waitingView(table) {
    const none = [null, null, null, null, null];
    return { line: [], plays: [], ends: null, turn: null, hand_counts: none, stones: table.stones, table: table.table, camat: table.camat, titles: table.titles, lacking: null };
  }

  function presenceOf(s) {
    if (s.kind !== "person") return null;
    if (!s.taken) return "open";
    if (s.stand_in) return "stand_in";
    if (s.connected === false) return "away";
    return null;
  }

  let lastWidth = 0;
  function render() {
    if (st.closed && !st.table) {
      q(".status").textContent = t("error.unknown_table");
      q(".board-wrap").replaceChildren(); // no table to draw, and no record to download
      q(".download").hidden = true;
      return;
    }
    const c = chooseActive();
    const v = c ? c.view : null;
    const nm = names();
    if (c && c.seat !== null && c.seat !== undefined && c.seat !== st.active) {
      st.active = c.seat;
      st.selected = null;
    }
    const mySeatShown = c && c.seat !== null && c.seat !== undefined;
    q(".table-page").dataset.pending = st.pending ? "true" : "false";
    // several people at this screen and none of them in turn: no hand is shown (the last
    // one to play may have walked away), and whoever plays next takes the screen again
    const idle = sharedScreen() && v && !v.summary && !seated().some((x) => x.view.turn === x.seat);
    if (idle) st.revealed = null;
    const isCovered = covered() && v && !v.summary && !idle;

    // animation: tiles new on the line since the last drawing
    const keys = v ? v.line.map(([a, b]) => (a >= b ? `${a}-${b}` : `${b}-${a}`)) : [];
    if (st.shownLine === null || !v) st.fresh = new Set();
    else {
      const fresh = keys.filter((k) => !st.shownLine.has(k));
      if (fresh.length) st.fresh = new Set(fresh);
    }
    st.shownLine = new Set(keys);

    const myTurn = !!(v && mySeatShown && v.turn === c.seat && !v.summary);
    const playable = new Set(myTurn ? v.legal_moves.map((m) => m.tile) : []);
    let endChoices = null;
    if (st.selected && myTurn) {
      endChoices = [...new Set(v.legal_moves.filter((m) => m.tile === st.selected).map((m) => m.end))];
    }
    const table = st.table;
    const wrap = q(".board-wrap");
    lastWidth = wrap.clientWidth || window.innerWidth;
    const board = drawBoard({
      layout: layoutFor(lastWidth),
      me: mySeatShown ? c.seat : 0,
      names: names(true),
      view: v || (table ? waitingView(table) : null),
      hand: v && mySeatShown && !isCovered && !idle ? v.hand : null,
      playable,
      myTurn: myTurn && !isCovered,
      selected: st.selected,
      endChoices,
      fresh: st.fresh,
      faces: null,
      presence: table ? table.seats.map(presenceOf) : null,
      onTile,
      onEnd,
    });
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.tile : null;
    wrap.replaceChildren(board);
    if (focused) {
      const again = wrap.querySelector(`[data-tile="${focused}"]`);
      if (again) again.focus();
    } else if (st.keyboard && myTurn && !isCovered && !st.selected && document.activeElement === document.body) {
      // someone playing by keyboard: their turn again puts them back on their tiles
      const first = wrap.querySelector('[data-playable="true"]');
      if (first) first.focus();
    }

    // status line
    let status;
    if (!c || !c.open) status = t("status.connecting");
    else if (!table) status = t("status.connecting");
    else if (table.status === "waiting") status = t("status.waiting");
    else if (table.status === "finished") status = t("status.finished");
    else if (v && v.summary) status = t("status.round_over", { n: v.round });
    else if (v && myTurn) status = st.selected ? t("status.choose_end") : t("status.your_turn", { who: nm[c.seat] });
    else if (v && v.turn !== null) status = t("status.turn_of", { who: nm[v.turn] });
    else status = "";
    setTermText(q(".status"), status);

    // share links while seats are open
    const share = q(".share");
    const joins = table && table.status === "waiting" ? table.links.join : [];
    share.hidden = !joins.length;
    share.replaceChildren();
    if (joins.length) {
      share.appendChild(h("p", { text: t("table.share") }));
      const base = window.domengAddress || location.origin;
      for (const j of joins) {
        const url = base.replace(/\/$/, "") + j;
        share.appendChild(h("p", {}, [h("a", { href: url, class: "share-link", text: url })]));
      }
      if (isLoopback(base)) share.appendChild(h("p", { class: "muted", text: t("table.share_local") }));
    }

    // the running account
    q(".account-title").textContent = v ? t("account.title", { n: v.round }) : t("account.none");
    const list = q(".account");
    list.replaceChildren(...st.events.map((e) => setTermText(h("li", { class: `ev ev-${e.kind}` }), describe(e, nm))));
    list.scrollTop = list.scrollHeight;

    // the round's summary
    const layer = q(".summary-layer");
    const showSummary = v && v.summary && st.hideSummaryOf !== v.round;
    q(".show-summary").hidden = !(v && v.summary && !showSummary);
    if (showSummary) {
      const actions = h("div", { class: "actions" });
      const finished = table && table.status === "finished";
      if (seated().length && !finished) {
        const mine = seated().map((x) => x.seat);
        const saidReady = !!table && mine.every((n) => table.seats[n].ready === true);
        const sent = st.readySent === v.round || saidReady;
        const btn = h("button", { type: "button", class: "primary", "data-next-round": "", disabled: sent, text: t(sent ? "summary.waiting" : "summary.next_round") });
        btn.addEventListener("click", readyAll);
        actions.appendChild(btn);
        if (sent && table) {
          const waiting = table.seats.filter((s) => s.kind === "person" && s.ready === false).map((s) => s.name);
          if (waiting.length) actions.appendChild(h("span", { class: "muted", text: t("summary.waiting_for", { names: waiting.join(", ") }) }));
        }
      }
      if (finished) {
        actions.appendChild(h("p", { text: t("status.finished") }));
        actions.appendChild(h("a", { class: "button", href: `#/replay/${encodeURIComponent(tableId)}`, text: t("lobby.watch_again") }));
      }
      const look = h("button", { type: "button", class: "small", text: t("summary.look") });
      look.addEventListener("click", () => {
        st.hideSummaryOf = v.round;
        render();
      });
      actions.appendChild(look);
      const card = summaryElement({ summary: v.summary, names: nm, number: v.round, events: st.events, actions });
      const hadFocus = layer.contains(document.activeElement);
      layer.replaceChildren(card);
      layer.hidden = false;
      if (hadFocus || !layer.dataset.shown) {
        const btn = layer.querySelector("[data-next-round]") || layer.querySelector("button");
        if (btn && !btn.disabled) btn.focus({ preventScroll: true });
        if (!layer.dataset.shown) layer.scrollTop = 0;
      }
      layer.dataset.shown = "1";
    } else {
      layer.hidden = true;
      layer.replaceChildren();
      delete layer.dataset.shown;
    }

    // the cover between two people at one screen
    const cover = q(".cover");
    if (isCovered) {
      const who = nm[st.active];
      setTermText(q(".cover-text"), t("cover.pass", { who }));
      q(".reveal").textContent = t("cover.show", { who });
      cover.hidden = false;
      if (!cover.contains(document.activeElement)) q(".reveal").focus();
    } else {
      cover.hidden = true;
    }
    q(".show-summary").textContent = t("table.show_summary");
    q(".leave").hidden = !seated().length || (table && table.status === "finished");
    for (const n of root.querySelectorAll(".side-actions [data-i18n]")) n.innerHTML = termify(t(n.dataset.i18n));
  }

  const onResize = () => {
    const w = q(".board-wrap").clientWidth;
    if (layoutFor(w) !== layoutFor(lastWidth)) render();
  };
  window.addEventListener("resize", onResize);
  const onKey = (ev) => {
    // an open dialog (the round's summary, the cover of a shared screen) keeps the focus
    const dialog = [q(".cover"), q(".summary-layer")].find((d) => !d.hidden);
    if (dialog && ev.key === "Tab") {
      const stops = [...dialog.querySelectorAll("button:not([disabled]), a[href], [tabindex='0']")];
      if (stops.length) {
        const at = stops.indexOf(document.activeElement);
        const next = ev.shiftKey ? (at <= 0 ? stops.length - 1 : at - 1) : (at + 1) % stops.length;
        stops[next].focus();
        ev.preventDefault();
      }
      return;
    }
    if (ev.key === "Escape" && dialog === q(".summary-layer")) {
      // the summary's "look at the table"; its button brings it back
      const v = chooseActive() && chooseActive().view;
      if (v) st.hideSummaryOf = v.round;
      render();
      q(".show-summary").focus();
      return;
    }
    if (ev.key === "Escape" && st.selected) {
      st.selected = null;
      render();
    }
  };
  window.addEventListener("keydown", onKey);
  render();

  return {
    render,
    unmount() {
      st.closed = true;
      window.removeEventListener("resize", onResize);
      window.removeEventListener("keydown", onKey);
      // a socket still connecting is closed once open (closing it now warns on the console)
      for (const c of st.conns) if (c.ws && c.ws.readyState === WebSocket.OPEN) c.ws.close();
    },
  };
}
