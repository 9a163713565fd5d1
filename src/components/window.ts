/**
 * The first visible line of a window over `count` lines, `height` tall, that
 * keeps `selected` in view while moving as little as possible from `previous`.
 * Lists call it during render and remember the result for the next one.
 */
export function windowStart(previous: number, selected: number, height: number, count: number): number {
  let start = previous;
  if (selected < start) start = selected;
  else if (selected >= start + height) start = selected - height + 1;
  return Math.max(0, Math.min(start, count - height));
}

/** windowStart over items of different heights (multi-line form fields): the first item shown within `height` lines. */
export function sizedWindowStart(previous: number, selected: number, heights: readonly number[], height: number): number {
  let start = Math.max(0, Math.min(previous, selected));
  const span = (from: number) => heights.slice(from, selected + 1).reduce((n, h) => n + h, 0);
  while (start < selected && span(start) > height) start++;
  // Pull earlier items into view when there is room below (the list got shorter).
  while (start > 0 && heights.slice(start - 1).reduce((n, h) => n + h, 0) <= height) start--;
  return start;
}

export const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));
