import { useLayoutEffect, useRef } from 'react';
import { KEYMAP, commandsForKey, type CommandId, type ExtensionCommand } from './keymap.js';
import type { KeyEvent } from './keys.js';
import { useApp } from './context.js';
import type { LayerInfo, Modal } from './key-router.js';

/** A handler per command (given the key, for commands of many keys); a falsy entry means "not available here" (not shown, key not taken). */
export type CommandHandlers = Partial<Record<CommandId, ((ev: KeyEvent) => void) | false | null | undefined>>;

const ORDER = Object.keys(KEYMAP) as CommandId[];

export interface LayerOptions {
  priority: number;
  title: string;
  active?: boolean;
  /** What happens to keys this layer does not handle; see Modal. */
  modal?: Modal;
  /** Sees each key before the commands do (a focused text field takes ←, →, space); true when handled. */
  capture?: (ev: KeyEvent) => boolean;
  /** Keys no command matched: text input and the like; true when handled. */
  fallback?: (ev: KeyEvent) => boolean;
  /** Commands shown dimmed with this note. */
  marks?: Partial<Record<CommandId, string>>;
  /** What the keys of a command of many keys do here, listed under it in help (a list's sort letters). */
  details?: LayerInfo['details'];
  /** The config file's commands (plugins) bound with this layer's; a key of the table's own commands comes first. */
  extensions?: readonly ExtensionCommand[];
}

/**
 * Binds named commands of the keymap for as long as the component is mounted.
 * Handlers should read state with store.getState(): several keys can arrive
 * before the next render, and a closure over render-time state would miss
 * the earlier ones. Registration happens in a layout effect so a layer opened
 * by one key already receives the next.
 */
export function useCommands(handlers: CommandHandlers, opts: LayerOptions): void {
  const { router, session } = useApp();
  const latest = useRef({ handlers, opts });
  latest.current = { handlers, opts };
  // Keymap order, whatever order the handlers were written in: the footer and help read the same way everywhere.
  const ids = ORDER.filter((id) => handlers[id]);
  const marks = opts.marks ?? {};
  const details = opts.details ?? {};
  const extensions = (opts.extensions ?? []).filter((e) => !(e.mutation && session.getState().readOnly));
  const signature = `${ids.join(',')}|${JSON.stringify(marks)}|${JSON.stringify(details)}|${extensions.map((e) => e.id).join(',')}`;

  useLayoutEffect(() => {
    if (opts.active === false) return;
    return router.add({
      priority: opts.priority,
      title: opts.title,
      modal: opts.modal ?? false,
      commands: ids,
      marks,
      details,
      extensions: extensions.map(({ run: _run, ...spec }) => spec),
      handle: (ev) => {
        const { handlers: hs, opts: o } = latest.current;
        if (o.capture?.(ev)) return 'text';
        for (const id of commandsForKey(ev.name)) {
          const run = hs[id];
          if (!run) continue;
          if ((KEYMAP[id] as { mutation?: boolean }).mutation && session.getState().readOnly) {
            session.getState().notify(`Read-only mode: ${KEYMAP[id].label} is disabled`, 'error');
          } else run(ev);
          return 'command';
        }
        const extension = o.extensions?.find((e) => e.keys.includes(ev.name));
        if (extension) {
          if (extension.mutation && session.getState().readOnly) session.getState().notify(`Read-only mode: ${extension.label} is disabled`, 'error');
          else extension.run();
          return 'command';
        }
        return o.fallback?.(ev) ? 'text' : false;
      },
    });
    // The signature stands for ids, marks and details, which are new objects each render.
  }, [router, session, signature, opts.active, opts.priority, opts.title, opts.modal]);
}
