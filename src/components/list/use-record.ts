import { useEffect, useState } from 'react';
import type { Root } from '../../api/client.js';
import { describeError } from '../../api/errors.js';
import type { DetailSpec, ScreenCtx } from '../../app/screen.js';
import { itemPath } from '../../model/response.js';

/** Where a list's rows come from: their own endpoint is read from there. */
export interface RecordSource {
  path: string;
  root?: Root;
}

/**
 * The record to show for a row, as it is now: the detail spec's own fetch,
 * else the row read again from its own endpoint (GET {list}/{id}) when the
 * API has one, else the row as listed.
 */
export function useRecord<R>(row: R, detail: DetailSpec<R> | undefined, ctx: ScreenCtx, source?: RecordSource): { record?: unknown; error?: string } {
  const [fetched, setFetched] = useState<{ record?: unknown; error?: string }>({});
  const own = source && itemPath(source.path, row);
  const fetch = detail?.fetch ?? (own ? () => ctx.client.get<unknown>(own, { root: source.root }) : undefined);
  const by = detail?.fetch ?? own;
  useEffect(() => {
    if (!fetch) return;
    let live = true;
    fetch(row, ctx).then(
      (record) => live && setFetched({ record }),
      (err: unknown) => live && setFetched({ error: describeError(err) }),
    );
    return () => {
      live = false;
    };
    // `by` stands for `fetch`, which is a new function each render when it reads the row's own endpoint.
  }, [by, row, ctx]);
  return fetch ? fetched : { record: row };
}
