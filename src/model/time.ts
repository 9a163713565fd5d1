/** Timestamps as the API writes them: ISO 8601 UTC, seconds, no zone suffix. */
export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** Parses an API timestamp (with or without a trailing Z) as UTC. */
export function parseApiTime(value: string): number {
  return Date.parse(/Z$|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
}
