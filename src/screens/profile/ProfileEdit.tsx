import { useMemo } from 'react';
import { Box } from 'ink';
import type { Profile } from '../../api/profile.js';
import { PRIORITY } from '../../app/key-router.js';
import type { ScreenCtx } from '../../app/screen.js';
import { useLocalStore } from '../../app/use-local-store.js';
import { ConfirmDialog } from '../../components/ConfirmDialog.js';
import { Form } from '../../components/form/Form.js';
import { profileForm } from './profile-form.js';

interface Props {
  profile: Profile;
  ctx: ScreenCtx;
  onClose: () => void;
  width: number;
  height: number;
}

interface Pending {
  body: Record<string, unknown>;
  resolve: () => void;
  reject: (err: Error) => void;
}

/** The profile edit form; restricting yourself cannot be undone by you, so it asks for your username first. */
export function ProfileEdit({ profile, ctx, onClose, width, height }: Props) {
  const spec = useMemo(() => profileForm(profile), [profile]);
  const [{ pending }, store] = useLocalStore<{ pending: Pending | null }>(() => ({ pending: null }));
  const save = async (body: Record<string, unknown>) => {
    await spec.submit(body, ctx, profile);
    ctx.invalidate(...(spec.invalidates?.(profile, ctx.params) ?? []));
    ctx.notify(`Saved profile ${profile.username}`, 'success');
    onClose();
  };
  const onSubmit = (body: Record<string, unknown>) =>
    body.restricted === true ? new Promise<void>((resolve, reject) => store.setState({ pending: { body, resolve, reject } })) : save(body);
  const settle = (run: (p: Pending) => void) => {
    const p = store.getState().pending!;
    store.setState({ pending: null });
    run(p);
  };
  return (
    <>
      {/* Hidden, not unmounted, while confirming: the form keeps its values and shows the outcome. */}
      <Box display={pending ? 'none' : 'flex'} flexDirection="column">
        <Form title={spec.title!} spec={spec} mode="update" record={profile as unknown as Record<string, unknown>} onSubmit={onSubmit} onCancel={onClose} width={width} height={height} />
      </Box>
      {pending && (
        <ConfirmDialog
          title={`Restrict ${profile.username}`}
          message={`Restrict ${profile.username}? A restricted user may do only what its grants allow, and cannot lift its own restriction: only an unrestricted user can.`}
          confirmLabel="Restrict"
          destructive
          typeToConfirm={profile.username}
          onConfirm={() => settle((p) => save(p.body).then(p.resolve, p.reject))}
          onCancel={() => settle((p) => p.reject(new Error('Not saved: you kept the profile unrestricted')))}
          width={Math.min(width, 72)}
          priority={PRIORITY.nested}
        />
      )}
    </>
  );
}
