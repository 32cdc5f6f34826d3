// The list page: registered games (each a link to its page) and databases.
import { getJSON, paramValue, showError } from "./api.js";

function item(href, name, text, details) {
  const li = document.createElement("li");
  const link = document.createElement("a");
  link.className = "game";
  link.href = href;
  link.textContent = name;
  li.append(link, ` — ${text}`);
  if (details) {
    const small = document.createElement("div");
    small.className = "params";
    small.textContent = details;
    li.append(small);
  }
  return li;
}

async function main() {
  const { status, body } = await getJSON("/api/games");
  if (status !== 200) {
    showError(body.error);
    return;
  }
  const games = document.getElementById("games");
  for (const game of body.games) {
    const params = game.params
      .map((p) => `${p.name}=${paramValue(p.default)} (${p.help})`)
      .join("; ");
    games.append(
      item(`/games/${encodeURIComponent(game.name)}`, game.name, game.description,
        params && `parameters: ${params}`),
    );
  }
  games.setAttribute("aria-busy", "false");
  const databases = document.getElementById("databases");
  for (const db of body.databases) {
    const params = Object.entries(db.params).map(([k, v]) => `${k}=${paramValue(v)}`).join(", ");
    const text = `${db.file}: ${db.game}${params ? ` (${params})` : ""}, `
      + `${db.positions.toLocaleString("en")} positions stored`;
    databases.append(item(`/databases/${encodeURIComponent(db.id)}`, db.id, text));
  }
  document.getElementById("databases-section").hidden = body.databases.length === 0;
}

main().catch((error) => showError(`cannot reach the server: ${error}`));
