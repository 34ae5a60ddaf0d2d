// The rules page, in the chosen language: the terms (the glossary) and the rules.

import { TERMS, t, termify, termMeaning } from "./i18n.js";

function block(line) {
  if (line.startsWith("## ")) return `<h2>${termify(line.slice(3))}</h2>`;
  if (line.startsWith("### ")) return `<h3>${termify(line.slice(4))}</h3>`;
  if (line.startsWith("- ")) return `<li>${termify(line.slice(2))}</li>`;
  return `<p>${termify(line)}</p>`;
}

export function rulesPage(root) {
  function render() {
    const glossary = TERMS.slice()
      .sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b))
      .map((term) => `<dt id="term-${term.replace(" ", "-")}">${term}</dt><dd>${termify(termMeaning(term))}</dd>`)
      .join("");
    const lines = t("rules");
    let html = "";
    let inList = false;
    for (const line of Array.isArray(lines) ? lines : []) {
      const li = line.startsWith("- ");
      if (li && !inList) html += "<ul>";
      if (!li && inList) html += "</ul>";
      inList = li;
      html += block(line);
    }
    if (inList) html += "</ul>";
    root.innerHTML = `
      <article class="card rules">
        <h1>${termify(t("rules.title"))}</h1>
        <p>${termify(t("rules.intro"))}</p>
        <h2>${termify(t("rules.terms"))}</h2>
        <dl class="glossary">${glossary}</dl>
        ${html}
        <p><a class="button" href="#/">${termify(t("nav.lobby"))}</a></p>
      </article>`;
  }
  render();
  return { render, unmount() {} };
}

const ORDER = ["LEMPA", "PASS", "PASSEBUNGE", "LAST DOMINO", "LAST MAPPANO", "FIRST CAPPU", "MAPPAKULING", "CEKI", "POLLO", "MANGUNO", "MATTIKKENG", "CUCUQ", "STONES", "CAMAT"];
