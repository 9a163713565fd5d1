import type { ApiClient } from '../../api/client.js';
import type { DataStore, ListQuery } from '../../store/data.js';
import { Q } from './queries.js';
import { defineScreen, type ScreenDef } from '../../app/screen.js';
import { contacts } from './contacts.js';
import { credentials } from './credentials.js';
import { DashboardScreen } from './DashboardScreen.js';
import { IssueScreen } from './IssueScreen.js';
import { services } from './services.js';
import { TriageScreen } from './TriageScreen.js';
import { vmSettings } from './vm-settings.js';

/** Counted from the first page of the very list the poller and these views read: a list that fits in it is cached on the way. */
const total = (q: ListQuery) => (_client: ApiClient, data: DataStore) => data.getState().countList(q);

export const dashboard = defineScreen({
  id: 'managed',
  title: 'Managed',
  aliases: ['monitoring', 'dashboard'],
  description: 'Managed monitoring: status counts, 24 h usage, SSH key; open issues at the top (Enter opens triage)',
  count: total(Q.services),
  component: DashboardScreen,
});

export const triage = defineScreen({
  id: 'issues',
  title: 'Triage',
  aliases: ['triage', 'managed-issues'],
  description: 'Open managed issues, newest first, with the affected services (! from anywhere)',
  count: total(Q.issues),
  component: TriageScreen,
  filterable: true,
});

export const issue = defineScreen({
  id: 'managed-issue',
  title: 'Issue',
  params: ['issueId'],
  component: IssueScreen,
});

const screens: ScreenDef[] = [dashboard, triage, issue, services, contacts, credentials, vmSettings];

export default screens;
