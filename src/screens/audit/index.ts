import type { ScreenDef } from '../../app/screen.js';
import { AuditScreen } from './AuditScreen.js';
import { AUDIT_SCREEN } from './audit-list.js';

/** `:audit` — the account, linted. */
const screens: ScreenDef[] = [
  {
    id: AUDIT_SCREEN,
    title: 'Audit',
    aliases: ['lint', 'findings'],
    description: 'What is open, unprotected or unbacked: findings and their fixes',
    component: AuditScreen,
    filterable: true,
  },
];

export default screens;
