// The table service's HTTP API, and what this browser keeps: the seat tokens, the host
// tokens of the tables it created, the seats it muted.

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

export async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  // "busy": this browser's last replay or review is still under way (one at a time from
  // each address): asked again after the wait the service names, a few times
  for (let tries = 1; ; tries++) {
    let r;
    try {
      r = await fetch(path, init);
    } catch (e) {
      throw new ApiError("network", String(e), 0);
    }
    const data = await r.json().catch(() => null);
    if (r.ok) return data;
    const err = (data && data.error) || {};
    // "database_unavailable": the database did not answer; a reading is asked again too
    const again = err.code === "busy" || (err.code === "database_unavailable" && method === "GET");
    if (again && tries < BUSY_TRIES) {
      await new Promise((done) => setTimeout(done, Math.min(5000, err.retry_after_ms || 1000)));
      continue;
    }
    throw new ApiError(err.code || `http_${r.status}`, err.message || r.statusText, r.status);
  }
}

const BUSY_TRIES = 8;

const SEATS = "domeng.seats";

/** {tableId: {seat: token}} of the seats this browser holds. */
export function mySeats() {
  return readJson(SEATS);
}

export function seatsAt(tableId) {
  const all = mySeats()[tableId] || {};
  return Object.entries(all)
    .map(([seat, token]) => ({ seat: Number(seat), token }))
    .sort((a, b) => a.seat - b.seat);
}

export function keepSeat(tableId, seat, token) {
  const all = mySeats();
  all[tableId] = { ...(all[tableId] || {}), [seat]: token };
  localStorage.setItem(SEATS, JSON.stringify(all));
}

export function forgetSeat(tableId, seat) {
  const all = mySeats();
  if (all[tableId]) {
    delete all[tableId][seat];
    if (!Object.keys(all[tableId]).length) delete all[tableId];
  }
  localStorage.setItem(SEATS, JSON.stringify(all));
}

function readJson(key) {
  try {
    const v = JSON.parse(localStorage.getItem(key) || "{}");
    return v && typeof v === "object" ? v : {};
  } catch {
    return {};
  }
}

const HOSTS = "domeng.hosts";
const MUTED = "domeng.muted";

/** The host token of a table this browser created, or null. */
export function hostToken(tableId) {
  return readJson(HOSTS)[tableId] || null;
}

/** The ids of the tables this browser created. */
export function hostedTables() {
  return Object.keys(readJson(HOSTS));
}

export function keepHost(tableId, token) {
  const all = readJson(HOSTS);
  all[tableId] = token;
  localStorage.setItem(HOSTS, JSON.stringify(all));
}

/** Forget everything kept for a table (its seats, its host token, its muted seats). */
export function forgetTable(tableId) {
  for (const key of [SEATS, HOSTS, MUTED]) {
    const all = readJson(key);
    if (tableId in all) {
      delete all[tableId];
      localStorage.setItem(key, JSON.stringify(all));
    }
  }
}

/** Every table this browser holds a seat or the host's token at. */
export function myTables() {
  return [...new Set([...Object.keys(mySeats()), ...hostedTables()])];
}

/** The host's say at a table (docs/protocol.md, POST /api/tables/{id}/host). */
export function hostAction(tableId, action, extra = {}) {
  return api("POST", `/api/tables/${encodeURIComponent(tableId)}/host`, { token: hostToken(tableId), action, ...extra });
}

/** The seats this viewer muted at a table (their talk is not shown). */
export function mutedSeats(tableId) {
  const seats = readJson(MUTED)[tableId];
  return new Set(Array.isArray(seats) ? seats : []);
}

export function setMuted(tableId, seat, muted) {
  const all = readJson(MUTED);
  const seats = new Set(Array.isArray(all[tableId]) ? all[tableId] : []);
  if (muted) seats.add(seat);
  else seats.delete(seat);
  if (seats.size) all[tableId] = [...seats].sort();
  else delete all[tableId];
  localStorage.setItem(MUTED, JSON.stringify(all));
}

export function pref(key, fallback) {
  return localStorage.getItem(`domeng.${key}`) ?? fallback;
}

export function setPref(key, value) {
  localStorage.setItem(`domeng.${key}`, value);
}
