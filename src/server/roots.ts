/** The API's roots: the base one, and the beta one (its own paths, such as firewalls, and every base path too). */
export const BASE_ROOT = '/v4';
export const BETA_ROOT = '/v4beta';

/**
 * Where pre-signed URLs point: /__objects/<cluster>/<bucket>/<name>. The object storage area serves it; the
 * accounts read it to find the account a URL names, which is why it sits with the roots and not in that area.
 */
export const OBJECT_DATA_ROOT = '/__objects';
