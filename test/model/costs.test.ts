import { describe, expect, it } from 'vitest';
import { additionText, costReport, typeMap } from '../../src/model/costs.js';
import { hourlyText } from '../../src/model/prices.js';

const types = typeMap([
  { id: 'small', price: { monthly: 5, hourly: 0.0075 }, addons: { backups: { price: { monthly: 2, hourly: 0.003 } } } },
  { id: 'big', price: { monthly: 24, hourly: 0.036 } },
]);
const vm = (type: string, region: string, tags: string[], backups = false) => ({ type, region, tags, backups: { enabled: backups } });

describe('costs', () => {
  const vms = [vm('small', 'us-east', ['web', 'prod'], true), vm('big', 'eu-west', ['web']), vm('gone', 'us-east', [])];

  it('totals each priced instance once, its backups add-on with it; a type without a price is a line of its own', () => {
    const r = costReport(vms, types, 'type');
    expect(r.total).toEqual({ monthly: 31, hourly: 0.0465 });
    expect(r.lines.map((l) => [l.group, l.items, l.price?.monthly])).toEqual([
      ['big', 1, 24],
      ['small', 1, 7],
      ['type gone', 1, undefined],
    ]);
  });

  it('by tag counts an instance in each of its tags, the total still once; no tag is a group', () => {
    const r = costReport([...vms, vm('big', 'us-east', [])], types, 'tag');
    expect(Object.fromEntries(r.lines.map((l) => [l.group, l.price?.monthly]))).toEqual({ web: 31, prod: 7, '(no tag)': 24, 'type gone': undefined });
    expect(r.total.monthly).toBe(55);
  });

  it('says what an action adds, summed, or that it cannot', () => {
    expect(additionText(types, [{ type: 'big', region: 'us-east', instance: true, backups: false }])).toBe('This adds $24.00/month, $0.036/hour.');
    expect(additionText(types, [{ type: 'small', region: 'x', instance: false, backups: true }, { type: 'small', region: 'x', instance: true, backups: true }])).toBe(
      'This adds $9.00/month, $0.0135/hour for the 2.',
    );
    expect(additionText(types, [{ type: 'big', region: 'x', instance: false, backups: true }])).toBe('Cost not known: the API publishes no price for big backups.');
  });

  it('writes an hour with three decimals, four where the price has them', () => {
    expect(hourlyText(0.036)).toBe('$0.036');
    expect(hourlyText(0.0075)).toBe('$0.0075');
  });
});
