/** Names that complete `text`: prefix matches first, then names containing it. */
export function candidates(names: readonly string[], text: string): string[] {
  const t = text.trim().toLowerCase();
  const prefix = names.filter((n) => n.startsWith(t));
  const inside = t ? names.filter((n) => !n.startsWith(t) && n.includes(t)) : [];
  return [...prefix, ...inside];
}

export function commonPrefix(names: readonly string[]): string {
  if (names.length === 0) return '';
  let p = names[0]!;
  for (const n of names) while (!n.startsWith(p)) p = p.slice(0, -1);
  return p;
}

export interface Completion {
  text: string;
  base: string | null;
  cycle: number;
}

/**
 * One press of Tab: a single candidate completes; several first extend to
 * their common prefix, then each further Tab cycles through them.
 */
export function complete(names: readonly string[], state: Completion): Completion {
  const list = candidates(names, state.base ?? state.text);
  if (list.length === 0) return state;
  if (list.length === 1) return { text: list[0]!, base: null, cycle: -1 };
  const prefix = commonPrefix(list);
  if (state.base === null && prefix.length > state.text.trim().length) return { text: prefix, base: null, cycle: -1 };
  const cycle = (state.cycle + 1) % list.length;
  return { text: list[cycle]!, base: state.base ?? state.text, cycle };
}
