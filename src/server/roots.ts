/** The API's roots: the base one, and the beta one (its own paths, such as firewalls, and every base path too). */
export const BASE_ROOT = '/v4';
export const BETA_ROOT = '/v4beta';
