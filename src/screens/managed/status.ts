import type { ServiceStatus } from '../../model/managed.js';

/** How a service status looks everywhere in the area: a glyph (readable without color), a color, and bold for trouble. */
export interface StatusLook {
  text: string;
  color?: string;
  bold: boolean;
  dim: boolean;
}

const LOOKS: Record<ServiceStatus, StatusLook> = {
  ok: { text: '● ok', color: 'green', bold: false, dim: false },
  pending: { text: '◌ pending', color: 'yellow', bold: false, dim: false },
  problem: { text: '✗ PROBLEM', color: 'red', bold: true, dim: false },
  disabled: { text: '○ disabled', color: undefined, bold: false, dim: true },
};

export const statusLook = (status: string): StatusLook => LOOKS[status as ServiceStatus] ?? { text: status, bold: false, dim: false };

export const statusColor = (status: string) => LOOKS[status as ServiceStatus]?.color;
