// Text that came from elsewhere (an MCP server, a file in a cloned repository) shown on a terminal or
// in a file without what a terminal would run: escape sequences and control characters.

// CSI (ESC [ or 0x9b ... final), OSC / DCS / SOS / PM / APC strings up to BEL or ST (OSC 52 writes the
// clipboard), and two-character ESC sequences.
const ESCAPES =
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[\s\S]*?(?:\x07|\x1b\\|\x9c|$)|\x1b[ -/]*[0-~]?/g;
// Every other C0 / C1 control and DEL; bidirectional overrides and isolates ("Trojan Source").
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/** Removes terminal escape sequences and control characters. Newlines and tabs stay unless `oneLine`. */
export function stripControls(text: string, oneLine = false): string {
  const clean = text.replace(ESCAPES, '').replace(CONTROLS, '');
  return oneLine ? clean.replace(/\s+/g, ' ').trim() : clean.replace(/\r\n?/g, '\n');
}
