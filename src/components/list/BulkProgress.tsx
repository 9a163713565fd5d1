import { Text } from '../Text.js';
import { PRIORITY } from '../../app/key-router.js';
import { useCommands } from '../../app/use-commands.js';
import { Dialog } from '../Dialog.js';

interface Props {
  verb: string;
  total: number;
  done: number;
  failed: number;
  stopping: boolean;
  onStop: () => void;
  width: number;
}

/**
 * A bulk action under way. It holds every key: nothing else may start
 * meanwhile, and Esc or Ctrl-C stop it (no more are sent; those already sent
 * are awaited and reported) instead of leaving or quitting.
 */
export function BulkProgress({ verb, total, done, failed, stopping, onStop, width }: Props) {
  useCommands({ stopBulk: !stopping && onStop }, { priority: PRIORITY.dialog, title: 'Bulk action', modal: 'full', fallback: () => true });
  return (
    <Dialog title={`${verb} ${done}/${total}…`} width={width} color={failed ? 'red' : undefined}>
      <Text wrap="truncate-end">{`${done - failed} done, ${failed} failed, ${total - done} to go`}</Text>
      <Text dimColor wrap="wrap">
        {stopping ? 'Stopping: no more are sent; waiting for the answers to those already sent…' : 'Esc or ^C stops: no more are sent; those already sent are reported.'}
      </Text>
    </Dialog>
  );
}
