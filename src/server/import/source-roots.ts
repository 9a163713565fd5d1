/** The roots an import reads, checked the same way for `vmtui import` and POST /__control/import. */

function root(flag: string, value: string): string | { problem: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: `${flag} must be a URL like https://host/v4, not "${value.slice(0, 200)}"` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `${flag} must be an http or https URL, not "${value.slice(0, 200)}"` };
  if (url.username || url.password || url.search || url.hash) return { problem: `${flag} must be a plain root URL, without credentials, query or fragment` };
  return value.replace(/\/+$/, '');
}

/** The base root given, and the beta root derived as the app does (or given), on the same host: the token goes there only. */
export function sourceRoots(from: string, betaUrl: string | undefined, flags = { from: '--from', beta: '--beta-url' }): { base: string; beta: string } | { problem: string; field: 'from' | 'beta' } {
  const base = root(flags.from, from);
  if (typeof base !== 'string') return { ...base, field: 'from' };
  if (!/\/v4$/.test(base)) return { problem: `${flags.from} must be the API's base root, ending in /v4, not "${from.slice(0, 200)}"`, field: 'from' };
  const beta = root(flags.beta, betaUrl ?? base.replace(/\/v4$/, '/v4beta'));
  if (typeof beta !== 'string') return { ...beta, field: 'beta' };
  if (new URL(beta).origin !== new URL(base).origin) return { problem: `${flags.beta} must be on the same host as ${flags.from}: the import sends the token to these roots only`, field: 'beta' };
  return { base, beta };
}
