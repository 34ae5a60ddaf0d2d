// The table drawn in SVG: the felt, the line, the five seats around it, the pile of
// stones, and (for a seat) its hand at the bottom. A pure function of what it is given.

import { el, layoutLine, openingIndex, place, text, tileBack, tileFace } from "./svg.js";
import { language, pluralRules, stonesText, t, termMeaning } from "./i18n.js";
import { SEAT_COLOURS, seatShape } from "./history.js";

const LAYOUTS = {
  wide: {
    w: 1000,
    h: 660,
    seats: [
      [120, 598],
      [112, 330],
      [290, 68],
      [710, 68],
      [888, 330],
    ],
    hand: [560, 586],
    box: { left: 228, right: 772, cy: 318, top: 140, bottom: 540 },
    s: 30,
    pile: [500, 60],
    handS: 40,
  },
  tall: {
    w: 600,
    h: 870,
    seats: [
      [300, 680],
      [112, 584],
      [150, 70],
      [450, 70],
      [488, 584],
    ],
    hand: [300, 800],
    box: { left: 68, right: 532, cy: 330, top: 130, bottom: 620 },
    s: 26,
    pile: [300, 66],
    handS: 42,
  },
};

function fits(laid, box, s) {
  return laid.tiles.every((t) => t.cy - s >= box.top && t.cy + s <= box.bottom);
}

function stoneIcon(x, y, r) {
  return el("circle", { cx: x, cy: y, r, class: "stone" });
}

function titled(node, label) {
  const title = el("title");
  title.textContent = label;
  node.appendChild(title);
  return node;
}

// the seat names' own font (style.css: the shipped Devanagari face first), so that a
// name is measured as it is drawn, a Hindi one too on a system without Devanagari
const NAME_FONT = '700 {size}px "Domeng Devanagari", system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif';
let measurer = null;
// a label's width at a size, measured once (the same names are measured at every move,
// and setting the canvas's font each time was a good part of a move's long task on a
// phone), and again once a font has come (a Devanagari name in its own face)
const widths = new Map();
if (document.fonts) document.fonts.addEventListener("loadingdone", () => widths.clear());

function nameWidth(label, size) {
  const key = `${size} ${label}`;
  let wide = widths.get(key);
  if (wide !== undefined) return wide;
  measurer = measurer || document.createElement("canvas").getContext("2d");
  if (!measurer) return label.length * size * 0.6;
  measurer.font = NAME_FONT.replace("{size}", size);
  wide = measurer.measureText(label).width;
  if (widths.size > 2000) widths.clear();
  widths.set(key, wide);
  return wide;
}

/** A seat's name as it fits ``room`` pixels: smaller type (down to 11 px), then without
 * an aside in brackets, before it is cut short; "Emba · expert, strong" stays whole. */
function fitName(label, room) {
  const full = 17;
  const least = 11;
  // the whole name, else without a level's "(random)" aside, in type as small as 11 px
  const shorter = label.replace(/\s*\([^()]*\)\s*$/, "");
  for (const candidate of shorter === label ? [label] : [label, shorter]) {
    const wide = nameWidth(candidate, full);
    if (wide <= room) return { text: candidate, size: full };
    const size = Math.floor((full * room) / wide);
    if (size >= least) return { text: candidate, size };
  }
  let shown = shorter;
  while (shown.length > 1 && nameWidth(shown, least) > room) shown = `${shown.slice(0, -2)}…`;
  return { text: shown, size: least };
}

/** "4 tiles", "1 title": a count in words, singular or plural in this language. */
export function counted(key, n) {
  const form = pluralRules(language()).select(n) === "one" ? "one" : "other";
  return t(`${key}_${form}`, { n });
}

/** The type size (11 px at least) at which a label fits ``room`` pixels. */
function fitLabel(label, room, size) {
  const wide = nameWidth(label, size);
  return wide <= room ? size : Math.max(11, Math.floor((size * room) / wide));
}

const overlaps = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

/** Where an end's caption goes: below its ring, or above it, centred or reading towards
 * the middle, else beside it: the first place on no tile of the line and no seat's plate. */
