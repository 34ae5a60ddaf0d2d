// What the page's modules (src/domeng/web/js) keep on `window`, for TypeScript's
// check of them (jsconfig.json; `make lint-web`). Nothing here is served.

/** `GET /api`'s answer (src/domeng/server/app.py, `info`), once main.js has it. */
interface DomengInfo {
  name?: string;
  version?: string;
  levels?: string[];
  default_level?: string;
  variants?: { opening: string[]; block_passes: string[] };
  max_message?: number;
  addresses?: string[];
}

/** A club's member (src/domeng/server/club/routes.py, `member_json`). */
interface ClubMember {
  id: string;
  name: string;
  role: "owner" | "admin" | "member" | "guest";
  claimed: boolean;
  suspended: boolean;
  muted_until: number;
  table: string | null;
}

/** `GET /api/session`'s answer: a club's, with who is signed in (at home, no club). */
interface ClubSession {
  club: boolean;
  member: ClubMember | null;
  /** An admin opened sign-up to anyone. */
  signup?: boolean;
}

interface Window {
  domengInfo?: DomengInfo;
  /** main.js: the club's session (club.js), once asked. */
  domengClub?: ClubSession;
  /** The address others open (main.js: the home-network one when there is one). */
  domengAddress?: string;
  /** Safari's older name of AudioContext. */
  webkitAudioContext?: typeof AudioContext;
}

// `document.activeElement` is typed Element, which has no `dataset`; every element
// the page puts in focus is an HTML or SVG element, and both have one.
interface Element {
  readonly dataset: DOMStringMap;
}
