// The running account: each event told in the chosen language, from its fields
// (never from the service's English sentence).

import { stonesText, t } from "./i18n.js";

export function endWord(end) {
  return t(end === "left" ? "end_left" : "end_right");
}

export function reasonText(reason) {
  return t(`reason.${reason}`);
}

function tileShown(e) {
  const [h, l] = e.tile.split("-").map(Number);
  if (e.end === "left") {
    const inner = l === e.left ? h : l;
    return `[${e.left}|${inner}]`;
  }
  const inner = l === e.right ? h : l;
  return `[${inner}|${e.right}]`;
}

function list(seats, names) {
  return seats.map((s) => names[s]).join(", ");
}

/** One event as a sentence in the game's words, in the chosen language. */
export function describe(e, names) {
  const who = names[e.seat];
  switch (e.kind) {
    case "played": {
      // a computer's move for a person (away, or out of time) says so: "A computer plays for Guest"
      const si = e.stand_in ? "ev.si_" : "ev.";
      if (e.opening) {
        const [h, l] = e.tile.split("-").map(Number);
        const key = h === l ? `${si}opens_lempa` : `${si}opens`;
        return t(key, { who, tile: `[${e.tile.replace("-", "|")}]`, left: e.left, right: e.right });
      }
      const vars = { who, tile: tileShown(e), end: endWord(e.end), left: e.left, right: e.right };
      return t(e.mappakuling ? `${si}plays_mappakuling` : `${si}plays`, vars);
    }
    case "passed": {
      const si = e.stand_in ? "ev.si_" : "ev.";
      return t(e.passebunge ? `${si}passebunge` : `${si}pass`, { who, stones: stonesText(e.stones) });
    }
    case "stones": {
      const vars = {
        who: names[e.receiver],
        stones: stonesText(e.amount),
        giver: e.giver === null ? "" : names[e.giver],
        reason: reasonText(e.reason),
      };
      return t(e.giver === null ? "ev.stones_table" : "ev.stones_from", vars);
    }
    case "round_ended": {
      if (e.end === "cappu") {
        const key = e.finish === "ceki" ? "ev.cappu_ceki" : e.finish === "pollo" ? "ev.cappu_pollo" : "ev.cappu";
        return t(key, { who: names[e.first_cappu], cucuq: names[e.cucuq] });
      }
      if (!e.mattikkeng.length) {
        return t("ev.manguno", { who: names[e.manguno], cucuq: names[e.cucuq] });
      }
      return t("ev.manguno_mattikkeng", {
        who: names[e.manguno],
        mattikkeng: list(e.mattikkeng, names),
        winner: names[e.winner],
      });
    }
    case "camat":
      return t("ev.camat", { who, titles: e.titles });
    default:
      return "";
  }
}

/** The seats a computer played for in these events (a stand-in's moves), in seat order. */
export function standInSeats(events) {
  const seats = new Set((events || []).filter((e) => e.stand_in && (e.kind === "played" || e.kind === "passed")).map((e) => e.seat));
  return [...seats].sort((a, b) => a - b);
}

/** A transfer of the round's end, for the summary. */
export function transferText(tr, names) {
  const vars = {
    who: names[tr.receiver],
    stones: stonesText(tr.amount),
    giver: tr.giver === null ? "" : names[tr.giver],
    reason: reasonText(tr.reason),
  };
  return t(tr.giver === null ? "ev.stones_table" : "ev.stones_from", vars);
}

/** How the round ended, in one line, for the summary's heading. */
export function endingText(s, names) {
  return describe({ kind: "round_ended", ...s }, names);
}
