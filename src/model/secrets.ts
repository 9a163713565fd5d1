import { DEPLOY_FIELDS } from './instance-deploy.js';
import { ManagedCredential, ManagedCredentialSecret } from './managed.js';
import { NBConfig, NBConfigRebuild } from './nodebalancers.js';
import { BucketCertificate } from './object-storage.js';
import type { FieldSpec } from './schema.js';

/**
 * Values the API returns once and never again, so no record of a call may
 * keep them: a new token, an object storage key's secret, the two-factor
 * secret and scratch code, and the code typed to confirm it.
 */
const SHOWN_ONCE = ['token', 'secret_key', 'secret', 'scratch', 'tfa_code'];

/** Names of the fields that hold a secret anywhere in the API: the forms' `secret` fields, and what is shown once. */
export function secretFieldNames(): ReadonlySet<string> {
  const names = new Set(SHOWN_ONCE);
  const collect = (fields: Record<string, FieldSpec>) => {
    for (const [name, spec] of Object.entries(fields)) {
      if (spec.secret) names.add(name);
      if (spec.fields) collect(spec.fields);
      if (spec.items?.fields) collect(spec.items.fields);
    }
  };
  for (const fields of [DEPLOY_FIELDS, ManagedCredential.fields, ManagedCredentialSecret.fields, NBConfig.fields, NBConfigRebuild.fields, BucketCertificate.fields]) collect(fields);
  return names;
}
