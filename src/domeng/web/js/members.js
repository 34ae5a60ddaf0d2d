// A club's members page (#/members), for its admins: add a member (a one-time link and
// its QR code), a new link, mute, suspend or let back, remove; the chat's reports (hide a
// message for everyone) and the audit log of every admin action. #/members/TABLE (a
// table's "Invite a guest to this table"): the guest form with that table, ready to type.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { h } from "./summary.js";
import { showApiError, showNote } from "./ui.js";

const MUTE_MINUTES = 60;

function when(at) {
  return new Date(at * 1000).toLocaleString(document.documentElement.lang);
}

export function membersPage(root, guestTable = "") {
  let members = [];
  let audit = [];
  let reports = [];
  let link = null; // {name, link}: the last link made, shown with its QR code
  let signup = Boolean(window.domengClub && window.domengClub.signup);
  let gone = false;

  async function load() {
    try {
      const [m, a, r] = await Promise.all([api("GET", "/api/members"), api("GET", "/api/audit"), api("GET", "/api/reports")]);
      if (gone) return;
      members = m.members;
      audit = a.audit;
      reports = r.reports;
    } catch (e) {
      showApiError(e);
    }
    render();
  }

  async function act(method, path, body, after) {
    try {
      const doc = await api(method, path, body);
      if (after) after(doc);
    } catch (e) {
      showApiError(e);
    }
    await load();
  }

  function linkBox() {
    if (!link) return null;
    return h("div", { class: "club-link", "data-member-link": "" }, [
      h("p", { text: t("club.link_for", { name: link.name }) }),
      h("input", { readonly: true, value: link.link, "aria-label": t("club.link_for", { name: link.name }) }),
      h("img", { src: `/api/qr.svg?data=${encodeURIComponent(link.link)}`, alt: t("club.qr"), width: "164", height: "164" }),
      h("p", { class: "muted", text: t("club.link_note") }),
    ]);
  }

  function addForm() {
    const form = h("form", { class: "club-form inline", "data-add-member": "" }, [
      h("label", { class: "club-field" }, [h("span", { text: t("club.name") }), h("input", { name: "name", required: true, maxlength: "40" })]),
      h("label", { class: "check" }, [h("input", { type: "checkbox", name: "admin" }), h("span", { text: t("club.add_admin") })]),
      h("button", { type: "submit", class: "primary", text: t("club.add") }),
    ]);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const data = new FormData(form);
      const body = { name: String(data.get("name")), role: data.get("admin") ? "admin" : "member" };
      act("POST", "/api/members", body, (doc) => {
        link = { name: doc.name, link: doc.link };
        form.reset();
      });
    });
    return form;
  }

  function guestForm() {
    const form = h("form", { class: "club-form inline", "data-add-guest": "" }, [
      h("label", { class: "club-field" }, [h("span", { text: t("club.name") }), h("input", { name: "name", required: true, maxlength: "40" })]),
      h("label", { class: "club-field" }, [h("span", { text: t("club.guest_table") }), h("input", { name: "table", required: true, maxlength: "40", value: guestTable })]),
      h("button", { type: "submit", text: t("club.guest_go") }),
    ]);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const data = new FormData(form);
      act("POST", "/api/guests", { name: String(data.get("name")), table: String(data.get("table")) }, (doc) => {
        link = { name: doc.name, link: doc.link };
        form.reset();
      });
    });
    return h("div", { "data-guest": "" }, [h("h2", { text: t("club.guest_title") }), form]);
  }

  function signupToggle() {
    const b = h("button", { type: "button", class: "small", "data-signup-toggle": "", "aria-pressed": signup ? "true" : "false", text: t(signup ? "club.signup_close" : "club.signup_open_button") });
    b.addEventListener("click", () => act("POST", "/api/club/signup", { open: !signup }, (doc) => (signup = doc.signup)));
    return h("p", {}, [h("span", { class: "muted", text: `${t(signup ? "club.signup_open" : "club.signup_closed")} ` }), b]);
  }

  function auditText(e) {
    const target = e.action === "signup" ? t(`club.signup_${e.target}`) : e.target;
    return `${when(e.at)} · ${e.actor} · ${t(`club.action.${e.action}`)} · ${target}${e.detail ? ` (${e.detail})` : ""}`;
  }

  function row(m) {
    const state = [t(`club.role.${m.role}`)];
    if (!m.claimed) state.push(t("club.not_claimed"));
    if (m.suspended) state.push(t("club.suspended"));
    if (m.muted_until > Date.now() / 1000) state.push(t("club.muted"));
    const path = `/api/members/${encodeURIComponent(m.id)}`;
    const button = (key, onClick, attr) => {
      const b = h("button", { type: "button", class: "small", [attr]: m.id, text: t(key) });
      b.addEventListener("click", onClick);
      return b;
    };
    const muted = m.muted_until > Date.now() / 1000;
    const actions = m.role === "owner" ? [] : [
      button("club.new_link", () => act("POST", `${path}/link`, undefined, (doc) => (link = { name: doc.name, link: doc.link })), "data-new-link"),
      button(muted ? "club.unmute" : "club.mute_hour", () => act("POST", `${path}/mute`, { minutes: muted ? 0 : MUTE_MINUTES }), "data-mute-member"),
      button(m.suspended ? "club.restore" : "club.suspend", () => act("POST", `${path}/suspend`, { suspended: !m.suspended }), "data-suspend"),
      button("club.remove", () => {
        if (window.confirm(t("club.remove_confirm", { name: m.name }))) act("DELETE", path);
      }, "data-remove"),
    ];
    return h("li", { class: "club-member", "data-member": m.name }, [
      h("span", { class: "who", text: m.name }),
      h("span", { class: "muted", text: state.join(" · ") }),
      h("span", { class: "club-actions" }, actions),
    ]);
  }

  function reportRow(r) {
    const hide = h("button", { type: "button", class: "small", "data-hide": "", text: t("club.hide") });
    hide.addEventListener("click", () => act("POST", `/api/tables/${encodeURIComponent(r.table)}/chat/hide`, { at: r.at }, () => showNote(t("club.hidden"))));
    return h("li", { "data-report": r.name }, [
      h("span", { class: "who", text: `${r.name}: ` }),
      h("span", { text: r.text ?? t(`phrase.${r.phrase}`) }),
      h("span", { class: "muted", text: ` · ${when(r.at)} · ` }),
      hide,
    ]);
  }

  // The forms are made once (per language): a render when the lists come does not take
  // away what the admin was typing in them.
  let forms = null;
  function keptForms() {
    const lang = document.documentElement.lang;
    if (!forms || forms.lang !== lang) forms = { lang, add: addForm(), guest: guestForm() };
    return forms;
  }

  // The page's frame is made once with its forms in it (again with new forms, in another
  // language); a render changes what lies around the forms, never the forms' place: taken
  // out of the page and put back, the name box lost the keyboard, and what an admin
  // typed as the lists came went nowhere.
  let frame = null;
  function drawFrame(add, guest) {
    const slot = () => h("div", { class: "club-slot" });
    const f = { add, link: slot(), signup: slot(), list: h("ul", { class: "club-list" }), reports: h("section", { class: "card", "data-reports": "" }), audit: h("section", { class: "card", "data-audit": "" }) };
    root.replaceChildren(
      h("div", { class: "club-page members-page" }, [
        h("section", { class: "card", "data-members": "" }, [h("h1", { text: t("club.members_title") }), add, f.link, f.signup, f.list, guest]),
        f.reports,
        f.audit,
      ]),
    );
    return f;
  }

  function render() {
    const { add, guest } = keptForms();
    if (!frame || frame.add !== add) frame = drawFrame(add, guest);
    const box = linkBox();
    frame.link.replaceChildren(...(box ? [box] : []));
    frame.signup.replaceChildren(signupToggle());
    frame.list.replaceChildren(...members.map(row));
    frame.reports.replaceChildren(
      h("h2", { text: t("club.reports_title") }),
      reports.length ? h("ul", { class: "club-list" }, reports.map(reportRow)) : h("p", { class: "muted", text: t("club.no_reports") }),
    );
    frame.audit.replaceChildren(
      h("h2", { text: t("club.audit_title") }),
      audit.length
        ? h("ol", { class: "club-list audit" }, audit.map((e) => h("li", { text: auditText(e) })))
        : h("p", { class: "muted", text: t("club.audit_none") }),
    );
  }

  render();
  if (guestTable) {
    const name = root.querySelector("[data-add-guest] input[name=name]");
    name.scrollIntoView({ block: "center" });
    name.focus();
  }
  load();
  return {
    render,
    unmount() {
      gone = true;
    },
  };
}
