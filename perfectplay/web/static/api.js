// The JSON API the pages use (documented in docs/web.md).

/** GET `url`; resolves to {status, body} (body: the parsed JSON); rejects on network errors. */
export async function getJSON(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  let body;
  try {
    body = await response.json();
  } catch {
    body = { error: `${response.status} ${response.statusText}: not a JSON answer` };
  }
  return { status: response.status, body };
}

/** A parameter value as `--param` writes it: "4", or "1,2,3" for a list. */
export function paramValue(value) {
  return Array.isArray(value) ? value.join(",") : String(value);
}

/** Parameters as the API's `params` text: "rows=4;cols=5". */
export function paramText(params) {
  return Object.entries(params).map(([k, v]) => `${k}=${paramValue(v)}`).join(";");
}

/** Show `message` in the error box `id` (the page's, unless the error belongs beside a form),
 * or hide the box when `message` is empty. */
export function showError(message, id = "error") {
  const box = document.getElementById(id);
  box.textContent = message || "";
  box.hidden = !message;
}
