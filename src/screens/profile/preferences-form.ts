import { PREFERENCES_PATH, putPreferences, type Preferences } from '../../api/profile.js';
import type { FormSpec } from '../../components/form/types.js';
import { preferencesProblem } from '../../model/profile.js';
import { defineResource } from '../../model/schema.js';

/** The preferences object as one multi-line JSON field, held to the service's own rule for it. */
const PreferencesForm = defineResource(
  'preferences',
  { preferences: { kind: 'json', required: true, title: 'Preferences', help: 'Any JSON object of at most 64 KiB' } },
  [
    (body) => {
      const problem = body.preferences === undefined ? null : preferencesProblem(body.preferences);
      return problem ? [{ field: 'preferences', reason: problem }] : [];
    },
  ],
);

/** The edit form, its JSON field as tall as the room allows. */
export function preferencesForm(lines: number): FormSpec {
  return {
    title: 'Edit preferences (a JSON object)',
    schema: PreferencesForm,
    mode: 'update',
    fields: ['preferences'],
    overrides: { preferences: { lines } },
    submit: (body, ctx) => putPreferences(ctx.client, body.preferences as Preferences),
    invalidates: () => [PREFERENCES_PATH],
  };
}
