import type { ManagedIssue } from '../../api/managed.js';
import { wrapLine } from '../../components/cells.js';
import { isIp, issueNumber, type ServiceContext } from './issue-model.js';
import type { Line, Seg } from './LineView.js';
import { phones } from './contacts.js';
import { statusLook } from './status.js';
import { agoText, apiTime, ago, utc } from './time.js';
import { sshLine } from './vm-settings.js';

/** The issue screen as lines of styled text; lines with an item can be selected and acted on. */

const text = (t: string, style: Omit<Seg, 'text'> = {}): Seg => ({ text: t, ...style });
const line = (...segs: Seg[]): Line => ({ segs });
const heading = (t: string, note = ''): Line => line(text(`  ${t}`, { bold: true }), text(note, { dim: true }));

function serviceLines(c: ServiceContext, width: number): Line[] {
  const s = c.service;
  if (!s) return [line(text(`  service #${c.id} no longer exists (deleted after the issue opened)`, { dim: true }))];
  const look = statusLook(s.status);
  const out: Line[] = [
    {
      item: { kind: 'service', row: s },
      segs: [text(look.text, { color: look.color, bold: look.bold, dim: look.dim }), text(`  ${s.label}`, { bold: true }), text(`  ${s.service_type}  ${s.address}`)],
    },
    line(
      text(`    timeout ${s.timeout}s · `, { dim: true }),
      text(s.body ? `body must contain: ${s.body}` : 'any response counts'),
      text(s.region ? ` · region ${s.region}` : '', { dim: true }),
    ),
  ];
  if (s.notes) {
    const pieces = s.notes.split('\n').flatMap((l) => wrapLine(l, Math.max(20, width - 11)));
    pieces.forEach((p, i) => out.push(line(text(i === 0 ? '    notes: ' : '           ', { dim: true }), text(p))));
  }

  const group = s.consultation_group;
  if (!group) out.push(heading('Contacts', ': no contact group set (e edits the service)'));
  else if (c.contacts.length === 0) out.push(heading(`Contacts · ${group}`, ': nobody is in this group (see :contacts)'));
  else out.push(heading(`Contacts · ${group}`));
  for (const contact of c.contacts) {
    out.push({
      item: { kind: 'contact', row: contact },
      segs: [text(`    ${contact.name ?? '(no name)'}`), text(`  ${contact.email ?? 'no email'}`, { color: 'cyan' }), text(`  ${phones(contact) || 'no phone'}`)],
    });
  }

  out.push(heading('Credentials', c.credentials.length ? ' (labels; the secrets are write-only)' : ': none for this service'));
  for (const { id, credential } of c.credentials) {
    if (!credential) out.push(line(text(`    #${id} (deleted)`, { dim: true })));
    else
      out.push({
        item: { kind: 'credential', row: credential },
        segs: [text(`    ${credential.label}`), text(credential.last_decrypted ? `  last decrypted ${agoText(credential.last_decrypted)}` : '  never decrypted', { dim: true })],
      });
  }

  out.push(heading(`Instance access · ${c.host}`));
  if (c.access.length === 0) {
    const why = isIp(c.host) ? `no instance on the account has the address ${c.host}` : `${c.host} is a name, not an address: no instance matched`;
    out.push(line(text(`    ${why}`, { dim: true })));
  }
  for (const { settings, instance } of c.access) {
    out.push({
      item: { kind: 'instance', row: settings },
      segs: [
        text(`    ${settings.label}`),
        text(instance?.status ? `  ${instance.status}` : '', { dim: true }),
        text(`  ${sshLine(settings)}`, { color: settings.ssh.access ? undefined : 'yellow' }),
      ],
    });
  }
  return out;
}

export function issueLines(issue: ManagedIssue, contexts: ServiceContext[], width: number, now = Date.now()): Line[] {
  const out: Line[] = [
    line(text(`${issueNumber(issue)} `, { bold: true, color: 'red' }), text(issue.entity.label, { bold: true })),
    line(text(`  detected ${ago(apiTime(issue.created), now)} · ${utc(issue.created)} · ticket ${issue.entity.url}`, { dim: true })),
  ];
  contexts.forEach((c, i) => {
    if (i > 0 || contexts.length > 1) out.push(line(text(`─ service ${i + 1} of ${contexts.length} ${'─'.repeat(Math.max(0, width - 22))}`, { dim: true })));
    out.push(...serviceLines(c, width));
  });
  if (contexts.length === 0) out.push(line(text('  The issue names no services (they were deleted).', { dim: true })));
  return out;
}
