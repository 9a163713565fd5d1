import { useMemo } from 'react';
import { useApp } from '../../app/context.js';
import type { ScreenProps } from '../../app/screen.js';
import { useLocalStore } from '../../app/use-local-store.js';
import { ACCOUNT_WRITE, PROFILE_PATH, confirmTfa, disableTfa, enableTfa, type TfaSecret } from '../../api/profile.js';
import { describeError } from '../../api/errors.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { Menu } from '../../components/Menu.js';
import { SecretReveal } from '../../components/SecretReveal.js';
import { Spinner } from '../../components/Spinner.js';
import { Form } from '../../components/form/Form.js';
import type { FormSpec } from '../../components/form/types.js';
import { TfaConfirm } from '../../model/profile.js';
import { failedLines, staleLine } from './object-status.js';
import { ScrollPane, type PaneLine } from './ScrollPane.js';
import { TfaSecretDialog } from './TfaSecretDialog.js';
import { useMissingScope } from './use-missing-scope.js';
import { PROFILE_QUERY, useObject } from './use-object.js';
import { useScreenCtx } from '../../app/use-screen-ctx.js';

/** Where the enable flow is: secret first, then a code confirms it, then the scratch code is shown once. */
type Phase =
  | { kind: 'status' }
  | { kind: 'menu' }
  | { kind: 'busy'; what: string }
  | { kind: 'secret'; secret: TfaSecret }
  | { kind: 'code' }
  | { kind: 'scratch'; scratch: string }
  | { kind: 'disable' };

const CODE_FORM: FormSpec = {
  title: 'Turn on two-factor: confirm a code',
  schema: TfaConfirm,
  fields: ['tfa_code'],
  overrides: { tfa_code: { help: 'The 6-digit code your authenticator app shows now for vmtui' } },
  scope: ACCOUNT_WRITE,
  submit: (body, ctx) => confirmTfa(ctx.client, body),
};

const SCRATCH_NOTE =
  'Two-factor authentication is on. This scratch code replaces a two-factor code once, if you lose your authenticator app. Keep it somewhere safe, apart from the app.';

/** Two-factor authentication: its status, the enable flow (secret, code, scratch code) and disabling. */
export function TwoFactorScreen({ entry: navEntry, width, height }: ScreenProps) {
  const { data, session } = useApp();
  const ctx = useScreenCtx(navEntry.params);
  const { entry, value: profile } = useObject(PROFILE_QUERY);
  const [{ phase }, store] = useLocalStore<{ phase: Phase }>(() => ({ phase: { kind: 'status' } }));
  const cannotWrite = useMissingScope(ACCOUNT_WRITE);
  const setPhase = (p: Phase) => store.setState({ phase: p });
  const toStatus = (message?: string, kind: 'info' | 'success' | 'error' = 'info') => {
    setPhase({ kind: 'status' });
    if (message) session.getState().notify(message, kind);
  };

  const enable = async () => {
    setPhase({ kind: 'busy', what: 'Requesting a two-factor secret…' });
    try {
      setPhase({ kind: 'secret', secret: await enableTfa(ctx.client) });
    } catch (err) {
      toStatus(`Enable two-factor failed: ${describeError(err)}`, 'error');
    }
  };
  const disable = async () => {
    setPhase({ kind: 'busy', what: 'Turning two-factor authentication off…' });
    try {
      await disableTfa(ctx.client);
      ctx.invalidate(PROFILE_PATH);
      toStatus('Two-factor authentication is off', 'success');
    } catch (err) {
      toStatus(`Disable two-factor failed: ${describeError(err)}`, 'error');
    }
  };

  const on = profile?.two_factor_auth === true;
  const lines = useMemo<PaneLine[]>(() => {
    const failed = failedLines(entry, 'the profile');
    if (failed || !profile) return failed ?? [];
    return [
      ...staleLine(entry),
      { key: 'Two-factor authentication', text: on ? 'ON' : 'OFF', color: on ? 'green' : 'yellow', bold: true },
      { text: '' },
      { text: 'When on, logins from untrusted computers need a code from your authenticator app (or the single-use scratch code).', dim: true },
      { text: '' },
      on
        ? { text: 'Press a to turn it off.' }
        : { text: 'Press a to turn it on: you get a secret for your authenticator app, then confirm it with a code the app shows.' },
    ];
  }, [entry, profile, on]);

  const dialogWidth = Math.min(width, 80);
  switch (phase.kind) {
    case 'menu':
      return (
        <Menu
          title="Two-factor authentication"
          items={[on ? { id: 'disable', label: 'Disable two-factor authentication', key: 'd', note: cannotWrite } : { id: 'enable', label: 'Enable two-factor authentication', key: 'e', note: cannotWrite }]}
          onSelect={(item) => (item.id === 'enable' ? void enable() : setPhase({ kind: 'disable' }))}
          onClose={() => setPhase({ kind: 'status' })}
          width={Math.min(width, 60)}
          height={height}
        />
      );
    case 'busy':
      return <Spinner label={phase.what} />;
    case 'secret':
      return (
        <TfaSecretDialog
          username={profile?.username ?? session.getState().user ?? 'user'}
          secret={phase.secret}
          onNext={() => setPhase({ kind: 'code' })}
          onCancel={() => toStatus('Two-factor authentication stays off: the secret was not confirmed')}
          width={width}
          height={height}
        />
      );
    case 'code':
      return (
        <Form
          title={CODE_FORM.title!}
          spec={CODE_FORM}
          mode="create"
          onSubmit={async (body) => {
            const { scratch } = (await CODE_FORM.submit(body, ctx)) as { scratch: string };
            ctx.invalidate(PROFILE_PATH);
            setPhase({ kind: 'scratch', scratch });
            session.getState().notify('Two-factor authentication is on', 'success');
          }}
          onCancel={() => toStatus('Two-factor authentication stays off: no code was confirmed')}
          width={width}
          height={height}
        />
      );
    case 'scratch':
      return <SecretReveal title="Two-factor scratch code" value={phase.scratch} note={SCRATCH_NOTE} onDone={() => setPhase({ kind: 'status' })} width={width} height={height} />;
    case 'disable':
      return (
        <ConfirmDialog
          title="Disable two-factor authentication"
          message="Turn two-factor authentication off? Logins from untrusted computers will no longer ask for a code, and the secret and scratch code stop working."
          confirmLabel="Disable"
          destructive
          onConfirm={() => void disable()}
          onCancel={() => setPhase({ kind: 'status' })}
          width={Math.min(width, 72)}
        />
      );
  }
  if (!entry || (entry.status === 'loading' && !profile)) return <Spinner label="loading two-factor status…" />;
  return (
    <ScrollPane
      title="Two-factor"
      lines={lines}
      width={width}
      height={height}
      commands={{
        actions: profile !== undefined && (() => setPhase({ kind: 'menu' })),
        refresh: () => void data.getState().refresh(PROFILE_QUERY),
      }}
      marks={{ actions: cannotWrite }}
    />
  );
}
