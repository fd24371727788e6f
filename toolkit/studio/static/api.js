// The studio's HTTP API as functions, and the one place errors are shown.
// The access token arrives in the address (?token=...) and is kept for this tab; every call sends
// it as a header, and images and downloads carry it in their address. No cookie holds it: a
// browser would send a cookie to every port of this machine.

const params = new URLSearchParams(location.search);
const token = params.get("token") || sessionStorage.getItem("studio-token") || "";
if (token) sessionStorage.setItem("studio-token", token);

export class ApiError extends Error {
  constructor(message, problems) { super(message); this.problems = problems || []; }
}

async function call(method, path, body) {
  const options = { method, headers: { "X-Studio-Token": token } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    throw new ApiError("the studio does not answer (was it stopped?)");
  }
  const type = response.headers.get("content-type") || "";
  const data = type.includes("json") ? await response.json() : await response.text();
  if (!response.ok) throw new ApiError((data && data.error) || `HTTP ${response.status}`, data && data.problems);
  return data;
}

export const get = (path) => call("GET", path);
export const post = (path, body) => call("POST", path, body || {});
export const q = (params) => new URLSearchParams(params).toString();
export const withToken = (path) => `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}`;

export function showError(err) {
  const box = document.getElementById("error");
  document.getElementById("error-text").textContent = err instanceof Error ? err.message : String(err);
  box.hidden = false;
}

export function clearError() { document.getElementById("error").hidden = true; }

// Run an async action; its error goes to the banner (and is returned as null).
export async function guarded(work) {
  try {
    const result = await work();
    return result;
  } catch (err) {
    showError(err);
    if (!(err instanceof ApiError)) console.error(err);
    return null;
  }
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

export function problemList(ul, problems) {
  ul.replaceChildren(...(problems || []).map((p) => el("li", { class: p.severity || "error", text: p.text || p })));
}
