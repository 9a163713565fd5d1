import { useEffect, useState } from 'react';
import { describeError } from '../../api/errors.js';
import type { DetailSpec, ScreenCtx } from '../../app/screen.js';

/** The record to show for a row: the row itself, or the full record when the detail spec fetches one. */
export function useRecord<R>(row: R, detail: DetailSpec<R> | undefined, ctx: ScreenCtx): { record?: unknown; error?: string } {
  const [fetched, setFetched] = useState<{ record?: unknown; error?: string }>({});
  const fetch = detail?.fetch;
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
  }, [fetch, row, ctx]);
  return fetch ? fetched : { record: row };
}
