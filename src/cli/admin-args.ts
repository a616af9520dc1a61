/** `--admin-path` and `--no-admin`: where `quire serve` serves the authoring app, or that it serves none. */
import { DEFAULT_ADMIN_PATH } from './defaults.js';

/** Paths the standalone server answers itself; the app may not sit on or under them. */
const TAKEN = ['/uploads', '/health'];

export function adminPathOf(path: string | undefined, noAdmin: boolean | undefined, apiRoot: string, refuse: (message: string) => never): string | null {
  if (noAdmin) {
    if (path !== undefined) refuse('--admin-path cannot be combined with --no-admin');
    return null;
  }
  if (path === undefined) return DEFAULT_ADMIN_PATH;
  const trimmed = path.trim().replace(/\/+$/, '');
  if (!/^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(trimmed) || /(^|\/)\.\.?(\/|$)/.test(trimmed)) {
    refuse(`--admin-path must be a path such as /admin (letters, digits, . _ ~ - and /), not '${path}'`);
  }
  // An API at the site root is no clash: the server answers the app's path before the API's.
  const overlaps = (other: string) => other !== '' && (trimmed === other || trimmed.startsWith(`${other}/`) || other.startsWith(`${trimmed}/`));
  const clash = [apiRoot.replace(/\/+$/, ''), ...TAKEN].find(overlaps);
  if (clash !== undefined) refuse(`--admin-path ${trimmed} overlaps ${clash}`);
  return trimmed;
}
