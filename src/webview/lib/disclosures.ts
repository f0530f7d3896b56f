// Which disclosures (a tool call's arguments, output, what the model sees of a masked output) the user
// opened or closed. A card is drawn again when the conversation scrolls it back into view and when a
// hidden view comes back, and each time it would start from its default; the choice is kept here and in
// the webview's state. Keys are the call's id and the part, kept as a hash: VS Code writes the state to
// disk as it is, and a call id is whatever the provider sent (a proxy may echo text, a secret too).

/** The newest choices kept (a long session has thousands of cards; few are ever toggled). */
export const MAX_DISCLOSURES = 200;

/**
 * `key` as the state keeps it: a 53-bit hash (cyrb53) in base 36, one pass over the key. A collision
 * only opens or closes a card the user did not touch.
 */
export function disclosureKey(key: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `h${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}`;
}

export class Disclosures {
  private readonly chosen = new Map<string, boolean>();

  constructor(
    /** Choices as `changed` gave them (keys already hashed). */
    saved: Iterable<readonly [string, boolean]> = [],
    /** Called with every choice after one changes (to save them). */
    private readonly changed: (all: [string, boolean][]) => void = () => undefined,
  ) {
    for (const [key, open] of saved) this.chosen.set(key, open);
  }

  isOpen(key: string, byDefault: boolean): boolean {
    return this.chosen.get(disclosureKey(key)) ?? byDefault;
  }

  set(key: string, open: boolean, byDefault: boolean): void {
    if (this.isOpen(key, byDefault) === open) return;
    const hashed = disclosureKey(key);
    this.chosen.delete(hashed);
    this.chosen.set(hashed, open);
    while (this.chosen.size > MAX_DISCLOSURES) this.chosen.delete(this.chosen.keys().next().value!);
    this.changed([...this.chosen]);
  }
}

/** The panel's one set of choices (the app replaces it with the saved one when it starts). */
export let disclosures = new Disclosures();

export function useDisclosures(d: Disclosures): void {
  disclosures = d;
}
