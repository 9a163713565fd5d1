import type { ImageRecord } from '../../model/images.js';
import { parseUdfs, stackscriptDataErrors, type StackScriptRecord } from '../../model/stackscripts.js';
import type { FieldError } from '../../model/schema.js';
import { visibleTo, type User } from '../auth.js';
import type { Ctx } from '../route.js';
import { imageVisible } from './images.js';

/** A script listing this deploys onto any image. */
const ANY_IMAGE = 'any/all';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Deployment {
  image?: ImageRecord;
  script?: StackScriptRecord;
}

/**
 * The deploy rules only the store can check, shared by instance and disk
 * create: the image exists and is the caller's to see; the script too, it
 * supports the image (never a private one) and its required fields are
 * answered; authorized users exist. Problems go to `errors`.
 */
export function checkDeployment(ctx: Ctx, body: Record<string, unknown>, errors: FieldError[]): Deployment {
  const out: Deployment = {};
  if (typeof body.image === 'string') {
    const image = ctx.store.get<ImageRecord>('image', body.image);
    if (image && imageVisible(ctx.auth, image)) out.image = image;
    else errors.push({ field: 'image', reason: `Image ${body.image} not found` });
  }
  if (typeof body.stackscript_id === 'number') {
    const id = String(body.stackscript_id);
    const script = ctx.store.get<StackScriptRecord>('stackscript', id);
    if (!script || !(script.is_public || visibleTo(ctx.auth, 'stackscript', id))) {
      errors.push({ field: 'stackscript_id', reason: `StackScript ${id} not found` });
    } else {
      out.script = script;
      const image = out.image;
      if (image && !image.is_public) {
        errors.push({ field: 'stackscript_id', reason: 'A StackScript cannot be deployed onto a private image' });
      } else if (image && !script.images.includes(image.id) && !script.images.includes(ANY_IMAGE)) {
        errors.push({ field: 'image', reason: `StackScript ${id} does not support ${image.id}; it supports ${script.images.join(', ')}` });
      }
      errors.push(...stackscriptDataErrors(parseUdfs(script.script), isObject(body.stackscript_data) ? body.stackscript_data : {}));
    }
  }
  if (Array.isArray(body.authorized_users)) {
    const usernames = new Set(ctx.store.all<User>('user').map((u) => u.username));
    body.authorized_users.forEach((name, i) => {
      if (typeof name === 'string' && !usernames.has(name)) errors.push({ field: `authorized_users.${i}`, reason: `User ${name} not found` });
    });
  }
  return out;
}

/** Deploying a script counts toward its deployment totals. */
export function countDeployment(ctx: Ctx, script: StackScriptRecord | undefined): void {
  if (!script) return;
  ctx.store.put<StackScriptRecord>('stackscript', script.id, {
    ...script,
    deployments_total: script.deployments_total + 1,
    deployments_active: script.deployments_active + 1,
  });
}
