// Where a line a rule reads from its start may begin: the line's start, or a cell's or a string's that
// holds it (after a tab, a quote or a `|`), with a logger's time there too. A line's own time is taken off
// by the engine (line-prefixes.ts); one inside a string or a joined list is not.
import { STAMP } from '../line-prefixes';

export const LINE_START = String.raw`(?:^|(?<=[\t"'|]))(?:[ ]?${STAMP})?`;
