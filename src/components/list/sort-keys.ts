import type { Column } from '../../app/screen.js';
import { KEYMAP, commandsForKey } from '../../app/keymap.js';

type Titled = readonly Pick<Column<unknown>, 'title'>[];

/**
 * The capital that sorts by each column: the first letter of its title that
 * is a sort key (the capitals other commands take, G and Y, are not) and that
 * no column before it took; none when every letter is taken. Status → S,
 * then Size → I.
 */
export function sortKeys(columns: Titled): (string | undefined)[] {
  const free = new Set<string>(KEYMAP.sortBy.keys);
  return columns.map((c) => {
    const key = [...c.title.toUpperCase()].find((ch) => free.has(ch));
    if (key) free.delete(key);
    return key;
  });
}

/** Help's lines under ⇧A-Z: which letter sorts by which column, and why a column did not get its initial. */
export function sortKeyHelp(columns: Titled, keys: readonly (string | undefined)[]): { keys: string; help: string }[] {
  return columns.flatMap((c, i) => {
    const key = keys[i];
    if (!key) return [];
    const initial = c.title[0]?.toUpperCase() ?? '';
    const holder = keys.indexOf(initial);
    const why =
      key === initial || !/[A-Z]/.test(initial)
        ? ''
        : holder >= 0
          ? ` (${initial} sorts by ${columns[holder]!.title})`
          : ` (${initial} is ${KEYMAP[commandsForKey(initial)[0]!]?.label ?? 'taken'})`;
    return [{ keys: key, help: `Sort by ${c.title}${why}` }];
  });
}
