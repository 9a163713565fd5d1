import type { FastifyInstance } from 'fastify';
import type { Area } from '../route.js';
import type { Accounts } from '../accounts.js';
import account from './account.js';
import control, { mountControl } from './control.js';
import { mountControlClock } from './control-clock.js';
import { mountControlFaults } from './control-faults.js';
import { mountControlJournal } from './control-journal.js';
import { mountControlScopes } from './control-scopes.js';
import { mountControlSnapshots } from './control-snapshots.js';
import { mountControlAccounts } from './control-accounts.js';
import { mountControlImport } from './control-import.js';
import firewalls from './firewalls.js';
import images from './images.js';
import instances from './instances.js';
import ips from './ips.js';
import managed from './managed.js';
import nodebalancers from './nodebalancers.js';
import objectStorage, { mountObjectData } from './object-storage.js';
import profile from './profile.js';
import regions from './regions.js';
import stackscripts from './stackscripts.js';
import tags from './tags.js';

/** Every area of the API, each one fastify plugin's worth of routes. */
export const areas: Area[] = [managed, profile, nodebalancers, objectStorage, firewalls, ips, images, stackscripts, tags, regions, instances, account, control];

/** Routes outside the API roots: pre-signed object data and the control interface. */
export function mountExtras(app: FastifyInstance, accounts: Accounts): void {
  mountObjectData(app);
  mountControl(app);
  mountControlSnapshots(app);
  mountControlClock(app);
  mountControlFaults(app);
  mountControlJournal(app);
  mountControlScopes(app);
  mountControlAccounts(app, accounts);
  mountControlImport(app, accounts);
}
