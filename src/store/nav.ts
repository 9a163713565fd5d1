import { createStore } from 'zustand/vanilla';

export type Params = Record<string, string>;

export interface NavEntry {
  /** Unique per push: view state and cached selections hang off it. */
  key: number;
  screen: string;
  params: Params;
  /** The item drilled into from the parent, for the breadcrumbs. */
  label?: string;
}

export interface NavState {
  stack: NavEntry[];
  push(screen: string, params?: Params, label?: string): void;
  /** Back one level; false at the root. */
  pop(): boolean;
  /**
   * Jump to a top-level screen (`:`, `!`): pushed, so Esc returns to the view
   * the jump was made from (k9s keeps such a history). A screen already on the
   * path is gone back to rather than stacked again, and the root clears it.
   */
  jump(screen: string): void;
}

/** The drill-down path; the breadcrumbs are this stack. */
export function createNavStore(root: string) {
  let next = 1;
  return createStore<NavState>()((set, get) => ({
    stack: [{ key: 0, screen: root, params: {} }],
    push: (screen, params = {}, label) => set({ stack: [...get().stack, { key: next++, screen, params, label }] }),
    pop: () => {
      const { stack } = get();
      if (stack.length <= 1) return false;
      set({ stack: stack.slice(0, -1) });
      return true;
    },
    jump: (screen) => {
      const { stack } = get();
      const at = stack.findIndex((e) => e.screen === screen && Object.keys(e.params).length === 0);
      set({ stack: at >= 0 ? stack.slice(0, at + 1) : [...stack, { key: next++, screen, params: {} }] });
    },
  }));
}

export type NavStore = ReturnType<typeof createNavStore>;
