// What a provider's failed answer says, short enough for the panel's error line. A proxy or gateway in
// front of the API answers with its own HTML page (a 502 from nginx, a login page): its title says it, the
// markup does not. A 200 whose body is no event stream is a wrong base URL or a server that ignores
// `stream: true`; read as a stream it only looked like a connection that broke off.

/** At most this many characters of a body go into a message. */
export const BODY_CHARS = 300;

const HTML_RE = /^\s*(?:<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i;

export function clip(text: string): string {
  return text.length <= BODY_CHARS ? text : `${text.slice(0, BODY_CHARS - 1)}…`;
}

function plain(html: string): string {
  return html
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The text of an HTML page: its title, else its first heading, else its words; undefined for other text. */
export function htmlPageText(body: string): string | undefined {
  if (!HTML_RE.test(body) && !/^\s*<\?xml[^>]*>\s*<html/i.test(body)) return undefined;
  for (const re of [/<title[^>]*>([\s\S]*?)<\/title>/i, /<h1[^>]*>([\s\S]*?)<\/h1>/i]) {
    const text = plain((re.exec(body)?.[1] ?? '').replace(/<[^>]*>/g, ' '));
    if (text) return clip(text);
  }
  const words = plain(
    body
      .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(/<[^>]*>/g, ' '),
  );
  return clip(words || '(an empty page)');
}

/**
 * An error body as a message says it: an HTML page by its title (`an HTML page ("502 Bad Gateway")`, without
 * the status the SDKs put before the body: the message gives it), any other text as it is.
 */
export function readableErrorText(message: string): string {
  const page = htmlPageText(message.replace(/^\d{3} /, ''));
  return page === undefined ? message : `an HTML page ("${page}")`;
}

/** The message of a JSON error body (`{"error": {"message": …}}` or `{"error": "…"}`), if it is one. */
export function jsonErrorMessage(text: string): string | undefined {
  try {
    const o = JSON.parse(text) as { error?: unknown; message?: unknown };
    const e = o.error;
    if (typeof e === 'string') return e;
    if (e && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string')
      return (e as { message: string }).message;
    return undefined;
  } catch {
    return undefined; // cut at the head's length, or not JSON after all
  }
}
