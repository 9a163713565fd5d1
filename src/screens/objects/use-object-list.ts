import { useMemo } from 'react';
import { describeError } from '../../api/errors.js';
import { bucketPath, listObjects, type ObjectEntry } from '../../api/object-storage.js';
import { useApp } from '../../app/context.js';
import { useLocalStore } from '../../app/use-local-store.js';
import { useListData } from '../../components/list/use-list-data.js';
import { queryKey, type ListEntry, type ListQuery } from '../../store/data.js';

const DELIMITER = '/';

/** Where a listing is: a folder of a bucket, or (flat) every name under a prefix without folders. */
export interface Place {
  cluster: string;
  bucket: string;
  prefix: string;
  flat: boolean;
}

export interface ObjectList {
  query: ListQuery;
  entry: ListEntry | undefined;
  /** The server has entries after the last one loaded. */
  hasMore: boolean;
  loadingMore: boolean;
  /** Fetches the next page (by the last entry's next_marker) and appends it. */
  more(): void;
}

const truncated = (rows: readonly unknown[] | undefined) => (rows?.[rows.length - 1] as ObjectEntry | undefined)?.is_truncated === true;

/**
 * One folder (prefix) of a bucket, paged by marker. The pages loaded so far
 * live in the list cache under the folder's path, so leaving a subfolder
 * returns to them; a refresh reloads as many entries as were loaded, so the
 * background refresh never takes pages away.
 */
export function useObjectList({ cluster, bucket, prefix, flat }: Place): ObjectList {
  const { client, data, session } = useApp();
  const delimiter = flat ? '' : DELIMITER;
  const query = useMemo<ListQuery>(() => {
    const path = `${bucketPath(cluster, bucket)}/object-list/${prefix}${flat ? ' (flat)' : ''}`;
    const key = queryKey({ path });
    return {
      path,
      load: async (c) => {
        // As many as are shown, read each round: a page appended meanwhile (m) is fetched too.
        const want = () => data.getState().lists[key]?.rows.length ?? 0;
        const rows: ObjectEntry[] = [];
        let marker: string | undefined;
        do {
          const page = await listObjects(c, cluster, bucket, { prefix, delimiter, marker });
          rows.push(...page.entries);
          marker = page.nextMarker ?? undefined;
        } while (marker && rows.length < want());
        return rows;
      },
    };
  }, [cluster, bucket, prefix, flat, delimiter, data]);
  const entry = useListData(query);
  const [{ loadingMore }, local] = useLocalStore(() => ({ loadingMore: false }));

  const more = () => {
    const rows = data.getState().lists[queryKey(query)]?.rows as ObjectEntry[] | undefined;
    const last = rows?.[rows.length - 1];
    if (!last?.is_truncated || local.getState().loadingMore) return;
    local.setState({ loadingMore: true });
    listObjects(client, cluster, bucket, { prefix, delimiter, marker: last.next_marker ?? last.name }).then(
      (page) => {
        local.setState({ loadingMore: false });
        // A refresh may have replaced the rows meanwhile: append only to the listing this page continues.
        const now = data.getState().lists[queryKey(query)]?.rows as ObjectEntry[] | undefined;
        if (now?.[now.length - 1]?.name === last.name) data.getState().put(query, [...now, ...page.entries]);
      },
      (err: unknown) => {
        local.setState({ loadingMore: false });
        session.getState().notify(`Could not load more of ${bucket}/${prefix}: ${describeError(err)}`, 'error');
      },
    );
  };

  return { query, entry, hasMore: truncated(entry?.rows), loadingMore, more };
}
