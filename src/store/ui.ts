import { createStore } from 'zustand/vanilla';
import type { LayerInfo } from '../app/key-router.js';

export interface UiState {
  rows: number;
  cols: number;
  help: boolean;
  /** The `:` command line; null when closed. `base` is what Tab cycles completions of. */
  command: { text: string; cursor: number; base: string | null; cycle: number } | null;
  /** Key layers, topmost first, for the footer and help. */
  layers: LayerInfo[];
  resize(rows: number, cols: number): void;
}

/** Terminal size and the app-wide overlays, so a resize re-renders the frame. */
export function createUiStore(rows: number, cols: number) {
  return createStore<UiState>()((set) => ({
    rows,
    cols,
    help: false,
    command: null,
    layers: [],
    resize: (r, c) => set({ rows: r, cols: c }),
  }));
}

export type UiStore = ReturnType<typeof createUiStore>;
