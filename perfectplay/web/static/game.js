// A game's page: the board and every legal move coloured by its value, play against perfect
// play (or explore both sides), undo/redo/restart, typed positions, the value history.
//
// The state is a start (null: the game's initial position, else a position typed in the
// game's text format) and the labels of the moves played from it; the server answers each
// state with the position's report (GET .../position, see docs/web.md). The page's address
// carries the state (?params=&position=&moves=&side=), so a reload or a link shows the same.
import { getJSON, paramText, paramValue, showError } from "./api.js";

const [kind, rawName] = location.pathname.split("/").filter(Boolean);
const name = decodeURIComponent(rawName);
const query = new URLSearchParams(location.search);
const POLL_MS = 250;
const COMPUTER_DELAY_MS = 250;

const state = {
  params: query.get("params") || "",
  start: query.get("position"),
  moves: query.get("moves") ? query.get("moves").split(",") : [],
  redo: [],
  mode: ["first", "second", "explore"].includes(query.get("side")) ? query.get("side") : "first",
  report: null,
  boardSvg: null, // the picture drawn in #board
  palette: {},
  request: 0,
  computerTimer: null,
};

const $ = (id) => document.getElementById(id);

/** The query string naming a position: "params=...&position=...&moves=..." (and side=). */
function queryText({ params, start, moves }, side = "first") {
  const search = new URLSearchParams();
  if (params) search.set("params", params);
  if (start !== null) search.set("position", start);
  if (moves.length) search.set("moves", moves.join(","));
  if (side !== "first") search.set("side", side);
  const text = search.toString();
  return text ? `?${text}` : "";
}

function apiUrl(wanted) {
  const base = kind === "databases" ? "/api/databases" : "/api/games";
  return `${base}/${encodeURIComponent(name)}/position${queryText(wanted)}`;
}

function humanToMove(ply) {
  return state.mode === "explore" || (state.mode === "first") === (ply % 2 === 0);
}

function describe(value, remoteness) {
  return remoteness === null ? value : `${value} in ${remoteness}`;
}

/** Who won a game that is over, `value` being for the player to move there: "you won", "you
 * lost", "a tie"; when exploring (both sides by hand), the side by its last move. */
function outcome(value, yours) {
  if (value === "TIE" || value === "DRAW") return value === "TIE" ? "a tie" : "a draw";
  if (state.mode !== "explore") return (value === "WIN") === yours ? "you won" : "you lost";
  return value === "WIN" ? "won by the player to move" : "won by the player who moved last";
}

function setStatus(turn, text) {
  const status = $("status");
  status.dataset.turn = turn;
  status.dataset.ply = String(state.moves.length);
  status.textContent = text;
}

function syncAddress() {
  history.replaceState(null, "", `${location.pathname}${queryText(state, state.mode)}`);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ask for the position `moves` reach from `start`; on success it becomes the state. While the
 * game is being solved, or the position searched (202), it asks again every POLL_MS, keeping
 * the position asked for: the promise settles once the position is shown, refused, or
 * superseded by a newer request. A refusal shows in the error box `errorBox` (beside the form
 * the position was typed in, for a typed one). */
async function show(changes, errorBox = "error") {
  const { params, start, moves, redo } = state;
  const wanted = { params, start, moves, redo, ...changes };
  const request = ++state.request;
  clearTimeout(state.computerTimer);
  let answer;
  for (;;) {
    try {
      answer = await getJSON(apiUrl(wanted));
    } catch (error) {
      showError(`cannot reach the server: ${error}`);
      return;
    }
    if (request !== state.request) return; // a newer request superseded this one
    if (answer.status !== 202) break;
    const body = answer.body;
    $("progress").hidden = false;
    if (body.thinking) {
      // a game too large to solve, searched position by position
      const wait = body.running ? "" : " (waiting for another search to finish)";
      $("progress-bar").setAttribute("aria-label", "thinking");
      $("progress-text").textContent =
        `Thinking: searching this position, ${body.elapsed.toFixed(1)} s${wait}`;
      setStatus("thinking", "Thinking…");
      if (body.svg !== state.boardSvg) {
        // the position searched, drawn without values: the board stays while it is searched
        $("board").innerHTML = body.svg;
        state.boardSvg = body.svg;
        $("moves").replaceChildren();
        $("position-text").value = body.position;
      }
    } else {
      const wait = body.running ? "" : " (waiting for another game's solve to finish)";
      $("progress-bar").setAttribute("aria-label", "solving");
      $("progress-text").textContent =
        `Solving ${body.game} for the first time: ${body.elapsed.toFixed(1)} s${wait}`;
      setStatus("solving", "Solving…");
    }
    await sleep(POLL_MS);
    if (request !== state.request) return;
  }
  const { status, body } = answer;
  $("progress").hidden = true;
  if (status !== 200) {
    showError(body.error, errorBox);
    if (state.report === null) {
      setStatus("error", "No position to show.");
    } else {
      const typed = $("position-text").value;
      render(); // the last good position again (its status, a pending computer reply)
      $("position-text").value = typed; // keep what the person typed, to correct it
    }
    return;
  }
  showError("");
  showError("", "position-error");
  Object.assign(state, wanted, { report: body });
  render();
}

function play(label) {
  show({ moves: [...state.moves, label], redo: [] });
}

function moveButton(move, enabled) {
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.move = move.label;
  button.dataset.value = move.value;
  button.dataset.remoteness = String(move.remoteness === null ? -1 : move.remoteness);
  button.textContent = `${move.label} · ${describe(move.value, move.remoteness)}`;
  button.title = `${move.label}: ${describe(move.value, move.remoteness)} for the player making it`
    + (move.best ? " (a best move)" : "");
  button.style.background = state.palette[move.value] || "";
  button.style.color = move.value === "TIE" ? "#000" : "#fff";
  button.classList.toggle("best", move.best);
  button.disabled = !enabled;
  button.addEventListener("click", () => play(move.label));
  return button;
}

function render() {
  const report = state.report;
  const ply = state.moves.length;
  const yours = humanToMove(ply);
  $("title").textContent = `${report.game}${report.param_text ? ` (${report.param_text.replaceAll(";", ", ")})` : ""}`;
  document.title = `${report.game} · perfectplay`;
  $("board").innerHTML = report.svg;
  state.boardSvg = report.svg;
  for (const mark of $("board").querySelectorAll("[data-move]")) {
    mark.setAttribute("role", "button");
    mark.setAttribute("tabindex", "0");
    mark.setAttribute("aria-label", `move ${mark.dataset.move}`);
    const go = () => {
      if (humanToMove(state.moves.length)) play(mark.dataset.move);
    };
    mark.addEventListener("click", go);
    mark.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") go();
    });
  }
  $("moves").replaceChildren(...report.moves.map((m) => moveButton(m, yours)));
  $("history").innerHTML = report.history_svg;
  for (const input of $("params-form").querySelectorAll("input")) {
    if (input.name in report.params) input.value = paramValue(report.params[input.name]);
  }
  $("position-text").value = report.position;
  $("undo").disabled = ply === 0;
  $("redo").disabled = state.redo.length === 0;
  $("restart").disabled = false;
  $("computer").disabled = report.over;
  $("mode").value = state.mode;
  const value = describe(report.value, report.remoteness);
  if (report.over) {
    setStatus("over", `Game over: ${outcome(report.value, yours)}.`);
  } else if (state.mode === "explore") {
    setStatus("human", `Move ${ply + 1}: ${value} for the player to move.`);
  } else if (yours) {
    setStatus("human", `Your move (${value} for you).`);
  } else {
    setStatus("computer", `Computer to move (${value} for it).`);
    if ($("auto").checked) state.computerTimer = setTimeout(computerMove, COMPUTER_DELAY_MS);
  }
  syncAddress();
}

