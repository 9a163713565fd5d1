import { createStore } from 'zustand/vanilla';
import type { LayerInfo } from '../app/key-router.js';

export interface UiState {
  rows: number;
  cols: number;
  help: boolean;
  /**
   * The `:` command line; null when closed. `base` is what Tab cycles
   * completions of; `recalled` is how far back ↑ went in the history.
   */
  command: { text: string; cursor: number; base: string | null; cycle: number; recalled?: number } | null;
  /** Commands that jumped, oldest first, without repeats in a row. */
  history: string[];
  remember(command: string): void;
  /** Key layers, topmost first, for the footer and help. */
  layers: LayerInfo[];
  resize(rows: number, cols: number): void;
}

const HISTORY_SIZE = 50;

/** Terminal size and the app-wide overlays, so a resize re-renders the frame. */
export function createUiStore(rows: number, cols: number) {
  return createStore<UiState>()((set) => ({
    rows,
    cols,
    help: false,
    command: null,
    history: [],
    remember: (command) =>
      set((s) => ({ history: s.history.at(-1) === command ? s.history : [...s.history, command].slice(-HISTORY_SIZE) })),
    layers: [],
    resize: (r, c) => set({ rows: r, cols: c }),
  }));
}

export type UiStore = ReturnType<typeof createUiStore>;
