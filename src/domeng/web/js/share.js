// The share panel: a link for each invited seat (only the host has these) and each seat
// anyone may take, with a button that copies it and a QR code to scan from a phone.

import { t } from "./i18n.js";
import { h } from "./summary.js";

export function isLoopback(url) {
  return /\/\/(127\.|localhost|\[::1\])/.test(url);
}

/** The address others open: the home-network one when the service has one (GET /api). */
export function shareBase() {
  return (window.domengAddress || location.origin).replace(/\/$/, "");
}

async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // fall back below (a page without the permission)
    }
  }
  const area = h("textarea", { readonly: true, class: "copy-area" });
  area.value = text;
  document.body.appendChild(area);
  area.select();
  let done;
  try {
    done = document.execCommand("copy");
  } catch {
    done = false;
  }
  area.remove();
  return done;
}

function linkRow(seat, path, kind) {
  const url = shareBase() + path;
  const row = h("li", { class: "share-item", "data-share-seat": seat, "data-share-kind": kind });
  const head = h("div", { class: "share-head" });
  head.appendChild(h("strong", { text: t("lobby.seat_n", { n: seat + 1 }) }));
  head.appendChild(h("span", { class: "muted", text: ` · ${t(kind === "invite" ? "share.invited" : "share.anyone")}` }));
  row.appendChild(head);
  const body = h("div", { class: "share-body" });
  const qr = `/api/qr.svg?data=${encodeURIComponent(url)}`;
  const img = h("img", {
    class: "qr",
    src: qr,
    alt: t("share.qr_alt", { n: seat + 1 }),
    width: 132,
    height: 132,
    "data-qr": qr,
  });
  body.appendChild(img);
  const side = h("div", { class: "share-side" });
  side.appendChild(h("a", { class: "share-link", href: url, text: url, "data-share-link": "" }));
  const copy = h("button", { type: "button", class: "small", "data-copy": "", text: t("share.copy") });
  copy.addEventListener("click", async () => {
    const ok = await copyText(url);
    copy.textContent = t(ok ? "share.copied" : "share.copy_failed");
    setTimeout(() => (copy.textContent = t("share.copy")), 2000);
  });
  side.appendChild(copy);
  body.appendChild(side);
  row.appendChild(body);
  return row;
}

/**
 * The panel (an element with `data-share`), or null when there is nothing to share.
 * `invites`: {seat: path} of the invited seats (the host's), `joins`: the table's
 * `links.join` (seats anyone may take).
 */
export function sharePanel({ invites = {}, joins = [] }) {
  const rows = [];
  for (const [seat, path] of Object.entries(invites)) rows.push([Number(seat), path, "invite"]);
  for (const path of joins) {
    const seat = Number(new URLSearchParams(path.split("?")[1] || "").get("seat"));
    if (!rows.some(([s]) => s === seat)) rows.push([seat, path, "open"]);
  }
  if (!rows.length) return null;
  rows.sort((a, b) => a[0] - b[0]);
  const box = h("section", { class: "share-panel", "data-share": "" });
  box.appendChild(h("h3", { text: t("share.title") }));
  box.appendChild(h("p", { class: "muted", text: t(Object.keys(invites).length ? "share.help" : "table.share") }));
  box.appendChild(h("ul", { class: "share-list" }, rows.map(([seat, path, kind]) => linkRow(seat, path, kind))));
  if (isLoopback(shareBase())) box.appendChild(h("p", { class: "muted", text: t("table.share_local") }));
  return box;
}
