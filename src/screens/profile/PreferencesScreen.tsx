import { useMemo } from 'react';
import { useApp } from '../../app/context.js';
import type { ScreenProps } from '../../app/screen.js';
import { ACCOUNT_WRITE, PREFERENCES_PATH, putPreferences, type Preferences } from '../../api/profile.js';
import { useLocalStore } from '../../app/use-local-store.js';
import { Spinner } from '../../components/Spinner.js';
import { preferencesProblem } from '../../model/profile.js';
import { JsonEditor, type JsonCheck } from './JsonEditor.js';
import { failedLines, staleLine } from './object-status.js';
import { ScrollPane, type PaneLine } from './ScrollPane.js';
import { useMissingScope } from './use-missing-scope.js';
import { PREFERENCES_QUERY, useObject } from './use-object.js';

const pretty = (v: unknown) => JSON.stringify(v, null, 2);

/** Parses the editor's text and applies the service's own rule for preferences. */
export function checkPreferences(text: string): JsonCheck {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { error: `Not valid JSON: ${(err as Error).message}` };
  }
  const problem = preferencesProblem(value);
  return problem ? { error: problem } : { value };
}

/** This client's preferences: shown pretty, edited as JSON, saved with PUT. */
export function PreferencesScreen({ width, height }: ScreenProps) {
  const { client, data, session } = useApp();
  const { entry, value } = useObject(PREFERENCES_QUERY);
  const [{ editing }, store] = useLocalStore(() => ({ editing: false }));
  const cannotWrite = useMissingScope(ACCOUNT_WRITE);
  const lines = useMemo<PaneLine[]>(() => {
    const failed = failedLines(entry, 'preferences');
    if (failed || value === undefined) return failed ?? [];
    const keys = Object.keys(value).length;
    return [
      { text: `${keys} key${keys === 1 ? '' : 's'} · preferences belong to the OAuth client of the token in use; personal access tokens share one set`, dim: true },
      ...staleLine(entry),
      { text: '' },
      ...pretty(value).split('\n').map((text) => ({ text })),
    ];
  }, [entry, value]);

  if (editing && value !== undefined) {
    return (
      <JsonEditor
        title="Edit preferences (JSON object)"
        initial={pretty(value)}
        check={checkPreferences}
        onSave={async (prefs) => {
          await putPreferences(client, prefs as Preferences);
          data.getState().invalidate(PREFERENCES_PATH);
          session.getState().notify('Saved preferences', 'success');
          store.setState({ editing: false });
        }}
        onCancel={() => store.setState({ editing: false })}
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
