import type { ApiClient } from '../../api/client.js';
import { ISSUES_PATH, SERVICES_PATH } from '../../api/managed.js';
import { defineScreen, type ScreenDef } from '../../app/screen.js';
import { contacts } from './contacts.js';
import { credentials } from './credentials.js';
import { DashboardScreen } from './DashboardScreen.js';
import { IssueScreen } from './IssueScreen.js';
import { services } from './services.js';
import { TriageScreen } from './TriageScreen.js';
import { vmSettings } from './vm-settings.js';

const total = (path: string) => async (client: ApiClient) => (await client.page(path, { page: 1, pageSize: 25 })).results;

export const dashboard = defineScreen({
  id: 'managed',
  title: 'Managed',
  aliases: ['monitoring', 'dashboard'],
  description: 'Managed monitoring: status counts, 24 h usage, SSH key; open issues at the top (Enter opens triage)',
  count: total(SERVICES_PATH),
  component: DashboardScreen,
});

export const triage = defineScreen({
  id: 'issues',
  title: 'Triage',
  aliases: ['triage', 'managed-issues'],
  description: 'Open managed issues, newest first, with the affected services (! from anywhere)',
  count: total(ISSUES_PATH),
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
