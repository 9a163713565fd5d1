import { describe, expect, it } from 'vitest';
import { dateSort, dateText, dateTimeText } from '../../src/components/dates.js';

describe('timestamps as the screens write them', () => {
  it('to the minute or the day, with the empty text a column asks for', () => {
    expect(dateTimeText('2024-02-05T09:30:59')).toBe('2024-02-05 09:30');
    expect(dateText('2024-02-05T09:30:59')).toBe('2024-02-05');
    expect(dateTimeText(null)).toBe('');
    expect(dateTimeText(undefined, '—')).toBe('—');
    expect(dateText('', 'never')).toBe('never');
  });

  it('sorts as text, absent first', () => {
    expect(['2024-03-01T00:00:00', null, '2023-12-31T23:59:59'].map(dateSort).sort()).toEqual(['', '2023-12-31T23:59:59', '2024-03-01T00:00:00']);
  });
});
