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
  /** Jump to a top-level screen: the stack becomes root, screen. */
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
      const [rootEntry] = get().stack;
      set({ stack: screen === rootEntry!.screen ? [rootEntry!] : [rootEntry!, { key: next++, screen, params: {} }] });
    },
  }));
}

export type NavStore = ReturnType<typeof createNavStore>;
