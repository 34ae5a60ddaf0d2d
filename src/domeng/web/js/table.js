// The table page: one WebSocket per seat this screen holds (several for "this screen"
// seats), or one to watch; the board, the running account, the round's summary, the
// turn clock, talk at the table, the share panel and the host's controls, and the
// final standings once the game is over.

import { api, forgetSeat, hostAction, hostToken, keepHost, keepSeat, seatsAt } from "./api.js";
import { describe } from "./account.js";
import { counted, drawBoard, layoutFor, roomBelow, tickClocks } from "./board.js";
import { createAttention } from "./attention.js";
import { createLiving } from "./living.js";
import { chatWords, createChat } from "./chat.js";
import { isAdmin } from "./club.js";
import { createHints, ct, reviewCache, reviewElement } from "./coach.js";
import { handoffDialog } from "./handoff.js";
import { keepEnd, showEnd } from "./logend.js";
import { againButton, hostButtons, removeButton } from "./host.js";
import { seatName, setTermText, stonesText, t, termify } from "./i18n.js";
import { sharePanel } from "./share.js";
import { roundsFinished, standingsElement } from "./standings.js";
import { h, summaryElement } from "./summary.js";
import { drawWait, tickWaits } from "./waits.js";
import { showApiError, showError, showServiceError, showNote } from "./ui.js";

