import { flawOf } from '../../model/response.js';

/** How a list names a row the client could not read, in confirms and messages. */
export const UNREADABLE_LABEL = 'the unreadable item';

/** Why a key that acts on a row cannot act on this one: the client could not read it. Undefined for a readable row. */
export function unreadableRefusal(row: unknown): string | undefined {
  const flaw = flawOf(row);
  return flaw && `The server sent this item in a form the app cannot read (${flaw.reason}); d or y shows what it sent`;
}
