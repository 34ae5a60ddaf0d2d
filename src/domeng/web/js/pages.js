// The pages an address leads to and the module each is drawn by (main.js routes with
// them). index.html also runs this module on its own as the page starts (it imports
// nothing), and it asks at once for the module of the page the address shows: that
// module and its imports come while main.js's do, not after them, the language file and
// the service's answers (issue 32: a table's first drawing waited for each in turn).

// Each page's module is fetched when the page is first shown, not with main.js: a
// module's whole static graph comes before it runs, so the replay waited for the start
// page's, the table's and the players' files.
export const PAGES = {
  table: () => import("./table.js"),
  replay: () => import("./replay.js"),
  rules: () => import("./rules.js"),
  player: () => import("./player.js"),
  leaderboard: () => import("./leaderboard.js"),
  lobby: () => import("./lobby.js"),
  members: () => import("./members.js"),
  tournament: () => import("./tournament.js"),
};

/**
 * The page of an address (`location.hash`): [its module's name, how it is drawn in
 * `view` with that module]. `member`: whether a club's member is signed in (their page
 * of members; anyone else gets the start page).
 * @param {string} hash
 * @param {boolean} member
 * @returns {[string, (m: any, view: HTMLElement) => any]}
 */
export function pageOf(hash, member) {
  const [page, arg, sub, more] = hash.replace(/^#\/?/, "").split("/");
  const id = arg ? decodeURIComponent(arg) : "";
  if (page === "table" && arg) return ["table", (m, view) => m.tablePage(view, id)];
  if (page === "watch" && arg) return ["table", (m, view) => m.tablePage(view, id, { watch: true })];
  if (page === "replay" && arg) return ["replay", (m, view) => m.replayPage(view, { kind: "table", id })];
  if (page === "replay-file") {
    const file = () => ({ kind: "file", doc: sessionStorage.getItem("domeng.record"), name: sessionStorage.getItem("domeng.record.name") });
    return ["replay", (m, view) => m.replayPage(view, file())];
  }
  if (page === "rules") return ["rules", (m, view) => m.rulesPage(view)];
  if (page === "player" && arg) return ["player", (m, view) => m.playerPage(view, id)];
  if (page === "leaderboard") return ["leaderboard", (m, view) => m.leaderboardPage(view)];
  if (page === "members" && member) return ["members", (m, view) => m.membersPage(view, id)];
  if (page === "tournaments") return ["tournament", (m, view) => m.newTournamentPage(view)];
  if (page === "tournament" && arg) {
    const mode = sub === "print" ? "print" : sub === "me" && more ? "me" : "standings";
    return ["tournament", (m, view) => m.tournamentPage(view, id, mode, more ? decodeURIComponent(more) : null)];
  }
  return ["lobby", (m, view) => m.lobbyPage(view)];
}

// the module of the page this address shows, asked for now (main.js's import of it later
// gets the same module; a failure is told there); a page of members is asked for as if
// its member were signed in, since who is signed in is not known yet
PAGES[pageOf(location.hash, true)[0]]().catch(() => {});
