import { useMemo } from 'react';
import type { Profile } from '../../api/profile.js';
import type { ScreenCtx } from '../../app/screen.js';
import { Form } from '../../components/form/Form.js';
import { profileForm } from './profile-form.js';

interface Props {
  profile: Profile;
  ctx: ScreenCtx;
  onClose: () => void;
  width: number;
  height: number;
}

/** The profile's edit form: sends what changed, refreshes everything shown from /profile, then closes. */
export function ProfileEdit({ profile, ctx, onClose, width, height }: Props) {
  const spec = useMemo(() => profileForm(profile), [profile]);
  const save = async (body: Record<string, unknown>) => {
    await spec.submit(body, ctx, profile);
    ctx.invalidate(...(spec.invalidates?.(profile, ctx.params) ?? []));
    ctx.notify(`Saved profile ${profile.username}`, 'success');
    onClose();
  };
  return (
    <Form
      title={spec.title!}
      spec={spec}
      mode="update"
      record={profile as unknown as Record<string, unknown>}
      onSubmit={save}
      onCancel={onClose}
      scope={{ params: ctx.params, row: profile }}
      width={width}
      height={height}
    />
  );
}
