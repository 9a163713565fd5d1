import { useMemo } from 'react';
import { useApp } from '../../app/context.js';
import type { ScreenProps } from '../../app/screen.js';
import { ACCOUNT_WRITE } from '../../api/profile.js';
import { useLocalStore } from '../../app/use-local-store.js';
import { Spinner } from '../../components/Spinner.js';
import { Form } from '../../components/form/Form.js';
import { failedLines, staleLine } from './object-status.js';
import { preferencesForm } from './preferences-form.js';
import { ScrollPane, type PaneLine } from './ScrollPane.js';
import { useMissingScope } from './use-missing-scope.js';
import { PREFERENCES_QUERY, useObject } from './use-object.js';
import { useScreenCtx } from '../../app/use-screen-ctx.js';
import { plural } from '../../model/plural.js';

/** Title, submit row and note line around the JSON field. */
const FORM_CHROME = 4;

/** This client's preferences: shown pretty, edited as a JSON object, saved with PUT. */
export function PreferencesScreen({ entry: navEntry, width, height }: ScreenProps) {
  const { data } = useApp();
  const ctx = useScreenCtx(navEntry.params);
  const { entry, value } = useObject(PREFERENCES_QUERY);
  const [{ editing }, store] = useLocalStore(() => ({ editing: false }));
  const cannotWrite = useMissingScope(ACCOUNT_WRITE);
  const spec = useMemo(() => preferencesForm(Math.max(3, height - FORM_CHROME)), [height]);
  const lines = useMemo<PaneLine[]>(() => {
    const failed = failedLines(entry, 'preferences');
    if (failed || value === undefined) return failed ?? [];
    const keys = Object.keys(value).length;
    return [
      { text: `${plural(keys, 'key')} · they belong to the OAuth client of the token in use; personal access tokens share one set`, dim: true },
      ...staleLine(entry),
      { text: '' },
      ...JSON.stringify(value, null, 2)
        .split('\n')
        .map((text) => ({ text })),
    ];
  }, [entry, value]);

  const close = () => store.setState({ editing: false });
  if (editing && value !== undefined) {
    return (
      <Form
        title={spec.title!}
        spec={spec}
        mode="update"
        record={{ preferences: value }}
        onSubmit={async (body) => {
          await spec.submit(body, ctx);
          ctx.invalidate(...spec.invalidates!(undefined, ctx.params));
          ctx.notify('Saved preferences', 'success');
          close();
        }}
        onCancel={close}
        width={width}
        height={height}
      />
    );
  }
  if (!entry || (entry.status === 'loading' && value === undefined)) return <Spinner label="loading preferences…" />;
  return (
    <ScrollPane
      title="Preferences"
      lines={lines}
      width={width}
      height={height}
      commands={{
        edit: value !== undefined && (() => store.setState({ editing: true })),
        refresh: () => void data.getState().refresh(PREFERENCES_QUERY),
      }}
      marks={{ edit: cannotWrite }}
    />
  );
}
