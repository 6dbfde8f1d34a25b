// api.js -- the console's only way to the daemon: its public HTTP API, on
// the origin that served the console, with the token the user typed. The
// token lives in this tab's sessionStorage only (never a URL or a cookie).

const TOKEN_KEY = 'mnemod.token';

export function token() {
  return sessionStorage.getItem(TOKEN_KEY) || '';
}

export function setToken(value) {
  if (value) {
    sessionStorage.setItem(TOKEN_KEY, value);
  } else {
    sessionStorage.removeItem(TOKEN_KEY);
  }
}

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// What the user should read for a failed call.
export function explain(error) {
  if (!(error instanceof ApiError)) return `The daemon could not be reached: ${error.message}`;
  if (error.status === 401) {
    return `The daemon refused the token (${error.message}). Enter an app token or an admin token above.`;
  }
  if (error.status === 403) return `This token may not see that (${error.message}).`;
  return `${error.status} ${error.code}: ${error.message}`;
}

// GET (or another method) on the API; the parsed JSON answer, null for 204.
export async function call(path, {method = 'GET', body, text = false} = {}) {
  const headers = {};
  if (token()) headers.Authorization = `Bearer ${token()}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: 'no-store',
    credentials: 'omit',
  });
  if (!response.ok) {
    let code = 'error';
    let message = response.statusText;
    try {
      const answer = await response.json();
      code = answer.error.code;
      message = answer.error.message;
    } catch {
      // not the API's error body; keep the status text
    }
    throw new ApiError(response.status, code, message);
  }
  if (response.status === 204) return null;
  return text ? response.text() : response.json();
}

// Path segments are names (docs/api.md): encoded all the same.
export function path(...segments) {
  return segments.map(s => encodeURIComponent(s)).join('/');
}

export function query(params) {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') q.set(key, value);
  }
  const text = q.toString();
  return text ? `?${text}` : '';
}
