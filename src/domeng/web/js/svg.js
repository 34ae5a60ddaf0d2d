// Drawing dominoes in SVG: tiles with pips, backs, and the line laid as on a real table.

export const NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes and children. */
export function el(name, attrs = {}, children = []) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) e.setAttribute(k, String(v));
  }
  for (const c of children) if (c) e.appendChild(c);
  return e;
}

/** A text element. */
export function text(x, y, content, attrs = {}) {
  const e = el("text", { x, y, ...attrs });
  e.textContent = content;
  return e;
}

// Pip positions on a square half, in units of the half's quarter (-1, 0, 1).
const PIPS = {
  0: [],
  1: [[0, 0]],
  2: [[-1, -1], [1, 1]],
  3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
  5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

function half(n, cx, s) {
  const g = el("g", { class: "half" });
  const d = s * 0.26;
  const r = s * 0.095;
  for (const [px, py] of PIPS[n]) {
    g.appendChild(el("circle", { cx: cx + px * d, cy: py * d, r, class: "pip" }));
  }
  return g;
}

/**
 * A face-up tile, drawn lying horizontally around (0, 0): `a` on the left half,
 * `b` on the right; `s` is the short side. Place it with a transform.
 */
export function tileFace(a, b, s, extra = {}) {
  const g = el("g", { class: "tile", ...extra });
  const r = s * 0.14;
  g.appendChild(el("rect", { x: -s + 1, y: -s / 2 + 2, width: 2 * s, height: s, rx: r, class: "tile-shadow" }));
  g.appendChild(el("rect", { x: -s, y: -s / 2, width: 2 * s, height: s, rx: r, class: "tile-body" }));
  g.appendChild(el("line", { x1: 0, y1: -s / 2 + s * 0.12, x2: 0, y2: s / 2 - s * 0.12, class: "tile-bar" }));
  g.appendChild(half(a, -s / 2, s));
  g.appendChild(half(b, s / 2, s));
  g.appendChild(el("title", {}, []));
  return g;
}

/** The back of a tile, standing upright (short side `s` across), centred on (0, 0). */
export function tileBack(s) {
  const g = el("g", { class: "tile-back" });
  g.appendChild(el("rect", { x: -s / 2, y: -s, width: s, height: 2 * s, rx: s * 0.16, class: "back-body" }));
  g.appendChild(el("rect", { x: -s / 2 + s * 0.18, y: -s + s * 0.18, width: s * 0.64, height: 2 * s - s * 0.36, rx: s * 0.1, class: "back-inlay" }));
  return g;
}

/** Place an element at (x, y) turned by `angle` degrees. */
export function place(node, x, y, angle = 0) {
  node.setAttribute("transform", `translate(${x.toFixed(1)} ${y.toFixed(1)}) rotate(${angle})`);
  return node;
}

/** A small inline SVG of a tile for HTML (summaries, lists): upright or lying. */
export function tileIcon(name, { s = 18, upright = false } = {}) {
  const [a, b] = name.split("-").map(Number);
  const w = upright ? s : 2 * s;
  const h = upright ? 2 * s : s;
  const svg = el("svg", {
    class: "tile-icon",
    viewBox: `${-w / 2 - 1} ${-h / 2 - 1} ${w + 3} ${h + 3}`,
    width: w + 3,
    height: h + 3,
    role: "img",
    "aria-label": `[${a}|${b}]`,
  });
  svg.appendChild(place(tileFace(a, b, s), 0, 0, upright ? 90 : 0));
  return svg;
}

function angleOf(d) {
  if (d[0] === 1) return 0;
  if (d[0] === -1) return 180;
  return d[1] === 1 ? 90 : -90;
}

/**
 * Lay out one arm of the line, from the opening tile outward: rows that turn at the
 * edges of `box`, down for the right arm (`sign` 1) and up for the left arm (`sign` -1),
 * with a LEMPA across the line. `tiles`: [{inner, outer, key}] from the centre out.
 */
function walkArm(tiles, start, sign, box, s) {
  let p = { ...start };
  let d = [sign, 0];
  let phase = "h";
  let vertical = 0;
  let lastH = sign;
  const placed = [];
  for (const t of tiles) {
    const dbl = t.inner === t.outer;
    if (phase === "h" && !dbl) {
      // keep room for a LEMPA after this tile: it never turns, so it may stick out by s
      const edge = p.x + d[0] * 3 * s;
      if ((d[0] > 0 && edge > box.right) || (d[0] < 0 && edge < box.left)) {
        lastH = d[0];
        const d2 = [0, sign];
        p = { x: p.x + (d[0] * s) / 2, y: p.y - (d2[1] * s) / 2 };
        d = d2;
        phase = "v";
        vertical = 0;
      }
    } else if (phase === "v" && vertical >= 2) {
      const d2 = [-lastH, 0];
      p = { x: p.x + (d2[0] * s) / 2, y: p.y - (d[1] * s) / 2 };
      d = d2;
      phase = "h";
    }
    const along = dbl ? s : 2 * s;
    const cx = p.x + (d[0] * along) / 2;
    const cy = p.y + (d[1] * along) / 2;
    placed.push({ ...t, cx, cy, angle: angleOf(d) + (dbl ? 90 : 0) });
    p = { x: p.x + d[0] * along, y: p.y + d[1] * along };
    if (phase === "v" && !dbl) vertical += 1;
  }
  return { placed, end: p, dir: d };
}

/**
 * Where every tile of the line lies. `line`: [[a, b], ...] left to right as the numbers
 * they show; `opening`: the index of the opening tile in it. Answers the placed tiles
 * ({a, b, cx, cy, angle, key}: `a` is drawn on the tile's local left half) and the two
 * open ends ({left, right}: {x, y, dir}).
 */
export function layoutLine(line, opening, box, s) {
  if (!line.length) return { tiles: [], ends: null };
  const c = { x: (box.left + box.right) / 2, y: box.cy };
  const [oa, ob] = line[opening];
  const odbl = oa === ob;
  const tiles = [{ a: oa, b: ob, cx: c.x, cy: c.y, angle: odbl ? 90 : 0, key: tileName(oa, ob) }];
  const halfLen = odbl ? s / 2 : s;
  const right = [];
  for (let i = opening + 1; i < line.length; i++) {
    right.push({ inner: line[i][0], outer: line[i][1], key: tileName(line[i][0], line[i][1]) });
  }
  const left = [];
  for (let i = opening - 1; i >= 0; i--) {
    left.push({ inner: line[i][1], outer: line[i][0], key: tileName(line[i][0], line[i][1]) });
  }
  const r = walkArm(right, { x: c.x + halfLen, y: c.y }, 1, box, s);
  const l = walkArm(left, { x: c.x - halfLen, y: c.y }, -1, box, s);
  for (const t of [...r.placed, ...l.placed]) {
    tiles.push({ a: t.inner, b: t.outer, cx: t.cx, cy: t.cy, angle: t.angle, key: t.key });
  }
  return {
    tiles,
    ends: {
      left: { x: l.end.x, y: l.end.y, dir: l.dir },
      right: { x: r.end.x, y: r.end.y, dir: r.dir },
    },
  };
}

/** The name of a tile, higher number first: "6-4". */
export function tileName(a, b) {
  return a >= b ? `${a}-${b}` : `${b}-${a}`;
}

/** The index of the opening tile in the line, from the plays (left plays lie before it). */
export function openingIndex(plays) {
  return plays.slice(1).filter((p) => p.end === "left").length;
}
