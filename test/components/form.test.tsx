import { describe, expect, it, vi } from 'vitest';
import { defineResource } from '../../src/model/schema.js';
import { ApiError } from '../../src/api/errors.js';
import { Form } from '../../src/components/form/Form.js';
import { buildBody, buildFields, initialValues, mapErrors } from '../../src/components/form/form-state.js';
import type { FormSpec } from '../../src/components/form/types.js';
import { CTRL_S, DOWN, ENTER, ESC, TAB, renderWithApp, sendInputAndWait, waitForContent } from '../helpers/ink.js';

const RIGHT = '\x1b[C';
const CTRL_R = '\x12';

const Balancer = defineResource(
  'balancer',
  {
    id: { kind: 'integer', readOnly: true },
    label: { kind: 'string', minLength: 3, maxLength: 32, required: true },
    region: { kind: 'string', required: true, createOnly: true },
    client_conn_throttle: { kind: 'integer', min: 0, max: 20, title: 'Throttle' },
    mode: { kind: 'enum', values: ['accept', 'reject', 'drain'] },
    tags: { kind: 'array', items: { kind: 'string', minLength: 3 } },
    public: { kind: 'boolean' },
    password: { kind: 'string', secret: true },
    ssh: { kind: 'object', fields: { port: { kind: 'integer', min: 1, max: 65535 } } },
    notes: { kind: 'string', nullable: true },
  },
  [(body) => (body.public === true && body.password === undefined ? [{ field: 'password', reason: 'a public balancer needs a password' }] : [])],
);

const spec: FormSpec = {
  schema: Balancer,
  fields: ['label', 'region', 'client_conn_throttle', 'mode', 'tags', 'public', 'password', 'ssh.port'],
  overrides: { region: { choices: async () => [{ value: 'us-east', label: 'us-east (Newark)' }, { value: 'eu-west' }] } },
  submit: async () => undefined,
};

function form(opts: { onSubmit?: (body: Record<string, unknown>) => Promise<void>; mode?: 'create' | 'update'; record?: Record<string, unknown>; fields?: string[]; height?: number; width?: number } = {}) {
  const onSubmit = vi.fn(opts.onSubmit ?? (async () => {}));
  const onCancel = vi.fn();
  const s = opts.fields ? { ...spec, fields: opts.fields } : spec;
  const r = renderWithApp(<Form title="New balancer" spec={s} mode={opts.mode ?? 'create'} record={opts.record} onSubmit={onSubmit} onCancel={onCancel} width={opts.width ?? 100} height={opts.height ?? 16} />);
  return { ...r, onSubmit, onCancel };
}

