// The table service's HTTP API, and the seat tokens this browser keeps.

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
  let r;
  try {
    r = await fetch(path, init);
  } catch (e) {
    throw new ApiError("network", String(e), 0);
  }
  const data = await r.json().catch(() => null);
  if (!r.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(err.code || `http_${r.status}`, err.message || r.statusText, r.status);
  }
  return data;
}

const SEATS = "domeng.seats";

/** {tableId: {seat: token}} of the seats this browser holds. */
export function mySeats() {
  try {
    return JSON.parse(localStorage.getItem(SEATS) || "{}");
  } catch {
    return {};
  }
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

export function pref(key, fallback) {
  return localStorage.getItem(`domeng.${key}`) ?? fallback;
}

export function setPref(key, value) {
  localStorage.setItem(`domeng.${key}`, value);
}