function captionSpot(label, x, y, ring, dir, L, laid, ls) {
  const w = nameWidth(label, 14);
  const plates = L.seats.map(([sx, sy], r) => {
    const half = (r === 1 || r === 4 ? 164 : 176) / 2;
    return [sx - half, sy - 48, sx + half, sy + 48];
  });
  const tiles = laid.tiles.map((tl) => {
    const across = Math.abs(tl.angle % 180) === 90;
    const [tw, th] = across ? [ls, 2 * ls] : [2 * ls, ls];
    return [tl.cx - tw / 2, tl.cy - th / 2, tl.cx + tw / 2, tl.cy + th / 2];
  });
  const inward = x > L.w / 2 ? [x + ring, "end"] : [x - ring, "start"];
  const rows = dir[1] < 0 ? [y - ring - 8, y + ring + 16] : [y + ring + 16, y - ring - 8];
  const spots = rows.flatMap((ly) => [[x, ly, "middle"], [inward[0], ly, inward[1]]]);
  spots.push([x - ring - 6, y + 5, "end"], [x + ring + 6, y + 5, "start"]); // beside it
  for (const [lx, ly, anchor] of spots) {
    const left = anchor === "middle" ? lx - w / 2 : anchor === "end" ? lx - w : lx;
    const box = [left, ly - 14, left + w, ly + 4];
    if (!plates.some((r) => overlaps(box, r)) && !tiles.some((r) => overlaps(box, r))) return [lx, ly, anchor];
  }
  return spots[0];
}

/** A seat's plate: name, tiles (backs, or faces in a replay), stones, titles, CAMAT. */
function seatPanel(o) {
  const { x, y, name, count, faces, stones, titles, camat, turn, self, lacking } = o;
  const w = o.width || 176;
  const h = 96;
  const g = el("g", { class: `seat${turn ? " turn" : ""}${self ? " self" : ""}`, "data-seat": o.seat, transform: `translate(${x} ${y})` });
  g.appendChild(el("rect", { x: -w / 2, y: -h / 2, width: w, height: h, rx: 14, class: "plate" }));
  if (turn) {
    // a mark on either side: the side seats stand far enough in (LAYOUTS) for both to
    // lie on the felt, inside its edge (at the board's edge the outer one was cut off)
    g.appendChild(el("path", { d: `M ${-w / 2 - 16} -8 l 12 8 l -12 8 z`, class: "turn-mark" }));
    g.appendChild(el("path", { d: `M ${w / 2 + 16} -8 l -12 8 l 12 8 z`, class: "turn-mark" }));
  }
  const fitted = fitName(name, w - 14);
  const label = text(0, -h / 2 + 20, fitted.text, { class: "seat-name", "text-anchor": "middle", style: `font-size: ${fitted.size}px` });
  if (fitted.text === name) g.appendChild(label);
  else g.appendChild(titled(el("g", { class: "seat-name-cut" }, [label]), name)); // the whole name on hover
  if (faces) {
    const fs = 11;
    const step = fs + 5;
    faces.forEach((tn, i) => {
      const [a, b] = tn.split("-").map(Number);
      const fx = (i - (faces.length - 1) / 2) * step;
      g.appendChild(place(tileFace(a, b, fs), fx, 2, 90));
    });
  } else if (count !== null && count !== undefined) {
    // the backs, and how many in words ("4 tiles": a phone has no hover)
    const bs = 10;
    const words = counted("living.tiles", count);
    const fit = fitLabel(words, w / 2 - 14, 15);
    const backs = count * (bs + 5) - 5;
    const left = Math.max(-w / 2 + 10, -(backs + 8 + nameWidth(words, fit)) / 2);
    for (let i = 0; i < count; i++) g.appendChild(place(tileBack(bs), left + bs / 2 + i * (bs + 5), 1));
    const at = count ? left + backs + 8 : -nameWidth(words, fit) / 2;
    g.appendChild(text(at, 6, words, { class: "seat-small seat-tiles", "data-tiles-left": count, style: `font-size: ${fit}px` }));
  }
  // STONES and CAMAT titles in words, each in half the plate
  const stonesWords = stonesText(stones);
  const info = el("g", { class: "seat-info", "data-seat-stones": stones });
  const sFit = fitLabel(stonesWords, w / 2 - 14, 15);
  info.appendChild(text(-w / 2 + 10, h / 2 - 11, stonesWords, { class: "seat-small", style: `font-size: ${sFit}px` }));
  g.appendChild(info);
  const titleWords = counted("living.titles", titles);
  const tFit = fitLabel(`★ ${titleWords}`, w / 2 - 14, 15);
  const star = text(w / 2 - 10, h / 2 - 11, `★ ${titleWords}`, { class: "seat-small", "text-anchor": "end", "data-seat-titles": titles, style: `font-size: ${tFit}px` });
  g.appendChild(titled(star, `${t("board.titles")}: ${titles}`));
  if (o.colour) {
    g.appendChild(el("rect", { x: -w / 2 + 18, y: -h / 2 + 1, width: w - 36, height: 4, rx: 2, fill: o.colour, class: "seat-stripe" }));
    // the seat's shape beside its colour: its last tile on the line carries the same one
    g.appendChild(seatShape(o.seat, w / 2 - 13, -h / 2 + 3, 7, o.colour));
  }
  if (o.passed && !turn) {
    // the seat's last move was a PASS: a badge on the plate's edge until it is in turn again
    const badge = el("g", { class: "pass-badge", "data-pass-badge": o.seat, transform: `translate(${-w / 2 + 32} ${-h / 2 - 5})` });
    const pop = el("g", { class: "pass-pop" });
    pop.appendChild(el("rect", { x: -26, y: -11, width: 52, height: 22, rx: 11 }));
    pop.appendChild(text(0, 5, "PASS", { "text-anchor": "middle" }));
    badge.appendChild(pop);
    g.appendChild(titled(badge, `PASS — ${termMeaning("PASS")}`));
  }
  if (camat) {
    const badge = el("g", { class: "camat-badge", transform: `translate(${w / 2 - 30} ${-h / 2})` });
    badge.appendChild(el("rect", { x: -32, y: -10, width: 64, height: 20, rx: 10 }));
    badge.appendChild(text(0, 5, "CAMAT", { "text-anchor": "middle" }));
    g.appendChild(titled(badge, `CAMAT — ${termMeaning("CAMAT")}`));
  }
  if (o.clockEnds) {
    // the time the seat in turn has left, counted down by the page (data-clock-ends)
    const left = Math.max(0, o.clockEnds - performance.now());
    const badge = el("g", { class: `clock-badge${left <= 5000 ? " low" : ""}`, "data-clock": o.seat, "data-clock-ends": o.clockEnds, transform: `translate(${-w / 2 + 34} ${-h / 2})` });
    badge.appendChild(el("rect", { x: -34, y: -11, width: 68, height: 22, rx: 11 }));
    badge.appendChild(el("circle", { cx: -21, cy: 0, r: 6.5, class: "clock-face" }));
    badge.appendChild(el("path", { d: "M -21 -4 L -21 0 L -18 2", class: "clock-hand" }));
    badge.appendChild(text(8, 5, clockText(left), { "text-anchor": "middle", "data-clock-text": "" }));
    g.appendChild(titled(badge, t("board.clock", { who: name })));
  }
  const notes = [];
  if (o.presence) notes.push(t(`board.${o.presence}`));
  if (lacking && lacking.length) notes.push(t("board.lacks", { numbers: lacking.join(" ") }));
  if (lacking) g.dataset.lacking = lacking.join(" ");
  if (notes.length) {
    const below = o.notesAbove ? -h / 2 - 8 : h / 2 + 16;
    g.appendChild(text(0, below, notes.join(" · "), { class: "seat-lack", "text-anchor": "middle" }));
  }
  if (o.presence) g.classList.add("absent");
  return g;
}

