import type { Method } from './client.js';

/** A word the shell takes as is; anything else goes in single quotes. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

export interface CurlRequest {
  method: Method;
  url: string;
  /** Header names as sent; `authorization` is always written as "Bearer $VM_TOKEN", never its value. */
  headers?: Readonly<Record<string, string>>;
  /** The JSON text sent, if any. */
  body?: string;
  /**
   * Shell variables that stand in the body for secrets, written there as the
   * JSON strings "$NAME" (the request log's masked fields): the line leaves
   * them to the shell, as it does the token.
   */
  variables?: readonly string[];
}

/** The body as one shell word: quoted as is, but each "$NAME" of `variables` left for the shell to expand. */
function bodyWord(body: string, variables: readonly string[]): string {
  const names = variables.filter((v) => /^[A-Z_][A-Z0-9_]*$/.test(v));
  if (names.length === 0) return shellWord(body);
  // split() with a capturing group alternates text and names: [text, name, text, …].
  const parts = body.split(new RegExp(`(?<=")\\$(${names.join('|')})(?=")`));
  return parts.map((part, i) => (i % 2 === 1 ? `"$${part}"` : part === '' ? '' : shellWord(part))).join('');
}

/**
 * The request as a curl command line someone can paste: the token comes from
 * $VM_TOKEN (in double quotes so the shell expands it), so a copied command
 * never carries it.
 */
export function curlCommand(req: CurlRequest): string {
  const parts = ['curl', '-sS'];
  if (req.method !== 'GET') parts.push('-X', req.method);
  parts.push('-H', '"Authorization: Bearer $VM_TOKEN"');
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    const lower = name.toLowerCase();
    if (lower === 'authorization' || lower === 'accept' || lower === 'content-type') continue;
    parts.push('-H', shellWord(`${name}: ${value}`));
  }
  if (req.body !== undefined) parts.push('-H', shellWord('Content-Type: application/json'), '--data-raw', bodyWord(req.body, req.variables ?? []));
  parts.push(shellWord(req.url));
  return parts.join(' ');
}
