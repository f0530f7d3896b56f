// Where keyboard focus may go when something new appears. A prompt that took focus from the composer
// would turn a Space or Enter the user was typing into an answer they never read.

/** The element that really has focus, looking through open shadow roots. */
export function deepActiveElement(doc: Document): Element | null {
  let active = doc.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

/** True while the user is typing somewhere (a text field, a text area, an editable element). */
export function isTyping(active: Element | null): boolean {
  if (!active) return false;
  const tag = active.tagName.toLowerCase();
  if (tag === 'textarea') return true;
  if (tag === 'input') {
    const type = (active.getAttribute('type') ?? 'text').toLowerCase();
    return !['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file', 'image'].includes(type);
  }
  return (active as HTMLElement).isContentEditable === true || active.getAttribute('contenteditable') === 'true';
}