/** "0:12": the time left on a turn clock. */
export function clockText(ms) {
  const secs = Math.ceil(Math.max(0, ms) / 1000);
  return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
}

/** Count every turn clock on the page down (the board draws them; this keeps them going). */
export function tickClocks(root) {
  const now = performance.now();
  for (const badge of root.querySelectorAll("[data-clock-ends]")) {
    const left = Number(badge.dataset.clockEnds) - now;
    const shown = badge.querySelector("[data-clock-text]");
    const words = clockText(left);
    if (shown.textContent !== words) shown.textContent = words;
    badge.classList.toggle("low", left <= 5000);
  }
}

/** A text cut into at most two lines that fit ``room`` pixels (… where it is cut). */
function wrapLines(words, room, size) {
  const lines = [];
  let rest = words.replace(/\s+/g, " ").trim();
  while (rest && lines.length < 2) {
    let n = rest.length;
    while (n > 1 && nameWidth(rest.slice(0, n), size) > room) {
      const space = rest.lastIndexOf(" ", n - 1);
      n = space > 0 && nameWidth(rest.slice(0, space), size) <= room ? space : n - 1;
    }
    lines.push(rest.slice(0, n).trim());
    rest = rest.slice(n).trim();
  }
  if (rest) {
    let last = lines[lines.length - 1];
    while (last.length > 1 && nameWidth(`${last}…`, size) > room) last = last.slice(0, -1);
    lines[lines.length - 1] = `${last}…`;
  }
  return lines;
}

