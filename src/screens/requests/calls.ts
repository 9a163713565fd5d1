import { curlCommand } from '../../api/curl.js';
import { BODY_LIMIT, LOG_CHARS, type RequestRecord } from '../../api/request-log.js';
import type { Column } from '../../app/screen.js';
import { wrapLine } from '../../components/cells.js';

/** What a call came to, in a word: its status, or why it has none. */
export function outcome(r: RequestRecord): string {
  if (r.status !== undefined) return r.problem ? `${r.status} bad` : String(r.status);
  if (r.failure === undefined) return 'pending';
  return /timed out|no answer yet/.test(r.failure) ? 'timeout' : /Cancelled/.test(r.failure) ? 'aborted' : 'failed';
}

/** 2xx green, 3xx and 4xx yellow, 5xx, no answer and an unreadable answer red, pending grey. */
export function outcomeColor(r: RequestRecord): string {
  if (r.status === undefined) return r.failure === undefined ? 'gray' : 'red';
  if (r.problem || r.status >= 500) return 'red';
  return r.status >= 300 ? 'yellow' : 'green';
}

const clock = (ms: number) => new Date(ms).toTimeString().slice(0, 8);
export const durationText = (r: RequestRecord) => (r.duration === undefined ? '…' : r.duration < 1000 ? `${r.duration} ms` : `${(r.duration / 1000).toFixed(1)} s`);
/** The path with its query, as the server saw it; a retry says which attempt it was. */
const target = (r: RequestRecord) => {
  const url = new URL(r.url);
  return `${r.root === 'beta' ? '[beta] ' : ''}${r.path}${url.search}${r.attempt > 1 ? `  (attempt ${r.attempt})` : ''}`;
};

export const CALL_COLUMNS: Column<RequestRecord>[] = [
  { key: 'started', title: 'Time', width: 8, format: (r) => clock(r.started) },
  { key: 'method', title: 'Method', width: 6 },
  { key: 'path', title: 'Path', flex: 1, format: target },
  { key: 'status', title: 'Status', width: 7, format: outcome, color: outcomeColor },
  { key: 'duration', title: 'Took', width: 7, align: 'right', format: durationText },
];

/** Calls whose method, path, status or outcome hold every word of the filter. */
export function filterCalls(calls: readonly RequestRecord[], filter: string): RequestRecord[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return calls as RequestRecord[];
  return calls.filter((r) => {
    const text = `${r.method} ${target(r)} ${outcome(r)} ${r.failure ?? ''}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}

/** The call as a curl line, or why it cannot be one. */
export function curlOf(r: RequestRecord): { line: string; note: string } | { refused: string } {
  if (r.requestCut) return { refused: `Not copied: the body of ${r.method} ${r.path} was over ${BODY_LIMIT / 1024} KiB, and only its start is kept` };
  const line = curlCommand({ method: r.method, url: r.url, headers: r.requestHeaders, body: r.requestBody, variables: r.variables });
  const vars = ['$VM_TOKEN', ...r.variables.map((v) => `$${v}`)];
  return { line, note: `Copied ${r.method} ${r.path} as a curl line (set ${vars.join(' and ')} first)` };
}

export interface DetailLine {
  text: string;
  heading?: boolean;
  dim?: boolean;
  color?: string;
}

/** A body as lines: pretty JSON when it is JSON, else as it came; wrapped to the width, never cut. */
function bodyLines(text: string | undefined, cutShort: boolean, width: number): DetailLine[] {
  if (text === undefined || text === '') return [{ text: '(no body)', dim: true }];
  let shown = text;
  if (!cutShort) {
    try {
      shown = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Not JSON (an HTML page, a truncated answer): shown as it came, which is the point.
    }
  }
  const lines: DetailLine[] = shown.split('\n').flatMap((l) => wrapLine(l, width).map((t) => ({ text: t })));
  if (cutShort) lines.push({ text: `… cut: only the first ${BODY_LIMIT / 1024} KiB are kept`, dim: true });
  return lines;
}

const headerLines = (headers: Record<string, string> | undefined, width: number): DetailLine[] =>
  Object.entries(headers ?? {}).flatMap(([k, v]) => wrapLine(`${k}: ${v}`, width).map((text) => ({ text })));

/** Everything recorded of one call, for the details view. */
export function detailLines(r: RequestRecord, width: number): DetailLine[] {
  const w = Math.max(20, width);
  const answer: DetailLine[] =
    r.status === undefined
      ? [{ text: r.failure ?? 'pending: no answer yet', color: r.failure ? 'red' : undefined, dim: !r.failure }]
      : [
          { text: `Status: ${r.status}${r.responseBytes === undefined ? '' : `  ·  ${r.responseBytes} bytes`}`, color: outcomeColor(r) },
          ...(r.problem ? wrapLine(`The app could not use it: ${r.problem}`, w).map((text) => ({ text, color: 'red' })) : []),
          { text: 'Headers', heading: true },
          ...headerLines(r.responseHeaders, w),
          { text: 'Body', heading: true },
          ...(r.responseDropped
            ? [{ text: `(no longer kept: the log holds the newest answers' bodies, ${LOG_CHARS / 1024 / 1024} MiB in all)`, dim: true }]
            : bodyLines(r.responseBody, r.responseCut, w)),
        ];
  return [
    ...wrapLine(`${r.method} ${r.url}`, w).map((text) => ({ text })),
    ...wrapLine(`Sent ${new Date(r.started).toISOString()}  ·  took ${durationText(r)}  ·  ${r.root} root${r.attempt > 1 ? `  ·  attempt ${r.attempt} (a retry)` : ''}`, w).map((text) => ({ text, dim: true })),
    { text: 'Request headers', heading: true },
    ...headerLines(r.requestHeaders, w),
    { text: 'Request body', heading: true },
    ...bodyLines(r.requestBody, r.requestCut, w),
    ...(r.variables.length
      ? wrapLine(`Masked: ${r.variables.map((v) => `$${v}`).join(', ')} ${r.variables.length === 1 ? 'stands for the secret' : 'stand for the secrets'} sent, in a copied curl line too`, w).map((text) => ({ text, dim: true }))
      : []),
    { text: 'Response', heading: true },
    ...answer,
  ];
}