describe('Form', () => {
  it('checks each field as the user types, with the model rules beside it', async () => {
    const f = form();
    await waitForContent(f.lastFrame, 'Label *');
    await sendInputAndWait(f.stdin, 'ab', f.lastFrame, /› Label \*.*ab.*✗ must be 3\.\.32 characters/);
    // The focused field's whole reason is on the line below the form, in the form's words.
    expect(f.lastFrame()).toMatch(/^Label must be 3\.\.32 characters$/m);
    await sendInputAndWait(f.stdin, 'c', f.lastFrame, (fr) => !fr.includes('Label must be'));
    f.stdin.write(DOWN);
    f.stdin.write(DOWN);
    await sendInputAndWait(f.stdin, 'x', f.lastFrame, '✗ must be an integer');
    f.stdin.write('\x7f');
    await sendInputAndWait(f.stdin, '25', f.lastFrame, '✗ must be between 0 and 20');
  });

  it('sends nothing while there are errors: required fields and cross-field rules show on submit', async () => {
    const f = form();
    await waitForContent(f.lastFrame, 'Label *');
    await sendInputAndWait(f.stdin, CTRL_S, f.lastFrame, /Label \*.*✗ is required/);
    expect(f.lastFrame()).toMatch(/Region \*.*✗ is required/);
    expect(f.onSubmit).not.toHaveBeenCalled();
    f.stdin.write('web');
    f.stdin.write(DOWN);
    await sendInputAndWait(f.stdin, RIGHT, f.lastFrame, '◂ us-east (Newark) ▸ 1/2');
    // public on, no password: the schema's rule, shown at the password field.
    for (let i = 0; i < 4; i++) f.stdin.write(DOWN);
    await sendInputAndWait(f.stdin, ' ', f.lastFrame, '[x] yes');
    await sendInputAndWait(f.stdin, CTRL_S, f.lastFrame, '✗ a public balancer needs a password');
    expect(f.onSubmit).not.toHaveBeenCalled();
  });

  it('builds the body: numbers, lists, nested fields; then submits', async () => {
    const f = form();
    await waitForContent(f.lastFrame, 'Label *');
    f.stdin.write('web-lb');
    f.stdin.write(TAB);
    await sendInputAndWait(f.stdin, RIGHT, f.lastFrame, 'us-east');
    f.stdin.write(TAB);
    f.stdin.write('7');
    f.stdin.write(TAB);
    await sendInputAndWait(f.stdin, RIGHT, f.lastFrame, '◂ accept ▸');
    f.stdin.write(TAB);
    f.stdin.write('web, prod,edge');
    f.stdin.write(TAB);
    f.stdin.write(TAB);
    f.stdin.write(TAB);
    await sendInputAndWait(f.stdin, '2222', f.lastFrame, '2222');
    f.stdin.write(ENTER);
    f.stdin.write(ENTER);
    await vi.waitFor(() => expect(f.onSubmit).toHaveBeenCalledOnce());
    expect(f.onSubmit.mock.calls[0]![0]).toEqual({ label: 'web-lb', region: 'us-east', client_conn_throttle: 7, mode: 'accept', tags: ['web', 'prod', 'edge'], ssh: { port: 2222 } });
  });

  it("shows the service's errors beside the fields they name, the rest for the form", async () => {
    const f = form({
      onSubmit: async () => {
        throw new ApiError('http', 'HTTP 400', 400, [
          { field: 'label', reason: 'Label must be unique' },
          { field: 'ssh.port', reason: 'Port in use' },
          { field: 'tags.1', reason: 'Tag reserved' },
          { reason: 'Account limit reached' },
        ]);
      },
      fields: ['label', 'region', 'tags', 'ssh.port'],
    });
    await waitForContent(f.lastFrame, 'Label *');
    f.stdin.write('web-lb');
    f.stdin.write(TAB);
    await sendInputAndWait(f.stdin, RIGHT, f.lastFrame, 'us-east');
    await sendInputAndWait(f.stdin, CTRL_S, f.lastFrame, /Label \*.*✗ must be unique/);
    const frame = f.lastFrame();
    // Beside its field the title is left out only where it is the subject of a verb: "Port in use" stays whole.
    expect(frame).toMatch(/Port +✗ Port in use/);
    expect(frame).toMatch(/Tags.*✗ Tag reserved/);
    expect(frame).toContain('Account limit reached');
    // Editing a field clears the service's complaint about it.
    await sendInputAndWait(f.stdin, 'x', f.lastFrame, (fr) => !fr.includes('Label must be unique'));
  });

  it('masks secrets, with Ctrl-R to reveal them', async () => {
    const f = form({ fields: ['label', 'password'] });
    await waitForContent(f.lastFrame, 'Label *');
    f.stdin.write(TAB);
    await sendInputAndWait(f.stdin, 'hunter2', f.lastFrame, '•••••••');
    expect(f.lastFrame()).not.toContain('hunter2');
    await sendInputAndWait(f.stdin, CTRL_R, f.lastFrame, 'hunter2');
  });

  it('Esc asks before discarding edits; Cancel (the default) keeps editing', async () => {
    const f = form();
    await waitForContent(f.lastFrame, 'Label *');
    f.stdin.write('web');
    await waitForContent(f.lastFrame, 'web');
    await sendInputAndWait(f.stdin, ESC, f.lastFrame, 'Discard changes?');
    await sendInputAndWait(f.stdin, ENTER, f.lastFrame, 'Label *');
    expect(f.onCancel).not.toHaveBeenCalled();
    await sendInputAndWait(f.stdin, ESC, f.lastFrame, 'Discard changes?');
    f.stdin.write(RIGHT);
    f.stdin.write(ENTER);
    await vi.waitFor(() => expect(f.onCancel).toHaveBeenCalledOnce());
  });

  it('Esc without edits cancels at once; q is typed, not quit', async () => {
    const f = form();
    await waitForContent(f.lastFrame, 'Label *');
    await sendInputAndWait(f.stdin, 'q', f.lastFrame, /Label \*\s+q/);
    expect(f.quits()).toBe(0);
    f.stdin.write('\x7f');
    await waitForContent(f.lastFrame, (fr) => !/Label \*\s+q/.test(fr));
    f.stdin.write(ESC);
    await vi.waitFor(() => expect(f.onCancel).toHaveBeenCalledOnce());
  });

  it('picks a choice from a list with Enter', async () => {
    const f = form();
    await waitForContent(f.lastFrame, 'Label *');
    f.stdin.write(DOWN);
    await sendInputAndWait(f.stdin, ENTER, f.lastFrame, 'Region: choose');
    f.stdin.write(DOWN);
    await sendInputAndWait(f.stdin, ENTER, f.lastFrame, '◂ eu-west ▸ 2/2');
  });

  it('Enter on a choice whose list is still loading opens the picker, which fills in when the list arrives', async () => {
    let arrive: (list: { value: string }[]) => void = () => {};
    const slow: FormSpec = { ...spec, overrides: { region: { choices: () => new Promise((resolve) => (arrive = resolve)) } } };
    const f = renderWithApp(<Form title="New balancer" spec={slow} mode="create" onSubmit={async () => {}} onCancel={() => {}} width={100} height={16} />);
    await waitForContent(f.lastFrame, /Region \*\s+loading choices…/);
    f.stdin.write(DOWN);
    await sendInputAndWait(f.stdin, ENTER, f.lastFrame, /Region: choose[\s\S]*loading choices…/);
    arrive([{ value: 'us-east' }, { value: 'eu-west' }]);
    await waitForContent(f.lastFrame, /› us-east[\s\S]*eu-west/);
    f.stdin.write('G');
    await sendInputAndWait(f.stdin, ENTER, f.lastFrame, '◂ eu-west ▸ 2/2');
  });

  it('update: starts from the record and sends only what changed', async () => {
    const f = form({ mode: 'update', record: { id: 3, label: 'web-lb', client_conn_throttle: 5, tags: ['a1c', 'b2d'] }, fields: ['label', 'client_conn_throttle', 'tags'] });
    await waitForContent(f.lastFrame, 'web-lb');
    expect(f.lastFrame()).toContain('a1c, b2d');
    await sendInputAndWait(f.stdin, CTRL_S, f.lastFrame, 'Nothing changed');
    f.stdin.write(TAB);
    f.stdin.write('\x7f');
    f.stdin.write('9');
    // What will change is shown under the form before anything is sent.
    const review = await waitForContent(f.lastFrame, /^Will change: Throttle: 5 → 9$/m);
    expect(review).not.toMatch(/Label:/);
    expect(f.onSubmit).not.toHaveBeenCalled();
    f.stdin.write(CTRL_S);
    await vi.waitFor(() => expect(f.onSubmit).toHaveBeenCalledOnce());
    expect(f.onSubmit.mock.calls[0]![0]).toEqual({ client_conn_throttle: 9 });
  });

  it('update: an emptied field that cannot be empty says so and sends nothing', async () => {
    const f = form({ mode: 'update', record: { id: 3, label: 'web-lb', client_conn_throttle: 5 }, fields: ['label', 'client_conn_throttle'] });
    await waitForContent(f.lastFrame, 'web-lb');
    f.stdin.write('\x15');
    await waitForContent(f.lastFrame, (fr) => !/Label \*\s+web-lb/.test(fr));
    await sendInputAndWait(f.stdin, CTRL_S, f.lastFrame, /^Label must be 3\.\.32 characters$/m);
    expect(f.onSubmit).not.toHaveBeenCalled();
    expect(f.lastFrame()).toMatch(/^Will change: Label: web-lb → \(empty\)$/m);
  });
});

