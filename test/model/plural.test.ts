import { describe, expect, it } from 'vitest';
import { plural } from '../../src/model/plural.js';
import { checkField } from '../../src/model/schema.js';

describe('plural', () => {
  it('counts with the noun in the number it takes', () => {
    expect(plural(1, 'object')).toBe('1 object');
    expect(plural(0, 'object')).toBe('0 objects');
    expect(plural(2, 'address', 'addresses')).toBe('2 addresses');
  });

  it('reads right in the model’s own messages', () => {
    expect(checkField({ kind: 'string', minLength: 1 }, '', 'label', 'create')[0]?.reason).toBe('label must be at least 1 character');
    expect(checkField({ kind: 'array', items: { kind: 'string' }, minItems: 1 }, [], 'tags', 'create')[0]?.reason).toBe('tags must have at least 1 item');
  });
});
