import type { FastifyInstance } from 'fastify';
import { defineResource } from '../../model/schema.js';
import { bodyFor, type Ctx } from '../route.js';
import type { SeedKind } from '../accounts.js';
import { deleteSnapshot, exportSnapshot, listSnapshots, resetAccount, restoreSnapshot, saveSnapshot } from '../snapshots.js';
import { mountControlRoutes, type ControlRoute } from './control.js';

/**
 * Snapshots and reset in the control interface: save the account under a
 * name, list, restore, delete, export one as a data file, or start over from
 * a seed. The storage side is snapshots.ts.
 */

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const NAME_MAX = 64;
const nameRule = 'letters, digits, ".", "_" and "-", starting with a letter or digit';

const SnapshotCreate = defineResource('snapshot', {
  name: { kind: 'string', title: 'Name', required: true, minLength: 1, maxLength: NAME_MAX, check: (v) => (NAME.test(v) ? null : `name must be ${nameRule}`) },
});

const AccountReset = defineResource('reset', {
  seed: { kind: 'enum', title: 'Seed', values: ['demo', 'empty'], required: true },
});

/** The name in the path: a name no snapshot could have is simply not found. */
const pathName = (ctx: Ctx) => ctx.params.name!;

const routes: ControlRoute[] = [
  ['GET', '/snapshots', (ctx) => ({ data: listSnapshots(ctx.store) })],
  ['POST', '/snapshots', (ctx) => saveSnapshot(ctx.store, bodyFor(ctx, SnapshotCreate, 'create').name as string)],
  ['DELETE', '/snapshots/:name', (ctx) => deleteSnapshot(ctx.store, pathName(ctx))],
  ['POST', '/snapshots/:name/restore', (ctx) => restoreSnapshot(ctx.store, pathName(ctx), ctx.services.serveTokens ?? [])],
  ['GET', '/snapshots/:name/export', (ctx) => {
    const name = pathName(ctx);
    const file = exportSnapshot(ctx.store, name);
    ctx.reply.type('application/vnd.sqlite3').header('Content-Disposition', `attachment; filename="${name}.sqlite"`);
    return file;
  }],
  ['POST', '/reset', (ctx) => {
    const { seed } = bodyFor(ctx, AccountReset, 'create');
    resetAccount(ctx.store, ctx.sim, seed as SeedKind, ctx.services.serveTokens ?? []);
    return { seed };
  }],
];

export function mountControlSnapshots(app: FastifyInstance): void {
  mountControlRoutes(app, routes);
}