describe('Form in a small terminal', () => {
  it('a form taller than its room names the fields that follow, and scrolls to them', async () => {
    const f = form({ height: 6, width: 80 });
    const first = await waitForContent(f.lastFrame, /↓ \d+ more: .*Port/);
    expect(first.split('\n').length).toBeLessThanOrEqual(6);
    for (let i = 0; i < 7; i++) f.stdin.write(DOWN);
    const last = await waitForContent(f.lastFrame, /› Port/);
    expect(last).toMatch(/↑ \d+ above/);
    expect(last).not.toContain('more:');
  });

  it('a long error is read whole: the note under the form wraps', async () => {
    const long = 'The account has reached its limit of balancers in this region; delete one or ask support to raise the limit';
    const f = form({ width: 60, onSubmit: async () => Promise.reject(new ApiError('http', 'HTTP 400', 400, [{ reason: long }])) });
    await waitForContent(f.lastFrame, 'Label *');
    f.stdin.write('web-lb');
    f.stdin.write(TAB);
    await sendInputAndWait(f.stdin, RIGHT, f.lastFrame, 'us-east');
    const frame = await sendInputAndWait(f.stdin, CTRL_S, f.lastFrame, 'raise the limit');
    expect(frame.replace(/\n/g, ' ')).toContain(long);
    // Moving on clears it.
    await sendInputAndWait(f.stdin, DOWN, f.lastFrame, (fr) => !fr.includes('raise the limit'));
  });
});

