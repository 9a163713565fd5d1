import { Box } from 'ink';
import { Text } from '../../components/Text.js';
import type { Profile as ProfileRecord } from '../../api/profile.js';
import { fit } from '../../components/cells.js';
import { Profile } from '../../model/profile.js';
import { onOff, yesNo } from './format.js';
import { keySummary } from './ssh-key-text.js';
import { plural } from '../../model/plural.js';

interface Field {
  title: string;
  text: string;
  color?: string;
}

const title = (name: keyof typeof Profile.fields) => Profile.fields[name]!.title ?? name;

function consoleKeys(keys: string[] | null): string {
  if (!keys?.length) return 'none';
  const more = keys.length > 1 ? ` +${keys.length - 1} more` : '';
  return `${plural(keys.length, 'key')}: ${keySummary(keys[0]!)}${more}`;
}

function referrals(p: ProfileRecord): string {
  const r = p.referrals;
  return `${r.code} · ${r.completed}/${r.total} completed, ${r.pending} pending · credit $${r.credit.toFixed(2)}`;
}

/** Left column, right column, then full-width lines: short values pair up, long ones get the width. */
function fields(p: ProfileRecord): [Field[], Field[], Field[]] {
  return [
    [
      { title: title('username'), text: p.username },
      { title: title('email'), text: p.email },
      { title: title('timezone'), text: p.timezone },
      { title: title('restricted'), text: yesNo(p.restricted), color: p.restricted ? 'yellow' : undefined },
      { title: title('authentication_type'), text: p.authentication_type },
    ],
    [
      { title: title('uid'), text: String(p.uid) },
      { title: title('email_notifications'), text: onOff(p.email_notifications) },
      { title: title('lish_auth_method'), text: p.lish_auth_method },
      { title: title('two_factor_auth'), text: onOff(p.two_factor_auth), color: p.two_factor_auth ? 'green' : 'yellow' },
      { title: title('ip_whitelist_enabled'), text: p.ip_whitelist_enabled ? 'on (deprecated)' : 'off' },
    ],
    [
      { title: title('authorized_keys'), text: consoleKeys(p.authorized_keys) },
      { title: title('referrals'), text: referrals(p) },
    ],
  ];
}

function Column({ items, width }: { items: Field[]; width: number }) {
  const labelWidth = Math.max(...items.map((f) => f.title.length)) + 2;
  return (
    <Box flexDirection="column" width={width}>
      {items.map((f) => (
        <Text key={f.title} wrap="truncate-end">
          <Text dimColor>{fit(f.title, labelWidth)}</Text>
          <Text color={f.color}>{fit(f.text, Math.max(1, width - labelWidth))}</Text>
        </Text>
      ))}
    </Box>
  );
}

const TWO_COLUMNS = 72;

/** Lines the fields take at this width. */
export const profileFieldLines = (width: number) => (width >= TWO_COLUMNS ? 7 : 12);

/** The profile's fields: two columns when the terminal is wide enough, else one. */
export function ProfileFields({ profile, width }: { profile: ProfileRecord; width: number }) {
  const [left, right, wide] = fields(profile);
  if (width < TWO_COLUMNS) return <Column items={[...left, ...right, ...wide]} width={width} />;
  const half = Math.floor((width - 2) / 2);
  return (
    <Box flexDirection="column">
      <Box gap={2}>
        <Column items={left} width={half} />
        <Column items={right} width={width - 2 - half} />
      </Box>
      <Column items={wide} width={width} />
    </Box>
  );
}
