import { describe, expect, it } from 'vitest';
import { backupsPrice, typePrice, type PricedType } from '../../src/model/prices.js';

// A type as today's release sends it: one region at its own price, plan and backups alike.
const type: PricedType = {
  id: 'g6-standard-2',
  price: { monthly: 24, hourly: 0.036 },
  region_prices: [{ id: 'id-cgk', monthly: 28.8, hourly: 0.043 }],
  addons: { backups: { price: { monthly: 5, hourly: 0.0075 }, region_prices: [{ id: 'id-cgk', monthly: 6, hourly: 0.009 }] } },
};

describe('a type priced in a region', () => {
  it('takes the region its own price where one is listed, the default elsewhere and on a 4.83.1 server', () => {
    expect(typePrice(type, 'id-cgk')).toEqual({ id: 'id-cgk', monthly: 28.8, hourly: 0.043 });
    expect(typePrice(type, 'us-east')).toEqual({ monthly: 24, hourly: 0.036 });
    expect(typePrice({ id: 'g6-nanode-1', price: { monthly: 5, hourly: 0.0075 } }, 'id-cgk')).toEqual({ monthly: 5, hourly: 0.0075 });
  });

  it('prices the backups add-on the same way, and none where the type publishes none', () => {
    expect(backupsPrice(type, 'id-cgk')).toMatchObject({ monthly: 6, hourly: 0.009 });
    expect(backupsPrice(type, 'us-east')).toEqual({ monthly: 5, hourly: 0.0075 });
    expect(backupsPrice({ id: 'x', price: { monthly: 1, hourly: 0.001 } }, 'us-east')).toBeUndefined();
  });
});
