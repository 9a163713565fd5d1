import { describe, expect, it } from 'vitest';
import { buildFields, crossFieldErrors, initialValues } from '../../src/components/form/form-state.js';
import { editTextArea, moveLine } from '../../src/components/text-edit.js';
import { sizedWindowStart } from '../../src/components/window.js';
import { ObjectUrlRequest } from '../../src/model/object-storage.js';

const key = (name: string, text = '') => ({ name, text });

describe('multi-line text editing', () => {
  it('Enter adds a line; a paste keeps its line breaks (CR LF too) and tabs', () => {
    let s = { text: '#!/bin/sh', cursor: 9 };
    s = editTextArea(s, key('return'))!;
    expect(s).toEqual({ text: '#!/bin/sh\n', cursor: 10 });
    s = editTextArea(s, key('if true; then\r\n\techo hi\r\nfi', 'if true; then\r\n\techo hi\r\nfi'))!;
    expect(s.text).toBe('#!/bin/sh\nif true; then\n\techo hi\nfi');
    expect(s.cursor).toBe(s.text.length);
  });

  it('↑ and ↓ keep the column where they can, and give up at the first and last line', () => {
    const s = { text: 'abcdef\nab\nabcdef', cursor: 5 };
    const down = moveLine(s, 1)!;
    expect(down.cursor).toBe(9);
    expect(moveLine(down, 1)!.cursor).toBe(12);
    expect(moveLine(s, -1)).toBeNull();
    expect(editTextArea({ text: 'one\ntwo', cursor: 5 }, key('down'))).toBeNull();
  });

  it('Home, End and Ctrl-U act on the current line only', () => {
    const s = { text: 'first\nsecond\nthird', cursor: 9 };
    expect(editTextArea(s, key('home'))!.cursor).toBe(6);
    expect(editTextArea(s, key('end'))!.cursor).toBe(12);
    expect(editTextArea(s, key('ctrl+u'))).toEqual({ text: 'first\nond\nthird', cursor: 6 });
    expect(editTextArea(s, key('ctrl+k'))).toEqual({ text: 'first\nsec\nthird', cursor: 9 });
  });
});

describe('a window over items of different heights', () => {
  it('keeps the selected item in view, moving as little as possible', () => {
    const heights = [1, 1, 10, 1, 1];
    expect(sizedWindowStart(0, 2, heights, 12)).toBe(0);
    expect(sizedWindowStart(0, 4, heights, 12)).toBe(2);
    expect(sizedWindowStart(2, 3, heights, 12)).toBe(2);
    expect(sizedWindowStart(3, 0, heights, 12)).toBe(0);
  });
});

describe('cross-field rules as the user types', () => {
  it('names the content type once the method needs one, and not before', () => {
    const fields = buildFields({ schema: ObjectUrlRequest, fields: ['name', 'method', 'content_type'], submit: async () => undefined }, 'create');
    const initial = initialValues(fields, { name: 'a.txt', method: 'GET' });
    expect(crossFieldErrors(ObjectUrlRequest, fields, initial, initial, 'create')).toEqual({});
    const put = { ...initial, method: 'PUT' };
    expect(crossFieldErrors(ObjectUrlRequest, fields, put, initial, 'create')).toEqual({ content_type: 'Content type is required for PUT' });
    expect(crossFieldErrors(ObjectUrlRequest, fields, { ...put, content_type: 'text/plain' }, initial, 'create')).toEqual({});
  });
});
