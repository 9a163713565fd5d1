import { defineScreen } from '../../app/screen.js';
import { ACCOUNT_WRITE, TOKENS_PATH, createToken, getToken, listTokens, revokeToken, updateToken, type Token as Created, type TokenRow } from '../../api/profile.js';
import { Token } from '../../model/tokens.js';
import { expiryColor, expiryText, expirySort, scopesText } from './format.js';
import { dateText } from '../../components/dates.js';
import { TOKEN_FORM_FIELDS, TokenCreateForm, tokenBody } from './token-form.js';

/** Marks the token this session authenticates with, at the start of the label so no column width hides it. */
const IN_USE = '[this] ';

function revokeText(t: TokenRow): string {
  const base = `Revoke the token "${t.label}"? It stops working at once: every request made with it gets 401 from now on, and it cannot be restored.`;
  return t.in_use ? `${base} This is the token THIS SESSION uses: vmtui loses access until you start it with another token.` : base;
}

export const tokens = defineScreen<TokenRow>({
  id: 'tokens',
  title: 'Tokens',
  aliases: ['pat'],
  home: false,
  description: 'Personal access tokens',
  list: {
    path: TOKENS_PATH,
    load: (client) => listTokens(client),
    writeScope: ACCOUNT_WRITE,
    columns: [
      { key: 'label', title: 'Label', flex: 1, identifier: true, format: (t) => (t.in_use ? IN_USE : '') + t.label, color: (t) => (t.in_use ? 'green' : undefined) },
      { key: 'scopes', title: 'Scopes', flex: 1, format: (t) => scopesText(t.scopes) },
      { key: 'token', title: 'Token', width: 17, format: (t) => `${t.token}…` },
      { key: 'created', title: 'Created', width: 10, format: (t) => dateText(t.created, '—'), sortValue: (t) => t.created },
      { key: 'expiry', title: 'Expires', width: 10, format: (t) => expiryText(t.expiry), sortValue: (t) => expirySort(t.expiry), color: (t) => expiryColor(t.expiry) },
    ],
    detail: {
      fetch: (t, ctx) => getToken(ctx.client, t.id),
      sections: [
        { title: 'Token', fields: ['label', 'id', 'token'] },
        { title: 'Access', fields: ['scopes', 'created', 'expiry'] },
      ],
    },
    create: {
      title: 'New personal access token',
      schema: TokenCreateForm,
      fields: TOKEN_FORM_FIELDS,
      submit: (body, ctx) => createToken(ctx.client, tokenBody(body)),
      done: (result) => {
        const t = result as Created;
        return {
          message: `Created token ${t.label}`,
          secret: {
            title: `New token: ${t.label}`,
            value: t.token,
            note: `Scopes ${scopesText(t.scopes)}; expires ${t.expiry ? `${t.expiry} UTC` : 'never'}. Use it as "Authorization: Bearer <token>". The list shows only its first 16 characters from now on.`,
          },
        };
      },
    },
    edit: {
      schema: Token,
      fields: ['label'],
      submit: (body, ctx, t) => updateToken(ctx.client, t!.id, body),
    },
    delete: {
      verb: 'Revoke',
      confirm: revokeText,
      // Revoked in a bulk run, it would fail every request after it: it goes on its own, with its warning.
      bulkRefuse: (t) => (t.in_use ? 'the token this session uses: revoke it on its own' : undefined),
      submit: (t, ctx) => revokeToken(ctx.client, t.id),
    },
    empty: 'No personal access tokens. Press c to create one.',
  },
});
