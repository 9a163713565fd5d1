import { Text } from 'ink';
import type { DetailSpec, ScreenCtx } from '../../app/screen.js';
import { DetailView } from '../DetailView.js';
import { JsonView } from '../JsonView.js';
import { Spinner } from '../Spinner.js';
import { useRecord } from './use-record.js';

interface Props<R> {
  kind: 'detail' | 'json';
  title: string;
  row: R;
  detail?: DetailSpec<R>;
  ctx: ScreenCtx;
  width: number;
  height: number;
  onClose: () => void;
}

/** d and y of a list: the record as sections, or as raw JSON. */
export function RecordView<R>({ kind, title, row, detail, ctx, width, height, onClose }: Props<R>) {
  const { record, error } = useRecord(row, detail, ctx);
  if (error) return <Text color="red">{`Could not load ${title}: ${error}`}</Text>;
  if (record === undefined) return <Spinner label={`loading ${title}…`} />;
  if (kind === 'json') return <JsonView title={`${title} · JSON`} value={record} width={width} height={height} onClose={onClose} />;
  return <DetailView title={title} record={record} sections={detail?.sections} width={width} height={height} onClose={onClose} />;
}