describe('form state', () => {
  it('update: an emptied optional text is sent empty', () => {
    const f = buildFields({ ...spec, fields: ['password'] }, 'update');
    expect(buildBody(f, { password: '' }, { password: 'old' }, 'update')).toEqual({ password: '' });
  });

  it('speaks the form’s field titles, not API paths', () => {
    const named = buildFields({ ...spec, fields: ['client_conn_throttle', 'ssh.port', 'label'] }, 'create');
    const mapped = mapErrors([{ field: 'client_conn_throttle', reason: 'client_conn_throttle must be an integer' }, { field: 'nowhere', reason: 'ssh.port clashes with label' }], named);
    expect(mapped.fields.client_conn_throttle).toBe('Throttle must be an integer');
    expect(mapped.form).toEqual(['nowhere: Port clashes with label']);
  });

  const fields = buildFields({ ...spec, fields: ['label', 'tags', 'public', 'ssh.port'], overrides: { public: { hidden: true, default: true } } }, 'create');

  it('takes titles, kinds and required marks from the schema', () => {
    expect(fields.map((f) => [f.name, f.title, f.kind, f.required])).toEqual([
      ['label', 'Label', 'text', true],
      ['tags', 'Tags', 'list', false],
      ['public', 'Public', 'bool', false],
      ['ssh.port', 'Port', 'number', false],
    ]);
  });

  it('sends hidden fields with a default', () => {
    const init = initialValues(fields);
    expect(buildBody(fields, { ...init, label: 'x' }, init, 'create')).toEqual({ label: 'x', public: true });
  });

  it('update: a cleared nullable field is sent as null, a cleared list as []', () => {
    const f = buildFields({ ...spec, fields: ['notes', 'tags'] }, 'update');
    const init = initialValues(f, { notes: 'n', tags: ['abc'] });
    expect(buildBody(f, { notes: '', tags: '' }, init, 'update')).toEqual({ notes: null, tags: [] });
  });

  it('create: an empty list field is left out, [] sends an empty list (clone: no configs)', () => {
    const f = buildFields({ ...spec, fields: ['label', 'tags'] }, 'create');
    const init = initialValues(f);
    expect(buildBody(f, { label: 'abc', tags: '' }, init, 'create')).toEqual({ label: 'abc' });
    expect(buildBody(f, { label: 'abc', tags: '[]' }, init, 'create')).toEqual({ label: 'abc', tags: [] });
  });

  it('a required switch is sent whatever its position; a JSON field with lines starts pretty-printed', () => {
    const schema = defineResource('allocation', { public: { kind: 'boolean', required: true }, nodes: { kind: 'array', items: { kind: 'object' } } });
    const f = buildFields({ schema, fields: ['public', 'nodes'], overrides: { public: { default: true }, nodes: { lines: 4 } }, submit: async () => undefined }, 'create');
    const init = initialValues(f, { nodes: [{ port: 80 }] });
    expect(init.nodes).toBe('[\n  {\n    "port": 80\n  }\n]');
    expect(buildBody(f, init, init, 'create')).toEqual({ public: true, nodes: [{ port: 80 }] });
  });

  it('maps dotted error paths to the field above them', () => {
    expect(mapErrors([{ field: 'ssh.port', reason: 'bad' }, { field: 'tags.0', reason: 'short' }, { field: 'other', reason: 'unknown' }], fields)).toEqual({
      fields: { 'ssh.port': 'bad', tags: 'short' },
      form: ['other: unknown'],
    });
  });
});
