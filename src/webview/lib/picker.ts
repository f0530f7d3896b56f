// A closed <select> changes its value at each arrow key or typed letter (Windows, Linux), and each change
// fired at once: arrowing through the model picker switched the model at every step, and one step past the
// last model opened the setup view in place of the chat. A choice made from the keyboard is taken with
// Enter or when the focus leaves the picker; Escape puts back the one in use. A mouse pick is taken at once.

export interface PickerOptions {
  /** Takes the picker's value (it differs from `inUse`). */
  take(select: HTMLSelectElement): void;
  /** The value in use, shown again after Escape. */
  inUse(): string;
  /** A value only Enter (or the mouse) takes, never leaving the picker: an option that opens another view. */
  enterOnly?: string;
}

/** Handlers for a <select> (keydown, change, focusout, pointerdown); see the top of this file. */
export function keyboardPicker(o: PickerOptions): {
  keydown: (e: KeyboardEvent) => void;
  change: (e: Event) => void;
  focusout: (e: FocusEvent) => void;
  pointerdown: () => void;
} {
  /** The value shown may be one the keyboard passed over, not chosen yet. */
  let browsing = false;
  /** The last change comes from the mouse (its list): a pick, taken at once. */
  let pointer = false;
  const settle = (select: HTMLSelectElement, byEnter: boolean): void => {
    browsing = false;
    if (select.value === o.inUse()) return;
    if (!byEnter && select.value === o.enterOnly) select.value = o.inUse();
    else o.take(select);
  };
  return {
    keydown(e) {
      pointer = false;
      const select = e.currentTarget as HTMLSelectElement;
      if (e.key === 'Enter') {
        if (!browsing) return;
        e.preventDefault();
        settle(select, true);
      } else if (e.key === 'Escape') {
        if (!browsing) return;
        // The picker's own Escape: it must not also stop a run or close something around it.
        e.preventDefault();
        e.stopPropagation();
        browsing = false;
        select.value = o.inUse();
      } else if (e.key !== 'Tab' && !['Shift', 'Control', 'Alt', 'Meta'].includes(e.key)) browsing = true;
    },
    change(e) {
      if (browsing && !pointer) return;
      browsing = false;
      o.take(e.target as HTMLSelectElement);
    },
    focusout(e) {
      if (browsing) settle(e.target as HTMLSelectElement, false);
    },
    pointerdown() {
      pointer = true;
    },
  };
}
