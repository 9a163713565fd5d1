import type { ScreenCtx } from '../../app/screen.js';
import { plural } from '../../model/plural.js';
import type { Overlay } from '../../store/views.js';
import { ConfirmDialog } from '../ConfirmDialog.js';
import { Menu } from '../Menu.js';
import { Form } from '../form/Form.js';
import { BulkProgress } from './BulkProgress.js';
import { confirmText, planBulk, type BulkOp } from './bulk-ops.js';
import { useAddedCost } from '../use-added-cost.js';

type BulkOverlayKind = Extract<Overlay, { kind: 'bulk-menu' | 'bulk-form' | 'bulk-confirm' | 'bulk-run' }>;

export const isBulkOverlay = (o: Overlay | null): o is BulkOverlayKind => o !== null && o.kind.startsWith('bulk-');

interface Props<R> {
  overlay: BulkOverlayKind;
  ops: BulkOp<R>[];
  /** The marked rows, in the order the list shows them. */
  marked: readonly R[];
  label: (row: R) => string;
  ctx: ScreenCtx;
  choose: (op: BulkOp<R>) => void;
  /** A bulk form was filled: ask next. */
  filled: (op: BulkOp<R>, body: Record<string, unknown>) => void;
  start: (op: BulkOp<R>, body?: Record<string, unknown>) => void;
  stop: () => void;
  close: () => void;
  width: number;
  height: number;
}

const dialogWidth = (width: number) => Math.min(width, 72);

/** What a list shows over itself while acting on its marked items: the menu, a form, the confirm, the progress. */
export function BulkOverlay<R>(p: Props<R>) {
  const { overlay, ops, marked, width, height, close } = p;
  const items = plural(marked.length, 'marked item');
  if (overlay.kind === 'bulk-run') {
    return <BulkProgress verb={overlay.verb} total={overlay.total} done={overlay.done} failed={overlay.failed} stopping={overlay.stopping} onStop={p.stop} width={dialogWidth(width)} />;
  }
  if (overlay.kind === 'bulk-menu') {
    const plans = ops.map((op) => planBulk(op, marked));
    return (
      <Menu
        title={`Actions: ${items}`}
        items={ops.map((op, i) => {
          const go = plans[i]!.go.length;
          return { id: op.id, key: op.key, label: go < marked.length && go > 0 ? `${op.label} (${go} of ${marked.length})` : op.label, note: go === 0 ? 'applies to none of them' : undefined };
        })}
        onSelect={(item) => p.choose(ops.find((op) => op.id === item.id)!)}
        onClose={close}
        width={dialogWidth(width)}
        height={height}
      />
    );
  }
  const op = ops.find((o) => o.id === overlay.action);
  if (!op) return null;
  if (overlay.kind === 'bulk-form') {
    const form = op.form!;
    return (
      <Form
        title={`${op.label}: ${items}`}
        spec={form}
        mode={form.mode ?? 'create'}
        record={form.initial?.(undefined, p.ctx.params)}
        onSubmit={async (body) => p.filled(op, body)}
        onCancel={close}
        scope={{ params: p.ctx.params }}
        width={width}
        height={height}
      />
    );
  }
  return <BulkConfirm {...p} op={op} />;
}

/** The one confirm for the marked items; what they add to the bill, summed, under the list. */
function BulkConfirm<R>(p: Props<R> & { op: BulkOp<R> }) {
  const { op, marked, width, height, close, overlay } = p;
  const plan = planBulk(op, marked);
  const cost = useAddedCost(op.adds && plan.go.flatMap((r) => op.adds!(r) ?? []));
  const body = 'body' in overlay ? overlay.body : undefined;
  return (
    <ConfirmDialog
      title={`${op.label}: ${plural(plan.go.length, 'item')}`}
      message={cost ? `${confirmText(op, plan, p.label)}\n${cost}` : confirmText(op, plan, p.label)}
      confirmLabel={op.label}
      destructive={op.destructive}
      typeToConfirm={op.irreversible ? String(plan.go.length) : undefined}
      onConfirm={() => p.start(op, body)}
      onCancel={close}
      width={dialogWidth(width)}
      height={height}
    />
  );
}
