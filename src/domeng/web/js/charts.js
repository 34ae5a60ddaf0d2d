// Small line charts drawn in SVG, in the page: a player's rating and stones over their
// games, every player's STONES over a game's rounds. Hand-made (a few dozen lines) rather
// than a chart library: the pages have no build step, and these charts need only lines,
// a band, axes and a legend.

import { el, text } from "./svg.js";

export const SERIES_COLOURS = ["#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98"];

function ticks(lo, hi, n = 4) {
  if (hi === lo) return [lo];
  const raw = (hi - lo) / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) || raw;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Number(v.toFixed(6)));
  return out;
}

/**
 * A line chart. `series`: [{ name, colour, points: [y, ...], band: [[lo, hi], ...] }],
 * one point per step of the x axis (1, 2, ..., or what `xs` names each step). `title`: what it shows (read aloud);
 * `xLabel`: what a step is. Answers an <svg> that scales to its box.
 */
export function lineChart({ series, title, xLabel = "", yLabel = "", legend = false, xs = null }) {
  const W = 600;
  const H = 240;
  const pad = { left: 44, right: 12, top: 12, bottom: legend ? 52 : 34 };
  const n = Math.max(1, ...series.map((s) => s.points.length));
  const ys = series.flatMap((s) => [...s.points, ...(s.band || []).flat()]).filter((v) => Number.isFinite(v));
  let lo = ys.length ? Math.min(...ys) : 0;
  let hi = ys.length ? Math.max(...ys) : 1;
  if (hi - lo < 1e-9) {
    lo -= 1;
    hi += 1;
  }
  const x = (i) => pad.left + (n === 1 ? (W - pad.left - pad.right) / 2 : (i * (W - pad.left - pad.right)) / (n - 1));
  const y = (v) => pad.top + ((hi - v) * (H - pad.top - pad.bottom)) / (hi - lo);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": title, preserveAspectRatio: "xMidYMid meet" });
  svg.appendChild(el("title", {}, []));
  svg.querySelector("title").textContent = title;
  for (const v of ticks(lo, hi)) {
    svg.appendChild(el("line", { x1: pad.left, x2: W - pad.right, y1: y(v), y2: y(v), class: "chart-grid" }));
    svg.appendChild(text(pad.left - 6, y(v) + 4, String(v), { class: "chart-tick", "text-anchor": "end" }));
  }
  const xt = ticks(1, n, Math.min(6, n)).filter((v) => Number.isInteger(v));
  for (const v of xt) svg.appendChild(text(x(v - 1), H - pad.bottom + 16, String(xs ? xs[v - 1] : v), { class: "chart-tick", "text-anchor": "middle" }));
  if (xLabel) svg.appendChild(text(W - pad.right, H - pad.bottom + 30, xLabel, { class: "chart-label", "text-anchor": "end" }));
  if (yLabel) svg.appendChild(text(pad.left, pad.top - 2, yLabel, { class: "chart-label" }));
  series.forEach((s, k) => {
    const colour = s.colour || SERIES_COLOURS[k % SERIES_COLOURS.length];
    if (s.band && s.band.length) {
      const top = s.band.map(([, b], i) => `${x(i)},${y(b)}`);
      const bottom = s.band.map(([a], i) => `${x(i)},${y(a)}`).reverse();
      svg.appendChild(el("polygon", { points: [...top, ...bottom].join(" "), fill: colour, class: "chart-band" }));
    }
    const d = s.points.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    if (s.points.length > 1) svg.appendChild(el("path", { d, stroke: colour, class: "chart-line", "data-series": s.name }));
    s.points.forEach((v, i) => {
      if (s.points.length <= 40 || i === s.points.length - 1) {
        svg.appendChild(el("circle", { cx: x(i), cy: y(v), r: 3, fill: colour, class: "chart-dot" }));
      }
    });
  });
  if (legend) {
    let lx = pad.left;
    series.forEach((s, k) => {
      const colour = s.colour || SERIES_COLOURS[k % SERIES_COLOURS.length];
      svg.appendChild(el("rect", { x: lx, y: H - 16, width: 12, height: 12, fill: colour, rx: 2 }));
      const label = text(lx + 16, H - 6, s.name, { class: "chart-legend" });
      svg.appendChild(label);
      lx += 28 + Math.min(14, String(s.name).length) * 7.5;
    });
  }
  return svg;
}
