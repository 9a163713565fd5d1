import { dateText } from '../../components/dates.js';

/** How the profile screens write times, scopes and switches. API times are UTC without a zone suffix. */

const parse = (iso: string) => Date.parse(/Z$|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso.replace(' ', 'T')}Z`);

/** An expiry: "never" when null, else the date. */
export const expiryText = (iso: string | null | undefined) => dateText(iso, 'never');

const WEEK_MS = 7 * 86_400_000;

/** Red once expired, yellow within a week of it. */
export function expiryColor(iso: string | null | undefined, now = Date.now()): string | undefined {
  if (!iso) return undefined;
  const left = parse(iso) - now;
  return left <= 0 ? 'red' : left < WEEK_MS ? 'yellow' : undefined;
}

/** Sorts "never" after every date. */
export const expirySort = (iso: string | null | undefined) => iso ?? '9999';

export const scopesText = (scopes: string) => (scopes.trim() === '*' ? '* (all scopes)' : scopes);

export const onOff = (v: boolean | undefined) => (v ? 'on' : 'off');
export const yesNo = (v: boolean | undefined) => (v ? 'yes' : 'no');

/** The key URI authenticator apps import (as text, or as a QR code made from it). */
export const otpauthUri = (username: string, secret: string) => `otpauth://totp/vmtui:${encodeURIComponent(username)}?secret=${secret}&issuer=vmtui`;
