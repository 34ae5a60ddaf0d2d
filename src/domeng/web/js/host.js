// The host's controls at a table (only for the browser that holds its host token):
// a computer for a friend who never came or went away, a computer's seat opened to a
// new friend, the end of the game now; once it is over, the same players again, or
// the table removed (its record offered for download first).

import { forgetTable, hostAction } from "./api.js";
import { t } from "./i18n.js";
import { h } from "./summary.js";
import { openLayer, showApiError } from "./ui.js";

/** A person's seat the host may hand to a computer: nobody came, or they are away. */
export function replaceable(s, mine) {
  return s.kind === "person" && !mine.has(s.seat) && (!s.taken || s.connected === false || s.stand_in);
}

/**
 * The controls, as buttons in an element. `o`: {tableId, table, names, mine (Set of the
 * seats this screen holds), done(action, answer) after an action, again()}.
 */
export function hostButtons(o) {
  const { table, names } = o;
  const box = h("div", { class: "host-buttons" });
  const finished = table.status === "finished";
  const act = async (action, extra = {}, confirmText = null) => {
    if (confirmText && !window.confirm(confirmText)) return;
    try {
      const answer = await hostAction(o.tableId, action, extra);
      o.done(action, answer, extra);
    } catch (e) {
      showApiError(e);
    }
  };
  if (!finished) {
    for (const s of table.seats) {
      if (replaceable(s, o.mine)) {
        const label = s.taken ? t("host.replace", { n: s.seat + 1, who: names[s.seat] }) : t("host.replace_open", { n: s.seat + 1 });
        const b = h("button", { type: "button", class: "small", "data-host": "replace", "data-seat": s.seat, text: label });
        const ask = s.taken ? t("host.replace_confirm", { who: names[s.seat] }) : null;
        b.addEventListener("click", () => act("replace", { seat: s.seat }, ask));
        box.appendChild(b);
      } else if (s.kind === "computer") {
        const b = h("button", { type: "button", class: "small", "data-host": "invite", "data-seat": s.seat, text: t("host.invite", { n: s.seat + 1 }) });
        b.addEventListener("click", () => act("invite", { seat: s.seat }));
        box.appendChild(b);
      }
    }
    const end = h("button", { type: "button", class: "small danger", "data-host": "end", text: t("host.end") });
    end.addEventListener("click", () => act("end", {}, t("host.end_confirm")));
    box.appendChild(end);
  } else {
    box.appendChild(againButton(o));
    box.appendChild(removeButton(o.tableId));
  }
  return box;
}

export function againButton(o) {
  const b = h("button", { type: "button", class: "primary", "data-host": "again", text: t("host.again") });
  b.addEventListener("click", async () => {
    b.disabled = true;
    try {
      o.again(await hostAction(o.tableId, "again"));
    } catch (e) {
      showApiError(e);
      b.disabled = false;
    }
  });
  return b;
}

export function removeButton(tableId, after = () => (location.hash = "#/")) {
  const b = h("button", { type: "button", class: "danger", "data-host": "remove", text: t("host.remove") });
  b.addEventListener("click", () => removeDialog(tableId, after));
  return b;
}

/** "Remove this table?": the record offered first, then remove or cancel. */
export function removeDialog(tableId, after) {
  const layer = h("div", { class: "overlay remove-layer", role: "dialog", "aria-modal": "true", "aria-labelledby": "remove-title", "data-remove-dialog": "" });
  const card = h("section", { class: "dialog-card" });
  card.appendChild(h("h2", { id: "remove-title", text: t("host.remove_title") }));
  card.appendChild(h("p", { text: t("host.remove_help") }));
  const row = h("div", { class: "actions" });
  const id = encodeURIComponent(tableId);
  row.appendChild(h("a", { class: "button", href: `/api/tables/${id}/record?download=1`, download: `domeng-${tableId}.json`, "data-remove-download": "", text: t("table.download") }));
  const yes = h("button", { type: "button", class: "danger", "data-remove-confirm": "", text: t("host.remove_yes") });
  const no = h("button", { type: "button", "data-remove-cancel": "", text: t("host.cancel") });
  row.append(yes, no);
  card.appendChild(row);
  layer.appendChild(card);
  const close = openLayer(layer);
  no.addEventListener("click", close);
  yes.addEventListener("click", async () => {
    yes.disabled = true;
    try {
      await hostAction(tableId, "remove");
      forgetTable(tableId);
      close();
      after();
    } catch (e) {
      showApiError(e);
      yes.disabled = false;
    }
  });
  no.focus();
}
