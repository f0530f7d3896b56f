// Builds the manager's tool entries from a server's listing: safe file names, summaries, schema checks,
// and the line that shows the listing's warnings.
import * as path from 'node:path';
import { assignSafeNames } from './names';
import { summarize } from './render';
import { compileInputSchema } from './schema';
import type { McpToolDescription, McpToolEntry } from './types';

/** Tool entries for one server. Repeated names keep the first; `folder` is empty when nothing is written. */
export function buildToolEntries(
  tools: readonly McpToolDescription[],
  folder: string,
  warnings: string[] = [],
): McpToolEntry[] {
  const unique: McpToolDescription[] = [];
  const seen = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.name)) {
      warnings.push(`the tool '${t.name.slice(0, 100)}' is listed twice; the first is kept`);
      continue;
    }
    seen.add(t.name);
    unique.push(t);
  }
  const names = assignSafeNames(unique.map((t) => t.name));
  return unique.map((tool) => {
    const fileName = `${names.get(tool.name)!}.json`;
    const compiled = compileInputSchema(tool.inputSchema);
    const entry: McpToolEntry = {
      name: tool.name,
      fileName,
      file: folder ? path.join(folder, fileName) : '',
      summary: summarize(tool.description),
      descriptionChars: (tool.description ?? '').length,
      tool,
    };
    if (tool.title !== undefined) entry.title = tool.title;
    if (!compiled.ok) entry.inputSchemaError = compiled.error;
    return entry;
  });
}

/** Shown warnings: the first few and how many more (a server can earn one per tool). */
const SHOWN_WARNINGS = 10;

/** The state's message for a listing's warnings. */
export function warningsLine(warnings: readonly string[]): string {
  const more = warnings.length - SHOWN_WARNINGS;
  const shown = warnings.slice(0, SHOWN_WARNINGS).join('; ');
  return `Warnings: ${shown}${more > 0 ? `; and ${more} more` : ''}`;
}