/** What a seat just said, in a bubble by its plate (below the top seats' plates, above
 * the others'). */
function bubble(L, r, words) {
  const [x, y] = L.seats[r];
  const size = 15;
  const lines = wrapLines(words, 210, size);
  const wide = Math.max(...lines.map((l) => nameWidth(l, size))) + 24;
  const high = lines.length * 19 + 12;
  const below = r === 2 || r === 3;
  // below: clear of the plate's notes ("lacks 1 3"); above: of the clock badge
  const top = below ? y + 48 + 24 : y - 48 - 24 - high;
  const left = Math.max(14, Math.min(L.w - 14 - wide, x - wide / 2));
  const g = el("g", { class: "bubble", "data-bubble": "", role: "note" });
  const tipX = Math.max(left + 14, Math.min(left + wide - 14, x));
  const tip = below ? `M ${tipX - 8} ${top + 1} L ${tipX} ${top - 10} L ${tipX + 8} ${top + 1} Z` : `M ${tipX - 8} ${top + high - 1} L ${tipX} ${top + high + 10} L ${tipX + 8} ${top + high - 1} Z`;
  g.appendChild(el("rect", { x: left, y: top, width: wide, height: high, rx: 12, class: "bubble-body" }));
  g.appendChild(el("path", { d: tip, class: "bubble-body bubble-tip" }));
  lines.forEach((l, i) => g.appendChild(text(left + 12, top + 21 + i * 19, l, { class: "bubble-text" })));
  return g;
}

function pile(x, y, n) {
  const g = el("g", { class: "pile", transform: `translate(${x} ${y})` });
  g.appendChild(el("ellipse", { cx: 0, cy: 4, rx: 58, ry: 30, class: "bowl" }));
  // stones heaped in rings
  const spots = [];
  const rings = [[0, 0, 1], [14, 0, 6], [27, 0, 11], [40, 0, 16]];
  for (const [r, , k] of rings) {
    for (let i = 0; i < k; i++) {
      const a = (i / k) * Math.PI * 2 + r;
      spots.push([Math.cos(a) * r * 1.15, Math.sin(a) * r * 0.5]);
    }
  }
  for (let i = 0; i < Math.min(n, spots.length); i++) {
    g.appendChild(stoneIcon(spots[i][0], spots[i][1] + 2, 6.2));
  }
  g.appendChild(text(0, 50, t("board.table_stones", { n }), { class: "pile-label", "text-anchor": "middle" }));
  return titled(g, `STONES: ${n}`);
}

/**
 * Draw the table. `o`: {layout: "wide"|"tall", me: seat at the bottom, names, view (the
 * view shown), hand: tiles shown at the bottom or null, playable: Set of tile names,
 * myTurn, selected, endChoices: ["left","right"], fresh: Set of line tile keys to
 * animate, faces: per seat tiles shown face up (replay) or null, presence: per seat a
 * note ("away", ...) or null, clock: {seat, ends: performance.now() time} or null,
 * bubbles: per seat the words it just said, marks: the last plays ({tiles: line tile →
 * seat, latest, passed: Set of seats}, history.js) or null, onPlate(seat, "hover" |
 * "leave" | "tap") or null, offline: the hand shown as not playable, onTile, onEnd}.
 */
