// edit_file on a file that is not UTF-8: VS Code opens it as UTF-8 unless told otherwise (files.encoding,
// Reopen with Encoding), showing each byte that is not UTF-8 as U+FFFD, and saving the edited document
// writes U+FFFD's bytes for every one of them: an edit of one line would destroy every accented letter of
// a Latin-1 file. Such an edit is refused while the document is open as UTF-8.
import { LEGACY_NAME } from './line-range';

/** VS Code's names of the encodings that decode bytes as UTF-8 (TextDocument.encoding). */
const UTF8_NAMES = new Set(['utf8', 'utf8bom']);

/**
 * Why an edit of a file with these bytes is refused while VS Code has it open in `documentEncoding`, or
 * undefined when it may go ahead: the file is UTF-8 (or UTF-16 with a byte order mark, which VS Code
 * detects), or the document is open in another encoding, which it saves in.
 */
export function nonUtf8EditRefusal(name: string, documentEncoding: string, bytes: Uint8Array): string | undefined {
  if (!UTF8_NAMES.has(documentEncoding)) return undefined;
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff)) return undefined;
  const bad = new TextDecoder('utf-8').decode(b).match(/\ufffd/g)?.length ?? 0;
  const real = b.toString('latin1').match(/\xef\xbf\xbd/g)?.length ?? 0; // U+FFFD written as such
  if (bad <= real) return undefined;
  return (
    `Refused: ${name} is not UTF-8 (read_file shows it ${LEGACY_NAME}), but VS Code has it open as UTF-8: ` +
    `saving an edit would replace its ${bad - real} character${bad - real === 1 ? '' : 's'} that are not UTF-8 ` +
    'with U+FFFD for good. Ask the user to reopen it in its encoding (Reopen with Encoding, e.g. Western ' +
    '(Windows 1252)) or to set files.encoding for it; nothing was changed.'
  );
}
