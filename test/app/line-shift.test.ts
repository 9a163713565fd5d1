import { describe, expect, it } from 'vitest';
import { cheapestShift, shifted } from '../../src/app/line-shift.js';

// Header, column titles, ten items from `first` (the selection marked), a footer: as the list screens draw.
const frame = (first: number, at: number, edit: Record<number, string> = {}) => [
  'vmtui  demo',
  `instances ${at + 1} of 60`,
  '  Label     Status',
  ...Array.from({ length: 10 }, (_, k) => first + k).map((i) => edit[i] ?? `${i === at ? '›' : ' '} web-${String(i).padStart(4, '0')}   running   us-east   g6-standard-2`),
  '? help',
];
const cost = (lines: string[]) => (row: number) => 8 + (lines[row] ?? '').length;
const OVERHEAD = () => 12;
const find = (before: string[], after: string[], height = 16) => cheapestShift(before, after, height, cost(after), OVERHEAD);

describe('the shift that turns one frame into the next most cheaply', () => {
  it('is the band of list rows, moved up when the list scrolled down and down when it scrolled up; the header and footer stay', () => {
    // Selection on the last row, Down: the items move up a row, the new one comes in at the bottom.
    const down = find(frame(0, 9), frame(1, 10));
    expect(down).toEqual({ top: 3, bottom: 11, by: 1 });
    // After it only the row that came into view and the selection's are wrong.
    const moved = shifted(frame(0, 9), 16, down!);
    expect(moved.map((line, row) => line !== (frame(1, 10)[row] ?? '')).flatMap((wrong, row) => (wrong ? [row] : []))).toEqual([1, 11, 12]);
    expect(find(frame(5, 5), frame(4, 4))).toEqual({ top: 4, bottom: 12, by: -1 });
    expect(find(frame(0, 0), frame(3, 3))).toMatchObject({ by: 3 });
  });

  it('still scrolls when a line inside the band changed too, and draws that line', () => {
    const after = frame(1, 10, { 5: '  web-0005   deleting   us-east   g6-standard-2' });
    const shift = find(frame(0, 9), after)!;
    expect(shift.by).toBe(1);
    expect(shifted(frame(0, 9), 16, shift)[7]).not.toBe(after[7]);
  });

  it('is none when nothing moved, when too little moved to pay for the scroll, or when the rows are new (a page, a resize drawn whole)', () => {
    expect(find(frame(0, 3), frame(0, 4))).toBeUndefined();
    expect(find(frame(0, 9), frame(10, 19))).toBeUndefined();
    expect(find([], frame(0, 0))).toBeUndefined();
    // One line moved among ten new ones: scrolling it costs more than it saves.
    expect(cheapestShift(['a', 'bb'], ['bb', 'c'], 2, () => 10, () => 12)).toBeUndefined();
  });
});
