// The line after a checkpoint that says where the folded turns can still be read: the history file and
// the stored outputs of those turns. Written here, never by the summary model, so no path is lost to its
// token budget (and the line stays the same from call to call, keeping the cached prefix).
import type { Message, SplitTrajectory } from '../messages';

/** Up to this many stored outputs are named one by one; more are named by their folder. */
export const NAMED_OUTPUTS = 8;

function folderOf(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut < 0 ? '.' : path.slice(0, cut + 1);
}

/** Where the outputs of turns [0, `turns`) were stored, in order, each once. */
export function storedOutputsOf(history: readonly Message[], split: SplitTrajectory, turns: number): string[] {
  const paths = new Set<string>();
  for (const turn of split.turns.slice(0, turns))
    for (const i of turn.observationIndices) {
      const at = history[i]!.storedAt;
      if (at !== undefined) paths.add(at);
    }
  return [...paths];
}

/**
 * `historyPointer` (the session's history file, when there is one) and the stored outputs of the folded
 * turns; empty when there is nothing to point at.
 */
export function foldedPointers(historyPointer: string | undefined, stored: readonly string[]): string {
  const lines: string[] = [];
  if (historyPointer) lines.push(historyPointer);
  if (stored.length > 0 && stored.length <= NAMED_OUTPUTS)
    lines.push(`Full outputs of the summarized turns: ${stored.join(', ')} - read or grep them for details.`);
  else if (stored.length > NAMED_OUTPUTS) {
    const folders = [...new Set(stored.map(folderOf))];
    lines.push(
      `Full outputs of the summarized turns (${stored.length} files): under ${folders.join(', ')} - ` +
        'list, read or grep them for details.',
    );
  }
  return lines.join('\n');
}