function computerMove() {
  const best = state.report && state.report.moves.find((m) => m.best);
  if (best) play(best.label);
}

/** Plies to step back (undo) or forward (redo): one when exploring, else to your next turn. */
function steps(from, available, direction) {
  let k = 1;
  if (state.mode !== "explore") {
    while (k < available && !humanToMove(from + direction * k)) k += 1;
  }
  return Math.min(k, available);
}

function undo() {
  const k = steps(state.moves.length, state.moves.length, -1);
  if (k === 0) return;
  const kept = state.moves.slice(0, state.moves.length - k);
  const undone = state.moves.slice(state.moves.length - k).reverse();
  show({ moves: kept, redo: [...state.redo, ...undone] });
}

function redo() {
  const k = steps(state.moves.length, state.redo.length, +1);
  if (k === 0) return;
  const again = state.redo.slice(state.redo.length - k).reverse();
  show({ moves: [...state.moves, ...again], redo: state.redo.slice(0, state.redo.length - k) });
}

function paramsForm(entry, params) {
  const form = $("params-form");
  form.replaceChildren();
  for (const p of entry.params) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.name = p.name;
    input.value = paramValue(params[p.name] ?? p.default);
    input.size = 10;
    label.append(`${p.name} `, input, ` ${p.help}`);
    form.append(label);
  }
  const apply = document.createElement("button");
  apply.type = "submit";
  apply.textContent = "Apply";
  form.append(apply);
  $("params-section").hidden = entry.params.length === 0;
}

async function main() {
  const { status, body } = await getJSON("/api/games");
  if (status !== 200) {
    showError(body.error, errorBox);
    return;
  }
  state.palette = body.palette;
  $("title").textContent = name;
  const entry = kind === "games" && body.games.find((g) => g.name === name);
  if (entry) {
    $("description").textContent = entry.description;
    const given = state.params.split(";").filter((item) => item.includes("="))
      .map((item) => item.split("=", 2).map((word) => word.trim()));
    const values = Object.fromEntries(entry.params.map((p) => [p.name, p.default]));
    paramsForm(entry, Object.assign(values, Object.fromEntries(given)));
  } else if (kind === "databases") {
    const db = body.databases.find((d) => d.id === name);
    if (db) {
      $("description").textContent = `database ${db.file}: ${db.game}, `
        + `${db.positions.toLocaleString("en")} positions stored (served without solving)`;
    }
  }
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redo);
  $("restart").addEventListener("click", () => show({ moves: [], redo: [] }));
  $("computer").addEventListener("click", computerMove);
  $("mode").addEventListener("change", () => {
    state.mode = $("mode").value;
    if (state.report) render();
  });
  $("auto").addEventListener("change", () => {
    if (state.report) render();
  });
  $("position-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("position-text").value.trim();
    show({ start: text === "" ? null : text, moves: [], redo: [] }, "position-error");
  });
  $("params-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const values = Object.fromEntries(new FormData($("params-form")).entries());
    show({ params: paramText(values), start: null, moves: [], redo: [] });
  });
  const shown = show({ moves: state.moves });
  const asked = state.request;
  await shown;
  const named = state.moves.length > 0 || state.start !== null;
  if (state.request === asked && state.report === null && named) {
    // The address named a position that is not there: show the start, and say why.
    const reason = $("error").textContent;
    await show({ start: null, moves: [], redo: [] });
    if (state.report !== null) showError(`${reason} (showing the start position instead)`);
  }
}

main().catch((error) => showError(`cannot reach the server: ${error}`));
