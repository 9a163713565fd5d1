import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listQuery, type ScreenDef } from '../../src/app/screen.js';
import { cellText } from '../../src/components/table-layout.js';
import { auditList } from '../../src/screens/audit/audit-list.js';
import { queryKey } from '../../src/store/data.js';
import type { RunningService } from '../../src/server/service.js';
import { renderApp, wait } from '../helpers/ink.js';
import { startTestService } from '../helpers/service.js';

/** Lists with no column that names a row: a summary's one line, a total. */
const NO_IDENTIFIER = new Set(['obj-account', 'costs']);
/** Lists whose rows may be alike in every column: the same action on the same item in the same minute. */
const MAY_REPEAT = new Set(['events']);

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A cell's text whole in a line, not inside a longer word (web-1 is not in web-10). */
const holds = (line: string, text: string) => new RegExp(`(^|\\s)${escape(text)}(\\s|$)`).test(line);

let svc: RunningService;
beforeAll(async () => {
  svc = await startTestService({ seed: 'demo' });
});
afterAll(() => svc.close());

describe('every list at 80×24', () => {
  it('shows each row by its identifiers whole (labels, types, addresses), and tells every row apart', { timeout: 180_000 }, async () => {
    const r = renderApp({ svc, rows: 24, cols: 80 });
    await wait(r, 'Instances');
    const lists = [...r.ctx.screens.all.filter((d) => !d.params?.length && d.list), auditList] as ScreenDef[];
    const problems: string[] = [];
    for (const def of lists) {
      const columns = def.list!.columns;
      const ids = columns.filter((c) => c.identifier);
      if (NO_IDENTIFIER.has(def.id)) continue;
      if (ids.length === 0) {
        problems.push(`${def.id}: no column marked as the rows' identifier`);
        continue;
      }
      r.ctx.nav.getState().jump(def.id);
      const frame = await wait(r, (f) => f.split('\n')[1]!.endsWith(def.title.toLowerCase()) && /^› /m.test(f));
      const rows = r.ctx.data.getState().lists[queryKey(listQuery(def.list!, {}, r.ctx.data))]!.rows;
      const lines = frame.split('\n');
      const header = lines.findIndex((l) => l.startsWith('  ') && columns.some((c) => l.includes(c.title)));
      const table = lines.slice(header + 1, -2).filter((l) => /^[›\s] /.test(l) && l.trim() !== '');
      for (const line of table) {
        const matching = rows.filter((row) => ids.every((c) => holds(line.slice(2), cellText(c, row))));
        if (matching.length === 0) problems.push(`${def.id}: no row's identifiers are whole in "${line}"`);
        else if (matching.length > 1 && !MAY_REPEAT.has(def.id) && new Set(table).size !== table.length) problems.push(`${def.id}: rows alike in "${line}"`);
      }
      if (!MAY_REPEAT.has(def.id) && new Set(table.map((l) => l.slice(2))).size !== table.length) problems.push(`${def.id}: two rows read the same`);
      for (const line of lines) if (line.length > 80) problems.push(`${def.id}: a line wider than 80: "${line}"`);
    }
    expect(problems).toEqual([]);
  });
});
