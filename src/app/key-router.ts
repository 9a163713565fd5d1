import type { CommandId, ExtensionCommand } from './keymap.js';
import type { KeyEvent } from './keys.js';

export type Modal = false | 'screen' | 'full';

/** What the footer and help know about a layer of key handling. */
export interface LayerInfo {
  id: number;
  priority: number;
  /** Heading in the help overlay. */
  title: string;
  /** Commands this layer handles right now, in keymap order of the caller. */
  commands: CommandId[];
  /** Commands shown dimmed with a note (e.g. a scope the token lacks). */
  marks: Partial<Record<CommandId, string>>;
  /** Lines under a command in help: which of its keys does what here. */
  details?: Partial<Record<CommandId, { keys: string; help: string }[]>>;
  /** The config file's commands (plugins) this layer binds, after its own. */
  extensions: readonly Omit<ExtensionCommand, 'run'>[];
  /**
   * Keys this layer leaves: false passes them down; 'screen' passes them only
   * to the global keys (a detail view over a list); 'full' swallows them
   * (dialogs, forms).
   */
  modal: Modal;
}

/** How a key was taken: by a command (which may open a view), as text (typing, or swallowed by a dialog), or not at all. */
export type Handled = 'command' | 'text' | false;

export interface Layer extends LayerInfo {
  handle(ev: KeyEvent): Handled;
}

/**
 * Routes each keypress to the topmost layer (highest priority, then latest)
 * that handles it. Overlays sit above screens, screens above the global keys.
 */
export class KeyRouter {
  private layers: (Layer & { seq: number })[] = [];
  private seq = 0;
  private nextId = 1;

  constructor(private readonly onChange: (layers: LayerInfo[]) => void = () => {}) {}

  add(layer: Omit<Layer, 'id'>): () => void {
    const entry = { ...layer, id: this.nextId++, seq: this.seq++ };
    this.layers.push(entry);
    this.layers.sort((a, b) => b.priority - a.priority || b.seq - a.seq);
    this.publish();
    return () => {
      this.layers = this.layers.filter((l) => l !== entry);
      this.publish();
    };
  }

  dispatch(ev: KeyEvent): Handled {
    let globalOnly = false;
    for (const layer of [...this.layers]) {
      if (globalOnly && layer.priority !== PRIORITY.global) continue;
      const handled = layer.handle(ev);
      if (handled) return handled;
      if (layer.modal === 'full') return 'text';
      if (layer.modal === 'screen') globalOnly = true;
    }
    return false;
  }

  private publish() {
    this.onChange(this.layers.map(({ id, priority, title, commands, marks, details, extensions, modal }) => ({ id, priority, title, commands, marks, details, extensions, modal })));
  }
}

/** Layer priorities: higher gets keys first. */
export const PRIORITY = {
  global: 0,
  screen: 10,
  view: 20,
  dialog: 30,
  nested: 40,
  app: 50,
} as const;
