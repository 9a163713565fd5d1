import { describe, expect, it } from 'vitest';
import { dataAge } from '../../src/app/use-data-age.js';

const MIN = 60_000;
const t0 = 1_700_000_000_000;

describe('the age of the data in the header', () => {
  it('says nothing while refreshes keep up, and says when that ends', () => {
    expect(dataAge(undefined, 5, t0)).toEqual({});
    expect(dataAge(t0, 5, t0 + 59_000)).toEqual({ changesAt: t0 + MIN });
    // Three intervals when they are longer than a minute.
    expect(dataAge(t0, 60, t0 + 2 * MIN)).toEqual({ changesAt: t0 + 3 * MIN });
  });

  it('counts whole minutes, then hours, then days, and says when the text next changes', () => {
    expect(dataAge(t0, 5, t0 + MIN)).toEqual({ text: '1m', changesAt: t0 + 2 * MIN });
    expect(dataAge(t0, 5, t0 + 12.5 * MIN)).toEqual({ text: '12m', changesAt: t0 + 13 * MIN });
    expect(dataAge(t0, 5, t0 + 61 * MIN)).toEqual({ text: '1h', changesAt: t0 + 120 * MIN });
    expect(dataAge(t0, 5, t0 + 50 * 60 * MIN)).toEqual({ text: '2d', changesAt: t0 + 3 * 1440 * MIN });
  });
});
