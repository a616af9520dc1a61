/**
 * The app's one connection to the API: api-fetch with the API root from the page, the neutral names (the editor's
 * packages ask for `/wp/v2/…`), and the signed-in user's application password sent as Basic. The credentials live
 * in sessionStorage: they last as long as the tab.
 */
import apiFetch from '@wordpress/api-fetch';
import { neutralNamesMiddleware } from '../../editor/index.js';

export interface AdminConfig {
  apiRoot: string;
  names: 'neutral' | 'wordpress';
  scripts: string[];
  /** Seconds between autosaves while there are unsaved changes. */
  autosaveInterval: number;
}

const CREDENTIALS_KEY = 'quire-admin-credentials';

export function readConfig(): AdminConfig {
  const element = document.getElementById('quire-admin-config');
  const parsed = JSON.parse(element?.textContent ?? '{}') as Partial<AdminConfig>;
  return { apiRoot: parsed.apiRoot ?? '/cms-json', names: parsed.names === 'wordpress' ? 'wordpress' : 'neutral', scripts: parsed.scripts ?? [],
    autosaveInterval: typeof parsed.autosaveInterval === 'number' && parsed.autosaveInterval > 0 ? parsed.autosaveInterval : 60 };
}

let credentials: string | null = sessionStorage.getItem(CREDENTIALS_KEY);
let apiRoot = '';

export function setUpApi(config: AdminConfig): void {
  apiRoot = new URL(config.apiRoot.replace(/\/?$/, '/'), location.href).href;
  apiFetch.use(apiFetch.createRootURLMiddleware(apiRoot));
  if (config.names === 'neutral') apiFetch.use(neutralNamesMiddleware());
  apiFetch.use((options, next) => next(credentials === null ? options : { ...options, headers: { ...options.headers, Authorization: `Basic ${credentials}` } }));
}

export const isSignedIn = (): boolean => credentials !== null;

/** Tries the login and application password against `/users/me`; keeps them for the tab when they work. */
export async function signIn(login: string, password: string): Promise<void> {
  const encoded = btoa(String.fromCodePoint(...new TextEncoder().encode(`${login}:${password}`)));
  const previous = credentials;
  credentials = encoded;
  try {
    await apiFetch({ path: '/wp/v2/users/me?context=edit' });
    sessionStorage.setItem(CREDENTIALS_KEY, encoded);
  } catch (error) {
    credentials = previous;
    throw error;
  }
}

export function signOut(): void {
  credentials = null;
  sessionStorage.removeItem(CREDENTIALS_KEY);
  // A new page load, not a hash change: nothing of the signed-in app runs again without credentials.
  location.replace(`${location.pathname}${location.search}`);
}

/** The `Authorization` header for requests made outside api-fetch (uploads with progress). */
export const authorizationHeader = (): Record<string, string> => (credentials === null ? {} : { Authorization: `Basic ${credentials}` });

/** An API path as an absolute URL, through the same names as api-fetch. */
export function apiUrl(path: string, names: AdminConfig['names']): string {
  const route = names === 'neutral' ? path.replace(/^\/wp\/v2\//, '/cms/v2/') : path;
  return new URL(route.replace(/^\//, ''), apiRoot).href;
}

export interface Page<T> { items: T[]; total: number; totalPages: number }

/** A collection page with its `X-WP-Total` and `X-WP-TotalPages`. */
export async function fetchPage<T>(path: string): Promise<Page<T>> {
  // Unparsed, for the headers; api-fetch's types only know parsed answers.
  const response = await (apiFetch as unknown as (options: { path: string; parse: boolean }) => Promise<Response>)({ path, parse: false });
  return {
    items: (await response.json()) as T[],
    total: Number(response.headers.get('X-WP-Total') ?? 0),
    totalPages: Number(response.headers.get('X-WP-TotalPages') ?? 0),
  };
}

export function errorMessage(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') return error.message;
  return String(error);
}
