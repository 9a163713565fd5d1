import { defineScreen } from '../../app/screen.js';
import { EVENTS_PATH, eventWindow, getEvent, markRead, markSeen, type AccountEvent } from '../../api/events.js';
import { agoText, apiTime, utc } from '../managed/time.js';
import { entityRoute, GOTO_SCREEN } from './entity-link.js';
import { GotoScreen } from './GotoScreen.js';

const STATUS: Record<string, { text: string; color?: string }> = {
  started: { text: '▶ started', color: 'yellow' },
  scheduled: { text: '◷ scheduled', color: 'yellow' },
  finished: { text: '✓ finished', color: 'green' },
  failed: { text: '✗ failed', color: 'red' },
  notification: { text: '• notice', color: 'cyan' },
};

const statusText = (e: AccountEvent) => {
  const s = STATUS[e.status]?.text ?? e.status;
  return e.status === 'started' && e.percent_complete !== null ? `▶ ${e.percent_complete}%` : s;
};

export const entityText = (e: AccountEvent) => (e.entity ? `${e.entity.type}:${e.entity.label}` : '—');

export const events = defineScreen<AccountEvent>({
  id: 'events',
  title: 'Events',
  aliases: ['event', 'ev', 'activity'],
  description: 'What happened on the account, newest first',
  list: {
    path: EVENTS_PATH,
    load: (client) => eventWindow(client),
    rowKey: (e) => String(e.id),
    label: (e) => `${e.action} #${e.id}`,
    columns: [
      { key: 'created', title: 'When', width: 8, format: (e) => agoText(e.created), sortValue: (e) => apiTime(e.created) },
      { key: 'action', title: 'Action', flex: 1, identifier: true },
      { key: 'entity', title: 'Entity', flex: 2, format: entityText },
      { key: 'status', title: 'Status', width: 11, format: statusText, color: (e) => STATUS[e.status]?.color },
      { key: 'username', title: 'By', flex: 1 },
      { key: 'message', title: 'Message', flex: 1 },
    ],
    detail: {
      sections: [
        { title: 'Event', fields: ['id', 'action', 'status', 'percent_complete', 'time_remaining', 'duration', 'rate'] },
        { title: 'When', fields: ['when'] },
        { title: 'Entity', fields: ['entity', 'secondary_entity'] },
        { title: 'By', fields: ['username'] },
        { title: 'Message', fields: ['message'] },
        { title: 'Flags', fields: ['seen', 'read'] },
      ],
      fetch: async (e, ctx) => {
        const full = await getEvent(ctx.client, e.id);
        return { ...full, when: `${utc(full.created)} (${agoText(full.created)})` };
      },
    },
    // Enter: the entity the event is about.
    drill: (e) => (e.entity ? entityRoute(e.entity.type, e.entity.id, e.entity.label) : undefined),
    actions: [
      {
        id: 'read',
        bulk: true,
        label: 'Mark read',
        key: 'r',
        scope: 'account:read_only',
        when: (e) => !e.read,
        run: async (e, ctx) => {
          await markRead(ctx.client, e.id);
          return `Event #${e.id} marked read`;
        },
      },
      {
        id: 'seen',
        label: 'Mark this and every earlier event seen',
        key: 's',
        scope: 'account:read_only',
        run: async (e, ctx) => {
          await markSeen(ctx.client, e.id);
          return `Events up to #${e.id} marked seen`;
        },
      },
    ],
    empty: 'No events in the last 90 days.',
  },
});

export const gotoScreen = defineScreen({
  id: GOTO_SCREEN,
  title: 'Opening',
  params: ['type', 'id'],
  home: false,
  component: GotoScreen,
});

export default [events, gotoScreen];
