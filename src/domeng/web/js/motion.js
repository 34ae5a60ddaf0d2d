// Movement on the table: a tile laid travels from its player's plate to its place on the
// line, a PASS badge pops up on the plate, STONES fly from the table (or the giver) to
// the one who receives them. The board is drawn anew at every change, so each movement
// is kept here with the time it started: a drawing puts the movements still under way
// back where they are (the same start time), and never starts one again.

/** How long a tile travels (ms) at each speed; the computer players' pace caps it. */
const TRAVEL_MS = { normal: 300, fast: 150, off: 0 };
const LEAST_PACE_MS = 60; // faster computer players than this: the table just changes

function eventId(e) {
  return `${e.round}:${e.index}`;
}

function timeNow() {
  // the document's timeline has no time (null) while the document is not active
  const now = document.timeline ? document.timeline.currentTime : null;
  return typeof now === "number" ? now : performance.now();
}

/** "translate(x y) rotate(a)" as numbers. */
function placement(node) {
  const m = /translate\(([-\d.]+) ([-\d.]+)\)(?: rotate\(([-\d.]+)\))?/.exec(node.getAttribute("transform") || "");
  return m ? { x: Number(m[1]), y: Number(m[2]), angle: Number(m[3] || 0) } : null;
}

export function createMotion() {
  const known = new Set();
  let flights = [];

  function travelMs(speedName, paceMs) {
    const base = TRAVEL_MS[speedName] ?? TRAVEL_MS.normal;
    if (!base || paceMs < LEAST_PACE_MS) return 0;
    return Math.min(base, paceMs);
  }

  return {
    /** Events that were there when the table came (a load, a reconnection): no movement. */
    know(events) {
      for (const e of events || []) known.add(eventId(e));
    },

    /**
     * New events from an update: their movements, one after the other. Answers the
     * new events with the time (ms from now) each one's movement starts.
     */
    see(events, { speed, paceMs }) {
      const fresh = (events || []).filter((e) => !known.has(eventId(e)));
      for (const e of fresh) known.add(eventId(e));
      const ms = travelMs(speed, paceMs);
      const now = timeNow();
      flights = flights.filter((f) => f.start + f.ms + f.tail > now);
      // one after the other, after what still moves
      let at = Math.max(now, ...flights.map((f) => f.start + f.ms * 0.6));
      const timed = [];
      for (const e of fresh) {
        timed.push({ event: e, inMs: Math.max(0, at - now) });
        if (!ms) continue;
        if (e.kind === "played") {
          flights.push({ id: eventId(e), kind: "tile", seat: e.seat, tile: e.tile, start: at, ms, tail: 0 });
          at += ms * 0.6;
        } else if (e.kind === "passed") {
          flights.push({ id: eventId(e), kind: "pass", seat: e.seat, start: at, ms: Math.max(ms, 200), tail: 0 });
          at += ms * 0.4;
        } else if (e.kind === "stones" && e.amount > 0) {
          const shown = Math.min(e.amount, 6);
          flights.push({ id: eventId(e), kind: "stones", giver: e.giver, receiver: e.receiver, n: shown, start: at, ms: ms * 1.4, tail: (shown - 1) * 50 });
          at += ms * 0.5;
        }
      }
      return timed;
    },

    /** A new round, another table: nothing moves on. */
    reset() {
      flights = [];
    },

    /** Movements under way, for the tests and for knowing when the table is still. */
    moving() {
      const now = timeNow();
      return flights.some((f) => f.start + f.ms + f.tail > now);
    },

    /**
     * Put the movements under way on a new drawing. `spot(seat)`: a plate's centre;
     * `pile`: the table's STONES.
     */
    apply(svg, { spot, pile }) {
      const now = timeNow();
      flights = flights.filter((f) => f.start + f.ms + f.tail > now);
      let layer = null;
      for (const f of flights) {
        if (f.kind === "tile") {
          const node = svg.querySelector(`[data-line-tile="${f.tile}"]`);
          const to = node && placement(node);
          if (!to) continue;
          const [px, py] = spot(f.seat);
          node.dataset.flight = f.id;
          const anim = node.animate(
            [
              { transform: `translate(${px}px, ${py}px) rotate(${to.angle}deg) scale(0.7)`, opacity: 0.85 },
              { transform: `translate(${to.x}px, ${to.y}px) rotate(${to.angle}deg) scale(1)`, opacity: 1 },
            ],
            { duration: f.ms, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" },
          );
          anim.startTime = f.start;
        } else if (f.kind === "pass") {
          const node = svg.querySelector(`[data-pass-badge="${f.seat}"] .pass-pop`);
          if (!node) continue;
          node.dataset.flight = f.id;
          const anim = node.animate(
            [
              { transform: "scale(0.3)", opacity: 0 },
              { transform: "scale(1.25)", opacity: 1, offset: 0.6 },
              { transform: "scale(1)", opacity: 1 },
            ],
            { duration: f.ms, easing: "ease-out", fill: "backwards" },
          );
          anim.startTime = f.start;
        } else if (f.kind === "stones") {
          const from = f.giver === null || f.giver === undefined ? pile : spot(f.giver);
          const to = spot(f.receiver);
          if (!layer) {
            layer = document.createElementNS("http://www.w3.org/2000/svg", "g");
            layer.setAttribute("class", "motion-layer");
            layer.setAttribute("aria-hidden", "true");
            svg.appendChild(layer);
          }
          for (let i = 0; i < f.n; i++) {
            const stone = document.createElementNS("http://www.w3.org/2000/svg", "circle");
            stone.setAttribute("r", "7");
            stone.setAttribute("class", "stone flying-stone");
            stone.dataset.flight = f.id;
            layer.appendChild(stone);
            const jitter = (i - (f.n - 1) / 2) * 6;
            const anim = stone.animate(
              [
                { transform: `translate(${from[0] + jitter}px, ${from[1]}px)`, opacity: 0 },
                { transform: `translate(${from[0] + jitter}px, ${from[1] - 10}px)`, opacity: 1, offset: 0.15 },
                { transform: `translate(${to[0] + jitter}px, ${to[1]}px)`, opacity: 1, offset: 0.9 },
                { transform: `translate(${to[0]}px, ${to[1]}px)`, opacity: 0 },
              ],
              { duration: f.ms, easing: "ease-in-out", fill: "both" },
            );
            anim.startTime = f.start + i * 50;
            anim.onfinish = () => stone.remove();
          }
        }
      }
    },
  };
}
