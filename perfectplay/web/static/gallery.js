// The front page: one card per game and database (GET /api/gallery), its start pictured, its
// value for the player to move and its size as far as the server knows them. Cards of games
// being solved are asked for again until every value that can be known here is.
import { getJSON, showError } from "./api.js";

const POLL_MS = 500;
const PENDING = new Set(["solving", "waiting"]);

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A paragraph of `text` whose `quoted` parts are commands, shown as code. */
function withCode(className, text) {
  const node = element("p", className);
  text.split("`").forEach((part, i) => node.append(i % 2 ? element("code", null, part) : part));
  return node;
}

/** The card's status lines: value (or "solving"), size, note. */
function status(card, palette) {
  const lines = [];
  if (card.state === "solved") {
    const value = element("p", "card-value", card.value_text);
    value.dataset.value = card.value;
    value.style.borderColor = palette[card.value] || "";
    lines.push(value, element("p", "card-size", `${card.size_text} (${card.source})`));
  } else if (PENDING.has(card.state)) {
    const text = card.state === "solving" ? `solving… ${card.elapsed.toFixed(1)} s` : "waiting to be solved…";
    lines.push(element("p", "card-value pending", text));
  } else {
    if (card.size_text) lines.push(element("p", "card-size", card.size_text));
    lines.push(withCode("card-note", card.note));
  }
  return lines;
}

function cardNode(card, palette) {
  const link = element("a", "card");
  link.href = `/${card.href}`;
  link.dataset.game = card.name;
  link.dataset.state = card.state;
  const picture = element("div", "card-picture");
  if (card.svg) picture.innerHTML = card.svg;
  const title = element("h3", null, card.kind === "database" ? card.id : card.name);
  const about = element("p", "card-about", card.description);
  if (card.param_text) about.append(element("span", "params", ` (${card.param_text})`));
  const state = element("div", "card-status");
  state.append(...status(card, palette));
  link.append(picture, title, about, state);
  return link;
}

function update(node, card, palette) {
  node.dataset.state = card.state;
  node.href = `/${card.href}`;
  node.querySelector(".card-status").replaceChildren(...status(card, palette));
}

async function main() {
  const games = document.getElementById("games");
  const databases = document.getElementById("databases");
  const nodes = [];
  for (;;) {
    const { status: code, body } = await getJSON("/api/gallery");
    if (code !== 200) {
      showError(body.error);
      return;
    }
    body.cards.forEach((card, i) => {
      if (nodes[i]) {
        update(nodes[i], card, body.palette);
      } else {
        nodes[i] = cardNode(card, body.palette);
        (card.kind === "database" ? databases : games).append(nodes[i]);
      }
    });
    games.setAttribute("aria-busy", "false");
    document.getElementById("databases-section").hidden = databases.childElementCount === 0;
    if (!body.cards.some((card) => PENDING.has(card.state))) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

main().catch((error) => showError(`cannot reach the server: ${error}`));
