import { Text } from '../Text.js';
import type { DetailSpec, ScreenCtx } from '../../app/screen.js';
import { createdShape, flawOf, itemShape } from '../../model/response.js';
import { DetailView } from '../DetailView.js';
import { JsonView } from '../JsonView.js';
import { Spinner } from '../Spinner.js';
import { useRecord, type RecordSource } from './use-record.js';

interface Props<R> {
  kind: 'detail' | 'json';
  title: string;
  row: R;
  detail?: DetailSpec<R>;
  /** The list the row is from: d reads the row again from its own endpoint. */
  source?: RecordSource;
  ctx: ScreenCtx;
  width: number;
  height: number;
  onClose: () => void;
  /** Y over the record: the copy menu. */
  onCopy?: () => void;
}

/** d and y of a list: the record as sections, or as raw JSON; for a row the client could not read, what the server sent and why. */
export function RecordView<R>(p: Props<R>) {
  const flaw = flawOf(p.row);
  if (flaw) return <JsonView title={`Unreadable item: ${flaw.reason}`} value={flaw.raw ?? null} width={p.width} height={p.height} onClose={p.onClose} />;
  return <FetchedRecord {...p} />;
}

function FetchedRecord<R>({ kind, title, row, detail, source, ctx, width, height, onClose, onCopy }: Props<R>) {
  const { record, error } = useRecord(row, detail, ctx, kind === 'detail' ? source : undefined);
  if (error) return <Text color="red" wrap="wrap">{`Could not load ${title}: ${error}`}</Text>;
  if (record === undefined) return <Spinner label={`loading ${title}…`} />;
  if (kind === 'json') return <JsonView title={`${title} · JSON`} value={record} width={width} height={height} onClose={onClose} onCopy={onCopy} />;
  return <DetailView title={title} record={record} sections={detail?.sections} schema={schemaOf(detail, source)} width={width} height={height} onClose={onClose} onCopy={onCopy} />;
}

/** The resource a detail shows: its own spec's, else an item of the list at the path (a backup of the backups), else the one record there. */
function schemaOf<R>(detail: DetailSpec<R> | undefined, source: RecordSource | undefined) {
  if (detail?.schema !== undefined) return detail.schema || undefined;
  return source && (createdShape(source.path) ?? itemShape(source.path))?.schema;
}
