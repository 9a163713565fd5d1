import type { ActionSpec, ListSpec } from '../../app/screen.js';
import type { ManagedContact, ManagedCredential, ManagedService, ManagedVMSettings } from '../../api/managed.js';
import type { NavStore } from '../../store/nav.js';
import type { ViewsStore } from '../../store/views.js';
import { entityRoute, pushFiltered } from '../events/entity-link.js';
import { contactList } from './contacts.js';
import { credentialList } from './credentials.js';
import { serviceList } from './services.js';
import { vmSettingsList } from './vm-settings.js';

/**
 * The things an issue screen lists (services, contacts, credentials, instance
 * access), each acted on with its own list's spec (the same forms, confirms
 * and scopes as its list screen), plus the ways to jump to it.
 */

export type Item =
  | { kind: 'service'; row: ManagedService }
  | { kind: 'contact'; row: ManagedContact }
  | { kind: 'credential'; row: ManagedCredential }
  | { kind: 'instance'; row: ManagedVMSettings };

export type ItemKind = Item['kind'];

export const itemKey = (item: Item) => `${item.kind}:${item.row.id}`;

/** Menu entries handled by the screen, not by the spec: open the edit form, or jump. */
export const EDIT = 'edit';
export const GOTO = 'goto';
export const SHOW_LIST = 'list';

const menuItem = <R>(id: string, label: string, key: string): ActionSpec<R> => ({ id, label, key });
/** A jump changes nothing: offered under --read-only, whatever the token's write scopes. */
const jumpItem = <R>(id: string, label: string, key: string): ActionSpec<R> => ({ id, label, key, changes: false });

export const ITEM_SPECS: { [K in ItemKind]: ListSpec<Extract<Item, { kind: K }>['row']> } = {
  service: {
    ...serviceList,
    actions: [...(serviceList.actions ?? []), { ...menuItem(EDIT, 'Edit service', 'e'), scope: serviceList.writeScope }, jumpItem(GOTO, 'Show in the services list', 'g')],
  },
  contact: {
    ...contactList,
    actions: [{ ...menuItem(EDIT, 'Edit contact', 'e'), scope: contactList.writeScope }, jumpItem(GOTO, 'Show in the contacts list', 'g')],
  },
  credential: {
    ...credentialList,
    actions: [...(credentialList.actions ?? []), { ...menuItem(EDIT, 'Rename', 'e'), scope: credentialList.writeScope }, jumpItem(GOTO, 'Show in the credentials list', 'g')],
  },
  instance: {
    ...vmSettingsList,
    actions: [
      { ...menuItem(EDIT, 'Edit SSH access', 'e'), scope: vmSettingsList.writeScope },
      jumpItem(GOTO, 'Go to the instance', 'g'),
      jumpItem(SHOW_LIST, 'Show in the instance access list', 'l'),
    ],
  },
};

const LISTS: Record<ItemKind, string> = { service: 'services', contact: 'contacts', credential: 'credentials', instance: 'vm-settings' };

export const itemName = (item: Item): string => (item.kind === 'contact' ? (item.row.name ?? item.row.email ?? `contact ${item.row.id}`) : item.row.label);

/** Enter on an item: the instance itself for instance access, else the item in its list. */
export function jumpTo(item: Item, stores: { nav: NavStore; views: ViewsStore }, how: typeof GOTO | typeof SHOW_LIST = GOTO): void {
  const name = itemName(item);
  if (item.kind === 'instance' && how === GOTO) {
    const to = entityRoute('vm', item.row.id, name);
    stores.nav.getState().push(to.screen, to.params, name);
    return;
  }
  pushFiltered(stores.nav, stores.views, LISTS[item.kind], {}, undefined, name);
}
