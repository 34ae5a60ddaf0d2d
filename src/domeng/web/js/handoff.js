// "Continue on another device": this screen's seat moved to a phone (or another
// computer) by a link and its QR code that carry the seat's token; once the person says
// it moved, this page lets the seat go and watches. On the other device the link puts
// the token where a seat's is kept and opens the table (takeHandoff, at the start).

import { forgetSeat, keepSeat } from "./api.js";
import { t } from "./i18n.js";
import { shareBase } from "./share.js";
import { h } from "./summary.js";
import { openLayer } from "./ui.js";

/** The address that brings `seat` of `tableId` (its `token`) to another device. */
export function handoffLink(tableId, seat, token) {
  const q = new URLSearchParams({ table: tableId, seat: String(seat), handoff: token });
  return `${shareBase()}/?${q}`;
}

/** At the start: a handoff link opened here keeps its seat and opens its table (the
 * token is taken off the address at once). Answers whether it was one. */
export function takeHandoff() {
  const params = new URLSearchParams(location.search);
  const token = params.get("handoff");
  const table = params.get("table");
  const seat = Number(params.get("seat"));
  if (!token || !table || !Number.isInteger(seat) || seat < 0) return false;
  keepSeat(table, seat, token);
  history.replaceState(null, "", `${location.pathname}#/table/${encodeURIComponent(table)}`);
  return true;
}

/** The dialog: the QR code and the link of this screen's seat; "it moved" lets it go
 * here (`letGo()`), "cancel" keeps it. */
export function handoffDialog({ tableId, seat, token, letGo }) {
  const url = handoffLink(tableId, seat, token);
  const layer = h("div", { class: "overlay handoff-layer", role: "dialog", "aria-modal": "true", "aria-labelledby": "handoff-title", "data-handoff-dialog": "" });
  const card = h("div", { class: "dialog-card" });
  card.appendChild(h("h2", { id: "handoff-title", text: t("handoff.title") }));
  card.appendChild(h("p", { text: t("handoff.help") }));
  const qr = `/api/qr.svg?data=${encodeURIComponent(url)}`;
  card.appendChild(h("img", { class: "qr handoff-qr", src: qr, alt: t("handoff.qr_alt"), width: 180, height: 180, "data-qr": qr }));
  card.appendChild(h("p", {}, [h("a", { class: "share-link", href: url, text: url, "data-handoff-link": "" })]));
  const row = h("div", { class: "actions" });
  const moved = h("button", { type: "button", class: "primary", "data-handoff-done": "", text: t("handoff.done") });
  const cancel = h("button", { type: "button", "data-handoff-cancel": "", text: t("handoff.cancel") });
  row.append(moved, cancel);
  card.appendChild(row);
  layer.appendChild(card);
  const close = openLayer(layer);
  moved.addEventListener("click", () => {
    close();
    forgetSeat(tableId, seat);
    letGo();
  });
  cancel.addEventListener("click", close);
  layer.addEventListener("click", (ev) => ev.target === layer && close());
  cancel.focus();
}
