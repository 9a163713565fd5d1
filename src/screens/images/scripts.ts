import { defineScreen } from '../../app/screen.js';
import { STACKSCRIPTS_PATH, createStackscript, deleteStackscript, getStackscript, updateStackscript, type StackScript } from '../../api/stackscripts.js';
import type { FormSpec } from '../../components/form/types.js';
import { StackScript as StackScriptSchema, type UserDefinedField } from '../../model/stackscripts.js';
import { imageChoices } from '../instances/choices.js';
import { dateText, dateTimeText } from '../../components/dates.js';

/** One line per field the script asks for: name, prompt, and what it takes. */
function udfText(fields: UserDefinedField[]): string {
  if (fields.length === 0) return 'none: the script asks nothing';
  return fields
    .map((f) => {
      const takes = f.oneOf ? `one of ${f.oneOf}` : f.manyOf ? `any of ${f.manyOf}` : f.example ? `e.g. ${f.example}` : 'text';
      const fallback = f.default !== undefined ? `, default ${f.default || '(empty)'}` : ', required';
      return `${f.name}: ${f.label} (${takes}${fallback})`;
    })
    .join('\n');
}

const PUBLIC_WARNING = 'Make it public? Anyone can then see and deploy it, and a public script can never be made private again, nor deleted.';

/** Create and edit share the fields; is_public asks before it goes out, as it cannot be taken back. */
function scriptForm(mode: 'create' | 'update'): FormSpec<StackScript> {
  return {
    schema: StackScriptSchema,
    mode,
    fields: ['label', 'images', 'description', 'is_public', 'rev_note', 'script'],
    overrides: {
      images: { choices: imageChoices, help: 'Enter picks the images it can deploy' },
      is_public: { help: 'Cannot be undone: a public script can never be made private or deleted' },
      rev_note: { help: 'What changed in this revision' },
      script: { lines: 10 },
    },
    confirm: (body, row) => (body.is_public === true && !row?.is_public ? PUBLIC_WARNING : undefined),
    submit: (body, ctx, s) => (s ? updateStackscript(ctx.client, s.id, body) : createStackscript(ctx.client, body)),
    done: (r, s) => (s ? `Saved ${(r as StackScript).label}` : `Created script ${(r as StackScript).label} (${(r as StackScript).id})`),
  };
}

export const scripts = defineScreen<StackScript>({
  id: 'scripts',
  title: 'Scripts',
  aliases: ['stackscripts', 'stackscript', 'script'],
  description: 'Provisioning scripts (StackScripts) run when an instance is deployed',
  list: {
    path: STACKSCRIPTS_PATH,
    rowKey: (s) => String(s.id),
    writeScope: 'stackscripts:read_write',
    grant: { kind: 'stackscript', add: 'add_stackscripts' },
    columns: [
      { key: 'id', title: 'ID', width: 6 },
      { key: 'label', title: 'Label', flex: 2, identifier: true },
      { key: 'username', title: 'Author', width: 12 },
      { key: 'is_public', title: 'Public', width: 6, color: (s) => (s.is_public ? 'yellow' : undefined) },
      { key: 'images', title: 'Images', flex: 2 },
      { key: 'deployments_total', title: 'Deploys', width: 7, align: 'right' },
      { key: 'updated', title: 'Updated', width: 10, format: (s) => dateText(s.updated), sortValue: (s) => s.updated },
    ],
    detail: {
      sections: [
        { title: 'Script', fields: ['id', 'label', 'username', 'description', 'is_public', 'images', 'rev_note'] },
        { title: 'Deployments', fields: ['deployments_total', 'deployments_active'] },
        { title: 'Dates', fields: ['created', 'updated'] },
        { title: 'User-defined fields (asked at deploy)', fields: ['udfs'] },
        { title: 'Text', fields: ['script'] },
      ],
      fetch: async (s, ctx) => {
        const full = await getStackscript(ctx.client, String(s.id));
        return { ...full, created: dateTimeText(full.created), updated: dateTimeText(full.updated), udfs: udfText(full.user_defined_fields) };
      },
    },
    create: { ...scriptForm('create'), title: 'New script' },
    edit: {
      ...scriptForm('update'),
      // The provider's public scripts (and other authors' public ones) are listed to every account, but only their author may change them.
      refuse: (s, user) => (s.is_public && user !== undefined && s.username !== user ? `${s.label} is a public script by ${s.username}: only its author can change it` : undefined),
    },
    delete: {
      refuse: (s) => (s.is_public ? `${s.label} is public: public scripts cannot be deleted` : undefined),
      confirm: (s) => `Delete the script ${s.label} (${s.id})? Instances deployed with it keep running; it cannot be used for new ones.`,
      submit: (s, ctx) => deleteStackscript(ctx.client, String(s.id)),
    },
  },
});