const BUBBLE_MS = 5000;

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
    hideSummaryOf: 0,
    readySent: 0,
    closed: false,
    seq: 0,
    clock: null,
    bubbles: {},
    invites: {},
    invitesKey: null,
    shareKey: null,
    hostKey: null,
    againTo: null,
    hideStandings: false,
    lastRound: false,
    lastRoundShow: false,
    reviewOf: 0,
    leaving: false,
  };

  root.innerHTML = `
    <div class="table-page">
      <div class="table-main">
        <button type="button" class="skip skip-tiles" data-to-tiles></button>
        <h1 class="sr-only table-title"></h1>
        <section class="sr-only" data-sr-table aria-labelledby="sr-table-title">
          <h2 id="sr-table-title"></h2>
          <p data-sr-turn></p>
          <p data-sr-line></p>
          <p data-sr-hand></p>
          <ul data-sr-seats></ul>
        </section>
        <div class="sr-only" data-announce role="log" aria-live="polite" aria-relevant="additions"></div>
        <div class="status-bar">
          <p class="status" role="status" aria-live="polite"></p>
          <button type="button" class="primary small back" data-back hidden></button>
          <button type="button" class="small show-summary" hidden data-i18n="table.show_summary"></button>
          <div class="settings-bar" data-settings></div>
        </div>
        <div class="coach-box" hidden></div>
        <p class="notice" data-notice hidden></p>
        <div class="wait" data-wait hidden></div>
        <details class="host-panel" data-host-controls hidden>
          <summary></summary>
          <p class="muted host-help"></p>
          <div class="host-content"></div>
        </details>
        <div class="share" hidden></div>
        <div class="board-area"><div class="board-wrap"></div><div class="history-pop" hidden></div></div>
        <nav class="jumps" data-jumps>
          <button type="button" class="small" data-jump="tracker"></button>
          <button type="button" class="small" data-jump="account"></button>
          <button type="button" class="small" data-jump="chat"><span></span> <span class="unread" data-unread hidden></span></button>
        </nav>
      </div>
      <aside class="side">
        <div class="tracker-box" data-jump-to="tracker"></div>
        <h2 class="account-title" data-jump-to="account" tabindex="-1"></h2>
        <ol class="account"></ol>
        <div class="chat-box" data-jump-to="chat"></div>
        <div class="side-actions">
          <a class="button small download" data-i18n="table.download"></a>
          <button type="button" class="small leave" data-i18n="table.leave" hidden></button>
          <button type="button" class="small handoff" data-handoff data-i18n="handoff.button" hidden></button>
          <a class="button small" data-tournament-link data-i18n="table.tournament" hidden></a>
          <a class="button small" data-invite-guest data-i18n="club.invite_guest" hidden></a>
          <a class="button small nav-again" href="#/" data-i18n="nav.lobby"></a>
          <a class="button small nav-again" href="#/rules" data-i18n="nav.rules"></a>
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
  keepEnd(q(".account"));
  // the keyboard's way to the hand: the first playable tile (else the first tile)
  q("[data-to-tiles]").addEventListener("click", () => {
    const tile = q('[data-playable="true"][tabindex="0"]') || q("[data-tile]");
    if (tile) {
      tile.setAttribute("tabindex", "0");
      tile.focus();
    } else showNote(t("sr.no_tiles"));
  });
  // a phone: the tracker, the account and the talk are below the board, one tap away
  for (const b of root.querySelectorAll("[data-jump]")) {
    b.addEventListener("click", () => {
      const to = q(`[data-jump-to="${b.dataset.jump}"]`);
      to.scrollIntoView({ block: "start" });
      const focus = b.dataset.jump === "chat" ? q("[data-chat-input]") : b.dataset.jump === "account" ? to : to.querySelector("summary");
      if (focus && !focus.closest("[hidden]")) focus.focus({ preventScroll: true });
      if (b.dataset.jump === "chat") chatSeen();
      render();
    });
  }
  q(".download").href = `/api/tables/${encodeURIComponent(tableId)}/record?download=1`;
  q(".download").setAttribute("download", `domeng-${tableId}.json`);
  q(".show-summary").addEventListener("click", () => {
    st.hideSummaryOf = 0;
    st.hideStandings = false;
    render();
  });
  q(".leave").addEventListener("click", async () => {
    if (!window.confirm(t("table.leave_confirm"))) return;
    st.leaving = true;
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
  q("[data-handoff]").addEventListener("click", () => {
    // this screen's seat (the one shown, at a screen of several) to another device
    const c = talker();
    if (!c || !c.token) return;
    handoffDialog({
      tableId,
      seat: c.seat,
      token: c.token,
      letGo: () => {
        // the seat is the other device's now: this page watches
        c.token = null;
        c.seat = null;
        if (c.ws) c.ws.close();
        render();
      },
    });
  });
  q("[data-back]").addEventListener("click", () => {
    // "back to my seat": no computer plays on for me after my time ran out twice
    for (const c of seated()) {
      const seat = st.table && st.table.seats[c.seat];
      if (seat && seat.stand_in) send(c, { type: "back" });
    }
  });
  const chat = createChat(q(".chat-box"), {
    tableId,
    send(message) {
      const c = talker();
      return c ? send(c, message) : null;
    },
    onSaid(m) {
      st.bubbles[m.seat] = { m, until: performance.now() + BUBBLE_MS };
      render();
    },
  });
  const hints = createHints(q(".coach-box"), {
    send(message) {
      const c = chooseActive();
      return c && c.seat !== null && c.seat !== undefined ? send(c, message) : null;
    },
  });
  const reviews = reviewCache({ kind: "table", id: tableId }, () => render(), showApiError);
  // movement, the last plays, sound, the tracker, the settings (living.js)
  const living = createLiving(root, { render: () => render() });
  const attention = createAttention(); // a player elsewhere called back (attention.js)
  q(".reveal").addEventListener("click", () => {
    st.revealed = st.active;
    render();
    const first = root.querySelector('[data-playable="true"]') || root.querySelector("[data-tile]");
    if (first) first.focus();
  });

  // -- connections ---------------------------------------------------------------
  const held = watch ? [] : seatsAt(tableId);
  if (held.length) {
    for (const { seat, token } of held) st.conns.push({ seat, token, ws: null, view: null, state: 0, open: false, tries: 0 });
  } else {
    st.conns.push({ seat: null, token: null, ws: null, view: null, state: 0, open: false, tries: 0 });
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
        c.lost = true;
        render();
        // 1, 2, 4 … up to 15 seconds, with jitter, while the service is away
        setTimeout(() => connect(c), living.retryDelay(c.tries++));
      }
    });
  }

  function onMessage(c, msg) {
    switch (msg.type) {
      case "welcome":
        c.seat = msg.seat;
        c.tries = 0;
        c.lost = false;
        break;
      case "state":
        c.state = msg.state;
        tableCame(msg.table);
        c.view = msg.view;
        chat.setAll(msg.chat);
        if (msg.view && (msg.view.round > st.eventsRound || (msg.view.events || []).length >= st.events.length)) {
          st.events = msg.view.events || [];
          st.eventsRound = msg.view.round;
        }
        if (msg.view) living.know(msg.view.events || []);
        st.pending = false;
        render();
        break;
      case "update":
        c.state = msg.state;
        tableCame(msg.table);
        c.view = msg.view;
        if (msg.view) {
          if (msg.view.round !== st.eventsRound) {
            st.events = [];
            st.eventsRound = msg.view.round;
          }
          for (const e of msg.events) {
            if (e.round === st.eventsRound && e.index === st.events.length) {
              st.events.push(e);
              announce(describe(e, names())); // what just happened, to a screen reader
            }
          }
          living.see(msg.events, msg.table, c.seat);
        }
        st.pending = false;
        render();
        break;
      case "seats":
        c.state = msg.state;
        tableCame(msg.table);
        render();
        break;
      case "chat":
        chat.add(msg);
        break;
      case "chat_hidden": // a club's admin hid a message for everyone
        chat.hide(msg.at);
        break;
      case "hint":
        hints.came(msg);
        render();
        break;
      case "again":
        playAgain(msg);
        break;
      case "left":
        // the seat was left (the Leave button), or the host gave it to a computer
        if (!st.leaving) showNote(t("table.replaced"));
        forgetSeat(tableId, c.seat);
        c.seat = null;
        c.token = null;
        render();
        break;
      case "error":
        st.pending = false;
        if (chat.refused(msg.reply_to, msg.code)) break; // said in the chat panel, once
        if (hints.refused(msg.reply_to) && msg.code === "rate_limited") {
          showError(t("error.rate_limited_hint")); // not "before you say more"
          render();
          break;
        }
        if (msg.code === "seat_elsewhere") {
          // the seat was opened on another page or device, which plays it now: this page
          // watches (its connection, let go, comes back without the token) and says so
          c.token = null;
          c.seat = null;
          st.elsewhere = true;
          render();
          break;
        }
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

  /** Say `words` to a screen reader (the live log; the last few kept). */
  function announce(words) {
    const log = q("[data-announce]");
    log.appendChild(h("p", { text: words.replace(/\s+/g, " ") }));
    while (log.children.length > 6) log.firstElementChild.remove();
  }

  /** The table in words, for a screen reader: whose turn, the line and its ends, this
   * seat's tiles (and which can be played), every seat's tiles left, STONES and titles. */
  function drawTableInWords(v, nm, mine, playable, status) {
    q("#sr-table-title").textContent = t("sr.title");
    q("[data-sr-turn]").textContent = status;
    const tile = (n) => {
      const [a, b] = n.split("-");
      return t("board.tile_named", { a, b });
    };
    const line = q("[data-sr-line]");
    const hand = q("[data-sr-hand]");
    const seats = q("[data-sr-seats]");
    if (!v) {
      line.textContent = hand.textContent = "";
      seats.replaceChildren();
      return;
    }
    const laid = (v.line || []).map((x) => tile(Array.isArray(x) ? x.join("-") : String(x.tile || x)));
    line.textContent = laid.length && v.ends ? t("sr.line", { tiles: laid.join(", "), left: v.ends[0], right: v.ends[1] }) : t("board.empty_line");
    hand.textContent = mine && v.hand ? [t("sr.hand", { tiles: v.hand.map(tile).join(", ") || "—" }), playable.size ? t("sr.playable", { tiles: [...playable].map(tile).join(", ") }) : ""].filter(Boolean).join(" ") : "";
    seats.replaceChildren(
      ...nm.map((who, n) => {
        const left = v.hand_counts ? v.hand_counts[n] : null;
        const parts = [who];
        if (left !== null && left !== undefined) parts.push(counted("living.tiles", left));
        parts.push(stonesText(v.stones ? v.stones[n] : 0), counted("living.titles", v.titles ? v.titles[n] : 0));
        return h("li", { text: parts.join(", ") });
      }),
    );
  }

  /** Send a message on a seat's connection; answers its id (null: not sent). */
  function send(c, message) {
    if (!c.ws || c.ws.readyState !== WebSocket.OPEN) {
      showError(t("error.network"));
      return null;
    }
    const id = ++st.seq;
    c.ws.send(JSON.stringify({ ...message, id }));
    return id;
  }

  /** The connection that talks for this screen: the seat shown, else any. */
  function talker() {
    const c = chooseActive();
    if (c && c.seat !== null && c.seat !== undefined) return c;
    return st.conns.find((x) => x.seat !== null && x.seat !== undefined) || st.conns[0];
  }

  /** The table as a message brought it, and the turn clock counted from now. */
  function tableCame(table) {
    st.table = table;
    const now = performance.now();
    if (table.clock) {
      st.clock = { seat: table.clock.seat, ends: now + table.clock.left_ms, state: table.state };
      return;
    }
    // The service's update after a move carries no clock for the next person, whose time
    // starts as it is sent (a service bug, reported): their whole time, from now.
    const turn = table.turn;
    const s = turn !== null && turn !== undefined ? table.seats[turn] : null;
    const clocked = table.turn_seconds && table.status === "playing" && s && s.kind === "person" && s.taken && !s.stand_in && !s.waiting;
    if (!clocked) st.clock = null;
    else if (!st.clock || st.clock.state !== table.state || st.clock.seat !== turn) {
      st.clock = { seat: turn, ends: now + table.turn_seconds * 1000, state: table.state };
    }
  }

  /** The host started the same game again: this screen's seats there, then the table. */
  function playAgain(msg) {
    if (msg.token) keepSeat(msg.table_id, msg.seat, msg.token);
    if (st.againTo) return;
    st.againTo = msg.table_id;
    showNote(t("table.again_moving"));
    // the other seats of this screen get their own token in a moment
    setTimeout(() => {
      if (!st.closed) location.hash = `#/table/${encodeURIComponent(msg.table_id)}`;
    }, 400);
  }

  /** The host's "play again": their new host token and this screen's seats, then the table. */
  function hostAgain(answer) {
    keepHost(answer.id, answer.host_token);
    for (const c of st.conns) {
      const token = c.seat !== null && c.seat !== undefined && answer.tokens ? answer.tokens[String(c.seat)] : null;
      if (token) keepSeat(answer.id, c.seat, token);
    }
    if (!st.againTo) {
      st.againTo = answer.id;
      location.hash = `#/table/${encodeURIComponent(answer.id)}`;
    }
  }

  function hostDone(action, answer, extra) {
    // the answer may come after a newer message of the table: never go back to an older one
    if (answer.table && (!st.table || answer.table.state >= st.table.state)) st.table = answer.table;
    if (answer.invites) {
      st.invites = answer.invites;
      st.invitesKey = invitedKey(st.table);
    }
    if (action === "replace") showNote(t("host.replaced", { n: extra.seat + 1 }));
    if (action === "invite") showNote(t("host.invited", { n: extra.seat + 1 }));
    st.hostKey = null;
    render();
  }

  function invitedKey(table) {
    return table.seats.filter((s) => s.invited).map((s) => s.seat).join(",");
  }

  /** The host has the invitations of the invited seats still open (the service's). */
  function fetchInvites(table) {
    const key = invitedKey(table);
    if (!key) {
      st.invites = {};
      st.invitesKey = key;
      return;
    }
    if (key === st.invitesKey || table.status === "finished") return;
    st.invitesKey = key;
    hostAction(tableId, "invites")
      .then((r) => {
        st.invites = r.invites || {};
        render();
      })
      .catch((e) => {
        st.invitesKey = null;
        showApiError(e);
      });
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
    const twoEnds = ends.length > 1 && v.ends && v.ends[0] !== v.ends[1];
    if (!twoEnds && !viaKeyboard && living.confirming() && st.selected !== tile) {
      // "confirm my play": the first tap chooses the tile, a second (or Play) plays it
      st.selected = tile;
      st.selectedAt = performance.now();
      render();
      return;
    }
    if (twoEnds) {
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

  /** "Play" under a tile chosen with "confirm my play" (it fits one end). */
  function onConfirm() {
    const c = chooseActive();
    const v = c && c.view;
    if (!st.selected || !v || v.turn !== c.seat || st.pending) return;
    const move = v.legal_moves.find((m) => m.tile === st.selected);
    if (move) play(c, st.selected, move.end);
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
    if (!s.taken) return s.invited ? "invited" : "open";
    if (s.waiting) return "waiting";
    if (s.stand_in) return "stand_in";
    if (s.connected === false) return "away";
    return null;
  }

  let lastWidth = 0;
  let boardRoom = ""; // the board's max-height on a wide screen (fitBoard)
  let chatInSight = false; // kept by an IntersectionObserver (below)
  // a wide screen (style.css's side column), asked of a media query: reading
  // window.innerWidth after the board is redrawn lays the page out mid-render on a phone
  // (the viewport's scale waits for a layout), a long task at each move
  const wideScreen = window.matchMedia("(min-width: 901px)");
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
    // a seat taken during a round: its person watches (a spectator's view) until the next
    const ownView = !!(v && mySeatShown && v.seat === c.seat);
    q(".table-page").dataset.pending = st.pending ? "true" : "false";
    // several people at this screen and none of them in turn: no hand is shown (the last
    // one to play may have walked away), and whoever plays next takes the screen again
    const idle = sharedScreen() && v && !v.summary && !seated().some((x) => x.view.turn === x.seat);
    if (idle) st.revealed = null;
    const isCovered = covered() && v && !v.summary && !idle;

    const table = st.table;
    const finished = !!table && table.status === "finished";
    // while the connection is lost the hand is not playable: "reconnecting…"
    const offline = !!c && !c.open && (c.lost || !!c.view);
    const myTurn = !!(ownView && v.turn === c.seat && !v.summary && !finished && !offline);
    const playable = new Set(myTurn ? v.legal_moves.map((m) => m.tile) : []);
    let endChoices = null;
    if (st.selected && myTurn) {
      endChoices = [...new Set(v.legal_moves.filter((m) => m.tile === st.selected).map((m) => m.end))];
    }
    const now = performance.now();
    const bubbles = {};
    for (const [seat, b] of Object.entries(st.bubbles)) {
      if (b.until > now && !chat.isMuted(Number(seat))) bubbles[seat] = chatWords(b.m);
      else delete st.bubbles[seat];
    }
    // the board's width: measured once, then kept by the ResizeObserver below (measuring
    // it on every move made the page lay itself out mid-render, a long task each time)
    const wrap = q(".board-wrap");
    if (!lastWidth) lastWidth = wrap.clientWidth || window.innerWidth;
    const layout = layoutFor(lastWidth);
    const me = mySeatShown ? c.seat : 0;
    const board = drawBoard({
      layout,
      me,
      names: names(true),
      view: v || (table ? waitingView(table) : null),
      hand: ownView && !isCovered && !idle ? v.hand : null,
      playable,
      myTurn: myTurn && !isCovered,
      selected: st.selected,
      endChoices,
      fresh: null,
      marks: v ? living.marks(st.events) : null,
      onPlate: v ? living.onPlate : null,
      offline: offline && ownView,
      faces: null,
      presence: table ? table.seats.map(presenceOf) : null,
      clock: finished || (v && v.summary) ? null : st.clock,
      bubbles,
      hinted: myTurn && !isCovered ? hints.marked(c.state) : null,
      onTile,
      onEnd,
    });
    hints.render({ table, myTurn: myTurn && !isCovered, state: c ? c.state : 0, names: nm, opening: !!v && !(v.line || []).length });
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.tile : null;
    wrap.replaceChildren(board);
    living.drawn(board, { layout, me, view: v, myTurn: myTurn && !isCovered, selected: st.selected, endChoices, names: nm, events: st.events, spectator: !mySeatShown, onConfirm });
    if (focused) {
      const again = wrap.querySelector(`[data-tile="${focused}"]`);
      if (again) again.focus();
    } else if (st.keyboard && myTurn && !isCovered && !st.selected && document.activeElement === document.body) {
      // someone playing by keyboard: their turn again puts them back on their tiles
      const first = wrap.querySelector('[data-playable="true"]');
      if (first) first.focus();
    }

    // status line
    const mine = st.conns.filter((x) => x.seat !== null && x.seat !== undefined).map((x) => x.seat);
    const waitingSeat = !!table && mine.some((n) => table.seats[n] && table.seats[n].waiting);
    let status;
    if (offline) status = t("living.reconnecting");
    else if (!c || !c.open) status = t("status.connecting");
    else if (!table) status = t("status.connecting");
    else if (finished) status = t("status.finished");
    else if (table.status === "waiting") status = t("status.waiting");
    else if (v && v.summary) status = t("status.round_over", { n: v.round });
    else if (waitingSeat) status = t("status.waiting_seat");
    else if (v && myTurn) status = living.turnText({ who: nm[c.seat], selected: st.selected, endChoices });
    else if (v && v.turn !== null) status = t("status.turn_of", { who: nm[v.turn] });
    else status = "";
    const statusNode = q(".status");
    if (statusNode.dataset.said !== status) {
      // said again only when it changed: a screen reader hears each change once
      statusNode.dataset.said = status;
      setTermText(statusNode, status);
    }
    drawTableInWords(v, nm, mySeatShown && ownView && !isCovered, playable, status);
    q("[data-to-tiles]").textContent = t("sr.to_tiles");
    q(".table-title").textContent = t("lobby.table_name", { id: tableId });

    // elsewhere (another tab, another app): their turn, or a round waiting for them
    const readySaid = !!table && !!v && seated().every((x) => table.seats[x.seat] && table.seats[x.seat].ready === true);
    const roundWaits = !!(v && v.summary && !finished && seated().length && st.readySent !== v.round && !readySaid);
    attention.update({ myTurn: myTurn && !isCovered, roundWaits, spectator: !mySeatShown });

    // a computer plays on for me after my time ran out twice: "back to my seat"
    const standIn = !!table && !finished && mine.some((n) => table.seats[n] && table.seats[n].stand_in && !table.seats[n].waiting);
    const back = q("[data-back]");
    back.hidden = !standIn;
    back.textContent = t("table.back");
    const notice = q("[data-notice]");
    const elsewhere = !!st.elsewhere && !seated().length;
    notice.hidden = !(standIn || waitingSeat || elsewhere);
    notice.textContent = standIn ? t("status.stood_in", { back: t("table.back") }) : waitingSeat ? t("status.waiting_seat") : elsewhere ? t("error.seat_elsewhere") : "";
    notice.toggleAttribute("data-elsewhere", elsewhere && !standIn && !waitingSeat);
    // what the table waits for, until when (waits.js)
    drawWait(q("[data-wait]"), { table, names: nm, mine, host: !!hostToken(tableId), tableId, done: hostDone });

    // the host's controls, and the invitations to share
    const host = !!hostToken(tableId) && !!table;
    if (host) fetchInvites(table);
    const panel = q("[data-host-controls]");
    panel.hidden = !host;
    if (host) {
      panel.querySelector("summary").textContent = t("host.title");
      panel.querySelector(".host-help").textContent = t("host.help");
      const key = JSON.stringify([document.documentElement.lang, table.status, table.seats.map((s) => [s.kind, s.taken, s.connected, s.stand_in, s.name])]);
      if (key !== st.hostKey) {
        st.hostKey = key;
        const hadFocus = panel.contains(document.activeElement) ? document.activeElement.dataset.host + (document.activeElement.dataset.seat || "") : null;
        panel.querySelector(".host-content").replaceChildren(hostButtons({ tableId, table, names: nm, mine: new Set(mine), done: hostDone, again: hostAgain }));
        const again = hadFocus && [...panel.querySelectorAll("[data-host]")].find((b) => b.dataset.host + (b.dataset.seat || "") === hadFocus);
        if (again) again.focus();
      }
    }
    const share = q(".share");
    // once a round is dealt, on a wide screen, the invitations go to the side column: the
    // host's own tiles stay above the fold (at 1280x800 they were pushed below it)
    const aside = wideScreen.matches && !!table && (table.status === "playing" || table.status === "between");
    const shareHome = aside ? q(".side") : q(".table-main");
    if (share.parentElement !== shareHome) {
      if (aside) shareHome.insertBefore(share, q(".tracker-box"));
      else shareHome.insertBefore(share, q(".board-area"));
    }
    const invites = host && !finished ? st.invites : {};
    const joins = table && !finished ? table.links.join : [];
    const shareKey = JSON.stringify([document.documentElement.lang, invites, joins]);
    if (shareKey !== st.shareKey) {
      // redrawn only when it changes: the QR codes are not fetched again at every move
      st.shareKey = shareKey;
      const box = sharePanel({ invites, joins });
      share.replaceChildren(...(box ? [box] : []));
      share.hidden = !box;
    }

    // the running account
    q(".account-title").textContent = v ? t("account.title", { n: v.round }) : t("account.none");
    const list = q(".account");
    const accountKey = JSON.stringify([document.documentElement.lang, st.eventsRound, st.events.length, nm]);
    if (list.dataset.key !== accountKey) {
      // only when it changed, and scrolled to its end at the next frame (not laid out now)
      list.dataset.key = accountKey;
      list.replaceChildren(...st.events.map((e) => setTermText(h("li", { class: `ev ev-${e.kind}${e.stand_in ? " ev-stand-in" : ""}` }), describe(e, nm))));
      requestAnimationFrame(() => showEnd(list)); // its top line whole (logend.js)
    }

    // talk at the table
    const canTalk = mine.length > 0 || (!!table && table.spectator_chat);
    chat.render({ names: nm, mine: new Set(mine), canTalk, seats: table ? table.seats : [] });
    drawJumps();

    // the round's summary, or the final standings once the game is over
    const layer = q(".summary-layer");
    const showSummary = v && v.summary && st.hideSummaryOf !== v.round && !finished;
    const showStandings = finished && !st.hideStandings;
    q(".show-summary").hidden = !((v && v.summary && !showSummary && !finished) || (finished && !showStandings));
    q(".show-summary").textContent = t(finished ? "standings.show" : "table.show_summary");
    if (showSummary || showStandings) {
      const cards = [];
      if (showStandings) {
        const actions = h("div", { class: "actions" });
        if (host) {
          actions.appendChild(againButton({ tableId, again: hostAgain }));
          actions.appendChild(removeButton(tableId));
        }
        if (roundsFinished(table)) actions.appendChild(h("a", { class: "button", href: `#/replay/${encodeURIComponent(tableId)}`, text: t("lobby.watch_again") }));
        actions.appendChild(h("a", { class: "button", href: `/api/tables/${encodeURIComponent(tableId)}/record?download=1`, download: `domeng-${tableId}.json`, text: t("table.download") }));
        if (v && v.summary) {
          const last = h("button", { type: "button", "aria-expanded": st.lastRound ? "true" : "false", "data-last-round": "", text: t("standings.last_round") });
          last.addEventListener("click", () => {
            st.lastRound = !st.lastRound;
            st.lastRoundShow = st.lastRound; // brought into view (it comes below the standings)
            render();
          });
          actions.appendChild(last);
        }
        const look = h("button", { type: "button", class: "small", text: t("summary.look") });
        look.addEventListener("click", () => {
          st.hideStandings = true;
          render();
        });
        actions.appendChild(look);
        if (!host) actions.appendChild(h("p", { class: "muted", text: t("standings.again_help") }));
        cards.push(standingsElement(table, nm, actions));
        if (st.lastRound && v && v.summary) cards.push(summaryElement({ summary: v.summary, names: nm, number: v.round, events: st.events, actions: null }));
      } else {
        const actions = h("div", { class: "actions" });
        let nextRound = false; // the "Next round" button, still to be pressed
        if (seated().length) {
          const mineSeen = seated().map((x) => x.seat);
          const saidReady = !!table && mineSeen.every((n) => table.seats[n].ready === true);
          const sent = st.readySent === v.round || saidReady;
          nextRound = !sent;
          const btn = h("button", { type: "button", class: "primary", "data-next-round": "", disabled: sent, text: t(sent ? "summary.waiting" : "summary.next_round") });
          btn.addEventListener("click", readyAll);
          actions.appendChild(btn);
          if (sent && table) {
            const waiting = table.seats.filter((s) => s.kind === "person" && s.ready === false).map((s) => s.name);
            if (waiting.length) actions.appendChild(h("span", { class: "muted", text: t("summary.waiting_for", { names: waiting.join(", ") }) }));
          }
        }
        // the wait for ready, with its time left, and the host's "start the next round now"
        const waitBox = h("div", { class: "wait", "data-wait": "", hidden: true });
        drawWait(waitBox, { table, names: nm, mine: seated().map((x) => x.seat), nextRound, host: !!hostToken(tableId), tableId, done: hostDone });
        actions.appendChild(waitBox);
        const look = h("button", { type: "button", class: "small", text: t("summary.look") });
        look.addEventListener("click", () => {
          st.hideSummaryOf = v.round;
          render();
        });
        actions.appendChild(look);
        const reviewer = mySeatShown ? c.seat : null;
        if (reviewer !== null) {
          // the coach's review of this seat's decisions in the round just over
          const open = st.reviewOf === v.round;
          const btn = h("button", { type: "button", class: "small", "data-review-open": "", "aria-expanded": open ? "true" : "false", text: ct("review") });
          btn.addEventListener("click", () => {
            st.reviewOf = open ? 0 : v.round;
            st.reviewShow = !open; // brought into view (on a phone it is far below)
            render();
          });
          actions.appendChild(btn);
        }
        cards.push(summaryElement({ summary: v.summary, names: nm, number: v.round, events: st.events, actions }));
        if (reviewer !== null && st.reviewOf === v.round) {
          const doc = reviews.get(reviewer, v.round);
          cards.push(doc ? reviewElement(doc, nm) : h("p", { class: "muted review-card", "data-reviewing": "", text: ct("reviewing") }));
        }
      }
      const hadFocus = layer.contains(document.activeElement) ? document.activeElement.dataset : null;
      layer.replaceChildren(h("div", { class: "layer-cards" }, cards));
      layer.hidden = false;
      layer.setAttribute("aria-labelledby", showStandings ? "standings-title" : "summary-title");
      const kind = showStandings ? "standings" : "summary";
      if (hadFocus || layer.dataset.shown !== kind) {
        let keep = hadFocus && hadFocus.lastRound !== undefined ? layer.querySelector("[data-last-round]") : null;
        if (hadFocus && hadFocus.reviewOpen !== undefined) keep = layer.querySelector("[data-review-open]");
        const btn = keep || layer.querySelector("[data-next-round]") || layer.querySelector("button");
        if (btn && !btn.disabled) btn.focus({ preventScroll: true });
        if (layer.dataset.shown !== kind) layer.scrollTop = 0;
      }
      layer.dataset.shown = kind;
      const lastRound = st.lastRoundShow ? layer.querySelector("[data-round-summary]") : null;
      if (lastRound) {
        st.lastRoundShow = false;
        lastRound.scrollIntoView({ block: "start" });
      }
      const review = st.reviewShow ? layer.querySelector("[data-review], [data-reviewing]") : null;
      if (review) {
        review.scrollIntoView({ block: "start" });
        if (review.matches("[data-review]")) {
          st.reviewShow = false; // shown: its heading is read out, and the reader is there
          review.setAttribute("tabindex", "-1");
          review.focus({ preventScroll: true });
        }
      }
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
    q(".leave").hidden = !seated().length || finished;
    q("[data-handoff]").hidden = !seated().length || finished;
    // a tournament's table: back to its page; in a club, an admin invites a guest here
    const tournament = table && table.links.tournament ? table.links.tournament.split("#")[1] : null;
    q("[data-tournament-link]").hidden = !tournament;
    if (tournament) q("[data-tournament-link]").setAttribute("href", `#${tournament}`);
    q("[data-invite-guest]").hidden = !table || finished || !isAdmin();
    if (table) q("[data-invite-guest]").setAttribute("href", `#/members/${encodeURIComponent(table.id)}`);
    for (const n of root.querySelectorAll(".side-actions [data-i18n]")) n.innerHTML = termify(t(n.dataset.i18n));
    // the room last measured for the board (fitted again, once laid out, when what lies
    // above it changes: see `roomWatch` below)
    if (wideScreen.matches) board.style.maxHeight = boardRoom;
  }

  /** When the newest message looked at was said, kept in this browser (a reload, or the
   * browser closed and opened again, does not count what was seen before as new); 0: the
   * talk not looked at yet. */
  function chatSeenAt() {
    try {
      return Number(localStorage.getItem(`domeng.chatSeen.${tableId}`)) || 0;
    } catch {
      return 0; // storage refused: every message counted until the talk is looked at
    }
  }

  function chatSeen() {
    const at = chat.lastAt();
    if (at <= chatSeenAt()) return;
    try {
      localStorage.setItem(`domeng.chatSeen.${tableId}`, String(at));
    } catch {
      // storage refused: nothing kept
    }
  }

  /** The phone's buttons to the tracker, the account and the talk (what was said since
   * the talk was last looked at, counted on its button). */
  function drawJumps() {
    for (const b of root.querySelectorAll("[data-jump]")) {
      const label = t(`jump.${b.dataset.jump}`);
      if (b.dataset.jump === "chat") b.firstElementChild.textContent = label;
      else b.textContent = label;
    }
    q(".jumps").setAttribute("aria-label", t("jump.title"));
    if (chatInSight) chatSeen();
    const unread = chat.heardAfter(chatSeenAt(), new Set(seated().map((c) => c.seat)));
    const badge = q("[data-unread]");
    badge.hidden = !unread;
    badge.textContent = String(unread);
  }

  /** On a wide screen the whole board, own tiles included, fits below what is above it
   * (the host's panel, the invitations): its height is what the window has left. */
  function fitBoard(board) {
    if (!wideScreen.matches) {
      board.style.maxHeight = boardRoom = "";
      return;
    }
    boardRoom = roomBelow(q(".board-wrap"));
    if (board.style.maxHeight !== boardRoom) board.style.maxHeight = boardRoom;
  }
  // The board is fitted when what lies above it (the status, the notice, the wait, the
  // host's panel, the invitations) changes the size of the table's column, told after the
  // page is laid out; each new board takes the last room at once. Measured at the end of
  // every render, the page was laid out twice a move (84 layouts a round, 64 since:
  // benchmarks/render.py); measured before the notice was drawn,
  // the board kept the old room (a tester saw it change size between two turns).
  const roomWatch = new ResizeObserver(() => {
    const board = q("svg.board");
    if (board) fitBoard(board);
  });
  roomWatch.observe(q(".table-main"));

  const onResize = () => {
    const w = q(".board-wrap").clientWidth;
    const changed = layoutFor(w) !== layoutFor(lastWidth);
    lastWidth = w || lastWidth;
    if (changed) render();
    else {
      const board = q("svg.board");
      if (board) fitBoard(board);
    }
  };
  window.addEventListener("resize", onResize);
  // the board's width as the page lays it out (a side column that comes or goes changes
  // it without the window's resizing), told after layout, never asked for mid-render
  const sized = new ResizeObserver((entries) => {
    const w = Math.round(entries[entries.length - 1].contentRect.width);
    if (!w || w === lastWidth) return;
    const changed = layoutFor(w) !== layoutFor(lastWidth);
    lastWidth = w;
    if (changed) render();
  });
  sized.observe(q(".board-wrap"));
  // whether the talk is in sight (what was said meanwhile is counted on its button)
  const sight = new IntersectionObserver((entries) => {
    chatInSight = entries[entries.length - 1].isIntersecting;
    if (chatInSight) drawJumps();
  });
  sight.observe(q(".chat-box"));
  const onKey = (ev) => {
    if (document.querySelector("[data-remove-dialog]")) return; // it has keys of its own
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
      if (st.table && st.table.status === "finished") st.hideStandings = true;
      else if (v) st.hideSummaryOf = v.round;
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
  // the turn clock counts down between messages; a bubble goes after a few seconds
  const ticker = setInterval(() => {
    tickClocks(root);
    tickWaits(root);
    const now = performance.now();
    if (Object.values(st.bubbles).some((b) => b.until <= now)) render();
  }, 250);
  render();

  return {
    render,
    unmount() {
      st.closed = true;
      clearInterval(ticker);
      living.unmount();
      attention.unmount();
      window.removeEventListener("resize", onResize);
      sized.disconnect();
      roomWatch.disconnect();
      sight.disconnect();
      window.removeEventListener("keydown", onKey);
      // a socket still connecting is closed once open (closing it now warns on the console)
      for (const c of st.conns) if (c.ws && c.ws.readyState === WebSocket.OPEN) c.ws.close();
    },
  };
}
