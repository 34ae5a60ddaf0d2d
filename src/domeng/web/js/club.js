// A club (domeng serve --club): signing in, setting a password by a one-time link, the
// member's name and "Sign out" in the header. At home none of this shows.

import { api } from "./api.js";
import { t } from "./i18n.js";
import { keepProfile } from "./profiles.js";
import { h } from "./summary.js";
import { showApiError } from "./ui.js";

/** The club's session ({club, member}); at home {club: false}. */
export async function clubSession() {
  try {
    return await api("GET", "/api/session");
  } catch {
    return { club: false, member: null };
  }
}

/** Whether the signed-in member is an admin (or the owner). */
export function isAdmin() {
  const m = window.domengClub && window.domengClub.member;
  return Boolean(m && (m.role === "admin" || m.role === "owner"));
}

/** Whether this page is a club's, with a member signed in. */
export function inClub() {
  return Boolean(window.domengClub && window.domengClub.club && window.domengClub.member);
}

/** A signed-in member plays as their own profile: picked for them. */
async function pickOwnProfile(member) {
  if (member.role === "guest") return;
  try {
    keepProfile(await api("POST", `/api/profiles/${encodeURIComponent(member.id)}/pick`));
  } catch (e) {
    showApiError(e);
  }
}

function field(name, key, type, attrs = {}) {
  const input = h("input", { name, type, required: true, ...attrs });
  return h("label", { class: "club-field" }, [h("span", { text: t(key) }), input]);
}

function card(view, title, intro, form) {
  view.replaceChildren(
    h("div", { class: "club-page" }, [
      h("section", { class: "card club-card", "data-club-card": "" }, [h("h1", { text: t(title) }), h("p", { class: "muted", text: t(intro) }), form]),
    ]),
  );
}

/** The sign-in page: name and password; `done()` once signed in. */
export function signInPage(view, done) {
  const form = h("form", { class: "club-form", "data-sign-in": "" }, [
    field("name", "club.name", "text", { autocomplete: "username", maxlength: "40" }),
    field("password", "club.password", "password", { autocomplete: "current-password", maxlength: "200" }),
    h("button", { type: "submit", class: "primary", text: t("club.sign_in") }),
  ]);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const data = new FormData(form);
    try {
      const doc = await api("POST", "/api/session", { name: String(data.get("name")), password: String(data.get("password")) });
      await pickOwnProfile(doc.member);
      done(doc);
    } catch (e) {
      showApiError(e);
    }
  });
  card(view, "club.sign_in_title", "club.sign_in_intro", form);
  if (window.domengClub.signup) view.querySelector(".club-page").appendChild(joinCard(done));
  return { render: () => signInPage(view, done), unmount() {} };
}

/** Where an admin opened sign-up: a newcomer joins with a name and a password. */
function joinCard(done) {
  const form = h("form", { class: "club-form", "data-join": "" }, [
    field("name", "club.name", "text", { autocomplete: "username", maxlength: "40" }),
    field("password", "club.password", "password", { autocomplete: "new-password", minlength: "10", maxlength: "200" }),
    h("p", { class: "muted", text: t("club.password_rule") }),
    h("button", { type: "submit", text: t("club.join") }),
  ]);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const data = new FormData(form);
    try {
      const doc = await api("POST", "/api/members/signup", { name: String(data.get("name")), password: String(data.get("password")) });
      await pickOwnProfile(doc.member);
      done(doc);
    } catch (e) {
      showApiError(e);
    }
  });
  return h("section", { class: "card club-card" }, [h("h2", { text: t("club.join_title") }), form]);
}

/** The page of a member's one-time link: they choose their password and are signed in. */
export function claimPage(view, code, done) {
  const form = h("form", { class: "club-form", "data-claim": "" }, [
    field("password", "club.password", "password", { autocomplete: "new-password", minlength: "10", maxlength: "200" }),
    field("again", "club.password_again", "password", { autocomplete: "new-password", minlength: "10", maxlength: "200" }),
    h("p", { class: "muted", text: t("club.password_rule") }),
    h("button", { type: "submit", class: "primary", text: t("club.claim_go") }),
  ]);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const data = new FormData(form);
    if (data.get("password") !== data.get("again")) {
      showApiError({ code: "passwords_differ", message: t("club.passwords_differ") });
      return;
    }
    try {
      const doc = await api("POST", "/api/members/claim", { code, password: String(data.get("password")) });
      await pickOwnProfile(doc.member);
      done(doc);
    } catch (e) {
      showApiError(e);
    }
  });
  card(view, "club.claim_title", "club.claim_intro", form);
  return { render: () => claimPage(view, code, done), unmount() {} };
}

/** A guest's link: signed in at once, for their one table. */
export async function claimGuest(code) {
  return api("POST", "/api/members/claim", { code });
}

/** The header of a club's page: who is signed in, the members' page for admins, and
 *  "Sign out". */
export function clubBar() {
  const member = window.domengClub.member;
  const nav = document.querySelector("header.top nav");
  nav.querySelector("[data-club-bar]")?.remove();
  const bar = h("span", { class: "club-bar", "data-club-bar": "" });
  if (isAdmin()) bar.appendChild(h("a", { href: "#/members", "data-members-link": "", text: t("club.members") }));
  bar.appendChild(h("span", { class: "muted", "data-signed-in": "", text: t("club.signed_in_as", { name: member.name }) }));
  const out = h("button", { type: "button", class: "small", "data-sign-out": "", text: t("club.sign_out") });
  out.addEventListener("click", async () => {
    try {
      await api("DELETE", "/api/session");
    } catch (e) {
      showApiError(e);
      return;
    }
    keepProfile(null);
    location.replace(location.pathname);
  });
  bar.appendChild(out);
  nav.appendChild(bar);
}
