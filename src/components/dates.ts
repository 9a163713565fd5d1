/** How every screen writes the API's timestamps (UTC, ISO 8601). */

/** To the minute: 2024-02-05 09:30; `empty` when there is none. */
export const dateTimeText = (iso: string | null | undefined, empty = '') => (iso ? iso.slice(0, 16).replace('T', ' ') : empty);

/** Just the day, for narrow columns: 2024-02-05; `empty` when there is none. */
export const dateText = (iso: string | null | undefined, empty = '') => (iso ? iso.slice(0, 10) : empty);

/** Sort key for timestamps: they sort as text. */
export const dateSort = (iso: string | null | undefined) => iso ?? '';
