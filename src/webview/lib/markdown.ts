// Markdown for assistant messages. `markdownToHtml` is pure (no DOM) and never trusted: the component
// sanitizes its output with DOMPurify before it reaches the document.
import { Marked, type Tokens } from 'marked';

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    // Code blocks get a Copy button; the conversation handles its click by delegation.
    code({ text, lang }: Tokens.Code): string {
      const language = (lang ?? '').match(/^[\w+#.-]*/)?.[0] ?? '';
      const cls = language ? ` class="language-${escapeHtml(language)}"` : '';
      return (
        `<div class="code-block"><button type="button" class="copy" data-copy aria-label="Copy code">Copy</button>` +
        `<pre><code${cls}>${escapeHtml(text)}</code></pre></div>\n`
      );
    },
  },
});

/** Renders Markdown to (unsanitized) HTML; while streaming, an unclosed fence is closed first. */
export function markdownToHtml(text: string, streaming = false): string {
  const source = streaming ? closeOpenFence(text) : text;
  return marked.parse(source, { async: false });
}

/**
 * Streaming text often ends inside a ``` fence; without closing it the rest of the message would
 * flicker between code and prose as chunks arrive.
 */
export function closeOpenFence(text: string): string {
  let open: string | undefined;
  for (const line of text.split('\n')) {
    if (open === undefined) {
      open = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    } else {
      const close = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line)?.[1];
      if (close && close[0] === open[0] && close.length >= open.length) open = undefined;
    }
  }
  if (open === undefined) return text;
  return `${text}${text.endsWith('\n') ? '' : '\n'}${open}\n`;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
