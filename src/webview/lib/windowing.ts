// Windowing math for the virtualized conversation: which items to render for a scroll position, given
// measured (or estimated) heights, and how tall the spacers above and below must be. Pure.

export interface ItemWindow {
  /** First rendered index (inclusive). */
  start: number;
  /** Last rendered index (exclusive). */
  end: number;
  /** Height of the spacer above the rendered items. */
  padTop: number;
  /** Height of the spacer below the rendered items. */
  padBottom: number;
  total: number;
}

/**
 * Items intersecting [scrollTop, scrollTop + viewport], widened by `overscan` pixels on each side.
 * Always renders at least one item when there are any, so measuring can make progress.
 */
export function computeWindow(
  heights: readonly number[],
  scrollTop: number,
  viewport: number,
  overscan: number,
): ItemWindow {
  const n = heights.length;
  const total = heights.reduce((a, h) => a + h, 0);
  if (n === 0) return { start: 0, end: 0, padTop: 0, padBottom: 0, total: 0 };
  const top = Math.max(0, Math.min(scrollTop, total) - overscan);
  const bottom = Math.max(0, scrollTop) + Math.max(0, viewport) + overscan;
  let y = 0;
  let start = 0;
  while (start < n - 1 && y + heights[start]! <= top) y += heights[start++]!;
  const padTop = y;
  let end = start;
  while (end < n && (end === start || y < bottom)) y += heights[end++]!;
  return { start, end, padTop, padBottom: total - y, total };
}

/** True when the view is at (or within `slack` pixels of) the bottom: keep following new output. */
export function isNearBottom(scrollTop: number, clientHeight: number, scrollHeight: number, slack = 24): boolean {
  return scrollTop + clientHeight >= scrollHeight - slack;
}

/**
 * Heights for the items by id: measured ones where known, else an estimate from the text length
 * (a row of about 60 characters, 20 px each, plus chrome), so spacers are close before measuring.
 */
export function heightsFor(
  items: readonly { id: string; size: number }[],
  measured: ReadonlyMap<string, number>,
): number[] {
  return items.map((it) => measured.get(it.id) ?? estimateHeight(it.size));
}

export function estimateHeight(chars: number): number {
  return 40 + Math.min(2000, Math.ceil(Math.max(0, chars) / 60) * 20);
}