export function drawBoard(o) {
  const L = LAYOUTS[o.layout];
  const v = o.view;
  const svg = el("svg", {
    class: "board",
    viewBox: `0 0 ${L.w} ${L.h}`,
    role: "group",
    "aria-label": t("board.label"),
  });
  const grad = el("radialGradient", { id: "felt-light", cx: "50%", cy: "45%", r: "65%" }, [
    el("stop", { offset: "0%", "stop-color": "#2b8a5b" }),
    el("stop", { offset: "70%", "stop-color": "#1f6b45" }),
    el("stop", { offset: "100%", "stop-color": "#164f33" }),
  ]);
  svg.appendChild(el("defs", {}, [grad]));
  svg.appendChild(el("rect", { x: 2, y: 2, width: L.w - 4, height: L.h - 4, rx: 34, class: "felt", fill: "url(#felt-light)" }));
  svg.appendChild(el("rect", { x: 12, y: 12, width: L.w - 24, height: L.h - 24, rx: 28, class: "felt-edge" }));

  if (!v) return svg;
  svg.appendChild(pile(L.pile[0], L.pile[1], v.table));

  // the line
  const lineG = el("g", { class: "line" });
  // a very long line one way gets smaller tiles rather than leaving the felt
  let ls = L.s;
  let laid = layoutLine(v.line, openingIndex(v.plays), L.box, ls);
  for (let k = 0; k < 4 && !fits(laid, L.box, ls); k++) {
    ls *= 0.85;
    laid = layoutLine(v.line, openingIndex(v.plays), L.box, ls);
  }
  for (const tl of laid.tiles) {
    const outer = el("g", { "data-line-tile": tl.key });
    place(outer, tl.cx, tl.cy, tl.angle);
    const inner = el("g", { class: o.fresh && o.fresh.has(tl.key) ? "fresh" : "" });
    const face = tileFace(tl.a, tl.b, ls);
    face.querySelector("title").textContent = `[${tl.key.replace("-", "|")}]`;
    inner.appendChild(face);
    outer.appendChild(inner);
    const by = o.marks ? o.marks.tiles.get(tl.key) : undefined;
    if (by !== undefined) {
      // the last tile this seat laid, in its colour (the very last of all, strongly)
      const latest = o.marks.latest === tl.key;
      outer.dataset.lastPlay = by;
      if (latest) outer.dataset.lastPlayLatest = "true";
      outer.classList.add("last-play");
      if (latest) outer.classList.add("latest");
      const pad = latest ? 5 : 3;
      outer.appendChild(el("rect", { x: -ls - pad, y: -ls / 2 - pad, width: 2 * ls + 2 * pad, height: ls + 2 * pad, rx: ls * 0.2, class: "last-mark", stroke: SEAT_COLOURS[by] }));
      outer.appendChild(seatShape(by, -ls - pad, -ls / 2 - pad, latest ? 7.5 : 6.5, SEAT_COLOURS[by]));
    }
    lineG.appendChild(outer);
  }
  svg.appendChild(lineG);
  if (!v.line.length && v.turn !== null && v.turn !== undefined) {
    svg.appendChild(text((L.box.left + L.box.right) / 2, L.box.cy + 6, t("board.empty_line"), { class: "line-hint", "text-anchor": "middle" }));
  }

  // the end choice
  if (o.endChoices && laid.ends) {
    for (const end of o.endChoices) {
      const p = laid.ends[end];
      const x = p.x + p.dir[0] * ls * 0.95;
      const y = p.y + p.dir[1] * ls * 0.95;
      const label = t(`end_choice.${end}`); // a caption on its own, not a word in a sentence
      const g = el("g", { class: "end-choice", "data-end": end, tabindex: 0, role: "button", "aria-label": `${label}: ${v.ends[end === "left" ? 0 : 1]}` });
      const ring = Math.max(ls, 24) * 0.85;
      g.appendChild(el("circle", { cx: x, cy: y, r: ring, class: "end-ring" }));
      g.appendChild(text(x, y + 6, String(v.ends[end === "left" ? 0 : 1]), { "text-anchor": "middle", class: "end-num" }));
      // the caption on the side away from the line: above the ring where the line grows upwards
      const [lx, ly, anchor] = captionSpot(label, x, y, ring, p.dir, L, laid, ls);
      g.appendChild(text(lx, ly, label, { "text-anchor": anchor, class: "end-label" }));
      g.addEventListener("click", () => o.onEnd(end));
      g.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          o.onEnd(end, true);
        }
      });
      svg.appendChild(g);
    }
  }

  // the seats, the one at the bottom first
  for (let r = 0; r < 5; r++) {
    const seat = (o.me + r) % 5;
    const [x, y] = L.seats[r];
    const showHand = r === 0 && o.hand;
    svg.appendChild(
      seatPanel({
        seat,
        x,
        y,
        width: r === 1 || r === 4 ? 164 : 176,
        name: o.names[seat],
        count: showHand ? null : v.hand_counts[seat],
        faces: o.faces && !showHand ? o.faces[seat] : null,
        stones: v.stones[seat],
        titles: v.titles[seat],
        camat: v.camat === seat,
        turn: v.turn === seat,
        self: r === 0 && !!o.hand,
        lacking: r > 0 && v.lacking ? v.lacking[seat] : null,
        presence: o.presence ? o.presence[seat] : null,
        notesAbove: r === 0,
        clockEnds: o.clock && o.clock.seat === seat ? o.clock.ends : null,
        colour: o.marks ? SEAT_COLOURS[seat] : null,
        passed: !!o.marks && o.marks.passed.has(seat),
      }),
    );
    const plate = svg.lastChild;
    if (o.onPlate) {
      // hovering or tapping a plate shows that seat's moves of this round
      // (a mouse's hover; a finger taps)
      plate.addEventListener("pointerenter", (ev) => ev.pointerType === "mouse" && o.onPlate(seat, "hover"));
      plate.addEventListener("pointerleave", (ev) => ev.pointerType === "mouse" && o.onPlate(seat, "leave"));
      plate.addEventListener("click", () => o.onPlate(seat, "tap"));
      plate.classList.add("has-history");
    }
  }

  // the hand at the bottom
  if (o.hand) {
    const hs = L.handS;
    const step = hs + 18;
    const hg = el("g", { class: `hand${o.offline ? " offline" : ""}`, role: "group", "aria-label": t("board.your_tiles"), "data-offline": o.offline ? "true" : null });
    o.hand.forEach((tn, i) => {
      const [a, b] = tn.split("-").map(Number);
      const playable = o.playable.has(tn);
      const x = L.hand[0] + (i - (o.hand.length - 1) / 2) * step;
      const lift = o.selected === tn ? -22 : playable && o.myTurn ? -12 : 0;
      const hinted = o.hinted === tn; // the coach's best tile (a hint asked for)
      const cls = ["hand-tile", playable ? "playable" : "unplayable", o.myTurn ? "my-turn" : "", o.selected === tn ? "selected" : "", hinted ? "hinted" : ""].join(" ");
      const g = el("g", {
        class: cls,
        "data-tile": tn,
        "data-playable": playable ? "true" : "false",
        ...(hinted ? { "data-hinted": "true" } : {}),
        "data-selected": o.selected === tn ? "true" : null,
        tabindex: playable && o.myTurn ? 0 : -1, // Tab visits the tiles that can be played
        role: "button",
        // a screen reader's name for it: "6 and 4 — can be played — chosen"
        "aria-label": [t("board.tile_named", { a, b }), playable ? t("board.playable") : "", o.selected === tn ? t("board.chosen") : "", hinted ? t("board.hinted") : ""].filter(Boolean).join(" — "),
        "aria-disabled": playable ? "false" : "true",
      });
      place(g, x, L.hand[1] + lift, 90);
      const face = tileFace(a, b, hs);
      face.querySelector("title").textContent = `[${a}|${b}]`;
      g.appendChild(face);
      if (playable && o.myTurn) {
        g.appendChild(el("rect", { x: -hs - 5, y: -hs / 2 - 5, width: 2 * hs + 10, height: hs + 10, rx: 10, class: "glow" }));
      }
      if (hinted) g.appendChild(el("rect", { x: -hs - 9, y: -hs / 2 - 9, width: 2 * hs + 18, height: hs + 18, rx: 12, class: "hint-ring" }));
      g.addEventListener("click", () => o.onTile(tn));
      g.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          o.onTile(tn, true);
        }
      });
      hg.appendChild(g);
    });
    svg.appendChild(hg);
  }

  // what the seats just said, over everything
  for (let r = 0; r < 5; r++) {
    const seat = (o.me + r) % 5;
    if (o.bubbles && o.bubbles[seat]) svg.appendChild(bubble(L, r, o.bubbles[seat]));
  }
  return svg;
}

/** Where a seat's plate stands on the board drawn with `layout` for the seat `me`. */
export function seatSpot(layout, me, seat) {
  return LAYOUTS[layout].seats[(seat - me + 5) % 5];
}

/** Where the table's STONES lie. */
export function pileSpot(layout) {
  return LAYOUTS[layout].pile;
}

export function layoutFor(width) {
  return width < 720 ? "tall" : "wide";
}

/** The height a board may take on a wide screen: what the window has left below `wrap`
 * (its top on the page), at least 340px; as a CSS length ("612px"). The table's board and
 * the replay's are fitted with it. */
export function roomBelow(wrap) {
  const top = wrap.getBoundingClientRect().top + window.scrollY;
  return `${Math.max(340, Math.floor(window.innerHeight - top - 10))}px`;
}

/** The board's proportions in a layout ("1000 / 660"), for its place kept before it is drawn. */
export function boardRatio(layout) {
  return `${LAYOUTS[layout].w} / ${LAYOUTS[layout].h}`;
}
