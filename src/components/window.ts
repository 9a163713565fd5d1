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

export const clamp = (n: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, n));
