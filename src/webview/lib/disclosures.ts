// Which disclosures (a tool call's arguments, output, what the model sees of a masked output) the user
// opened or closed. A card is drawn again when the conversation scrolls it back into view and when a
// hidden view comes back, and each time it would start from its default; the choice is kept here and in
// the webview's state. Keys are the call's id and the part: no text a user or a model wrote.

/** The newest choices kept (a long session has thousands of cards; few are ever toggled). */
export const MAX_DISCLOSURES = 200;

export class Disclosures {
  private readonly chosen = new Map<string, boolean>();

  constructor(
    saved: Iterable<readonly [string, boolean]> = [],
    /** Called with every choice after one changes (to save them). */
    private readonly changed: (all: [string, boolean][]) => void = () => undefined,
  ) {
    for (const [key, open] of saved) this.chosen.set(key, open);
  }

  isOpen(key: string, byDefault: boolean): boolean {
    return this.chosen.get(key) ?? byDefault;
  }

  set(key: string, open: boolean, byDefault: boolean): void {
    if (this.isOpen(key, byDefault) === open) return;
    this.chosen.delete(key);
    this.chosen.set(key, open);
    while (this.chosen.size > MAX_DISCLOSURES) this.chosen.delete(this.chosen.keys().next().value!);
    this.changed([...this.chosen]);
  }
}

/** The panel's one set of choices (the app replaces it with the saved one when it starts). */
export let disclosures = new Disclosures();

export function useDisclosures(d: Disclosures): void {
  disclosures = d;
}
