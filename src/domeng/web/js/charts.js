// Small line charts drawn in SVG, in the page: a player's rating and stones over their
// games, every player's STONES over a game's rounds. Hand-made (a few dozen lines) rather
// than a chart library: the pages have no build step, and these charts need only lines,
// a band, axes and a legend.

import { el, text } from "./svg.js";

export const SERIES_COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98"];

/** Round steps (1, 2, 5 times a power of ten; whole numbers only when `integer`) that
 * cover lo..hi, at most about `n` of them: the axis goes from the first to the last, so
 * the highest value is never above the highest label (0 and 5 for values up to 9 was). */
export function ticks(lo, hi, n = 5, integer = false) {
  if (hi === lo) return [lo];
  const raw = (hi - lo) / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) || raw;
  if (integer) step = Math.max(1, Math.round(step));
  const first = Math.floor(lo / step + 1e-9) * step;
  const out = [];
  for (let v = first; v < hi + step - 1e-9; v += step) out.push(Number(v.toFixed(6)));
  return out;
}

/** A marker of shape `k` (circle, square, triangle, diamond, cross) at x, y: the series
 * are told apart without their colour. */
export function marker(k, cx, cy, r, colour) {
  const shape = k % 5;
  if (shape === 0) return el("circle", { cx, cy, r, fill: colour, class: "chart-dot" });
  if (shape === 1) return el("rect", { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, fill: colour, class: "chart-dot" });
  const pts = shape === 2
    ? [[cx, cy - r * 1.2], [cx + r * 1.1, cy + r * 0.8], [cx - r * 1.1, cy + r * 0.8]]
    : shape === 3
      ? [[cx, cy - r * 1.3], [cx + r * 1.1, cy], [cx, cy + r * 1.3], [cx - r * 1.1, cy]]
      : null;
  if (pts) return el("polygon", { points: pts.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" "), fill: colour, class: "chart-dot" });
  const d = `M${cx - r},${cy - r}L${cx + r},${cy + r}M${cx + r},${cy - r}L${cx - r},${cy + r}`;
  return el("path", { d, stroke: colour, "stroke-width": 2.5, fill: "none", class: "chart-dot" });
}

const DASHES = [null, "7 4", "2 4", "10 3 2 3", "4 3"];

/**
 * A line chart. `series`: [{ name, colour, points: [y, ...], band: [[lo, hi], ...] }],
 * one point per step of the x axis (1, 2, ..., or what `xs` names each step). `title`: what it shows (read aloud);
 * `xLabel`: what a step is. Answers an <svg> that scales to its box.
 */
export function lineChart({ series, title, xLabel = "", yLabel = "", legend = false, xs = null, integer = false }) {
  const W = 600;
  const H = 240;
  const pad = { left: 44, right: 12, top: 12, bottom: legend ? 52 : 34 };
  const n = Math.max(1, ...series.map((s) => s.points.length));
  const ys = series.flatMap((s) => [...s.points, ...(s.band || []).flat()]).filter((v) => Number.isFinite(v));
  let lo = ys.length ? Math.min(...ys) : 0;
  let hi = ys.length ? Math.max(...ys) : 1;
  if (hi - lo < 1e-9) {
    lo = integer && lo >= 0 ? Math.max(0, lo - 1) : lo - 1; // no STONES below 0
    hi += 1;
  }
  const yt = ticks(lo, hi, 5, integer);
  if (yt.length > 1) {
    lo = Math.min(lo, yt[0]);
    hi = Math.max(hi, yt[yt.length - 1]);
  }
  const x = (i) => pad.left + (n === 1 ? (W - pad.left - pad.right) / 2 : (i * (W - pad.left - pad.right)) / (n - 1));
  const y = (v) => pad.top + ((hi - v) * (H - pad.top - pad.bottom)) / (hi - lo);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": title, preserveAspectRatio: "xMidYMid meet" });
  svg.appendChild(el("title", {}, []));
  svg.querySelector("title").textContent = title;
  for (const v of yt) {
    svg.appendChild(el("line", { x1: pad.left, x2: W - pad.right, y1: y(v), y2: y(v), class: "chart-grid" }));
    svg.appendChild(text(pad.left - 6, y(v) + 4, String(v), { class: "chart-tick", "text-anchor": "end" }));
  }
  const xt = ticks(1, n, Math.min(6, n)).filter((v) => Number.isInteger(v));
  for (const v of xt) svg.appendChild(text(x(v - 1), H - pad.bottom + 16, String(xs ? xs[v - 1] : v), { class: "chart-tick", "text-anchor": "middle" }));
  if (xLabel) svg.appendChild(text(W - pad.right, H - pad.bottom + 30, xLabel, { class: "chart-label", "text-anchor": "end" }));
  if (yLabel) svg.appendChild(text(pad.left, pad.top - 2, yLabel, { class: "chart-label" }));
  // lines with equal values are drawn side by side (a few pixels apart), not one on another
  const shift = series.map((s) => s.points.map(() => 0));
  for (let i = 0; i < n; i++) {
    const byValue = new Map();
    series.forEach((s, k) => {
      if (i < s.points.length) byValue.set(s.points[i], [...(byValue.get(s.points[i]) || []), k]);
    });
    for (const ks of byValue.values()) ks.forEach((k, j) => (shift[k][i] = (j - (ks.length - 1) / 2) * (n === 1 ? 12 : 3.2)));
  }
  // one step only (a game of one round): equal points side by side across, not stacked
  const across = n === 1;
  series.forEach((s, k) => {
    const colour = s.colour || SERIES_COLOURS[k % SERIES_COLOURS.length];
    if (s.band && s.band.length) {
      const top = s.band.map(([, b], i) => `${x(i)},${y(b)}`);
      const bottom = s.band.map(([a], i) => `${x(i)},${y(a)}`).reverse();
      svg.appendChild(el("polygon", { points: [...top, ...bottom].join(" "), fill: colour, class: "chart-band" }));
    }
    const py = (v, i) => y(v) + (across ? 0 : shift[k][i]);
    const px = (i) => x(i) + (across ? shift[k][i] : 0);
    const d = s.points.map((v, i) => `${i ? "L" : "M"}${px(i).toFixed(1)},${py(v, i).toFixed(1)}`).join(" ");
    const dash = DASHES[k % DASHES.length];
    if (s.points.length > 1) svg.appendChild(el("path", { d, stroke: colour, class: "chart-line", "data-series": s.name, ...(dash ? { "stroke-dasharray": dash } : {}) }));
    s.points.forEach((v, i) => {
      if (s.points.length <= 40 || i === s.points.length - 1) svg.appendChild(marker(k, px(i), py(v, i), 3.6, colour));
    });
  });
  if (legend) {
    // one equal slot per series: a long name is shortened ("Hasanuddin Da…", the whole
    // name on hover and for a screen reader) rather than written over the next one
    const slot = (W - pad.left - pad.right) / Math.max(1, series.length);
    const fits = Math.max(3, Math.floor((slot - 22) / 7));
    series.forEach((s, k) => {
      const colour = s.colour || SERIES_COLOURS[k % SERIES_COLOURS.length];
      const lx = pad.left + k * slot;
      svg.appendChild(marker(k, lx + 6, H - 10, 5, colour));
      const name = String(s.name);
      const shown = name.length > fits ? `${name.slice(0, fits - 1)}…` : name;
      const label = text(lx + 16, H - 6, shown, { class: "chart-legend" });
      if (shown !== name) {
        const full = el("title", {}, []);
        full.textContent = name;
        label.appendChild(full);
      }
      svg.appendChild(label);
    });
  }
  return svg;
}
