/**
 * The block editor's data layer, unchanged, in Node: a jsdom window as the global scope, then
 * `@wordpress/data`, `@wordpress/core-data`, `@wordpress/api-fetch` and `@wordpress/media-utils` loaded through
 * their CommonJS builds, so the editor's packages and this test share one api-fetch (and its middlewares).
 */
import { createRequire } from 'node:module';
import { JSDOM, VirtualConsole } from 'jsdom';

type ApiFetchOptions = { path?: string; url?: string; method?: string; headers?: Record<string, string>; data?: unknown; body?: unknown; parse?: boolean };
type Middleware = (options: ApiFetchOptions, next: (options: ApiFetchOptions) => Promise<unknown>) => Promise<unknown>;

export interface ApiFetch {
  <T = unknown>(options: ApiFetchOptions): Promise<T>;
  use(middleware: Middleware): void;
  createRootURLMiddleware(root: string): Middleware;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- the editor's stores are untyped here, as in a plain script. */
export interface EditorPackages {
  apiFetch: ApiFetch;
  registry: { select(store: unknown): any; dispatch(store: unknown): any; resolveSelect(store: unknown): any };
  coreStore: unknown;
  uploadMedia(options: Record<string, unknown>): void;
}

let window: JSDOM['window'] | undefined;

function installWindow(): void {
  if (window) return;
  // The packages' stylesheets reach jsdom only as parse warnings; they say nothing about the data layer.
  const dom = new JSDOM('<!doctype html><html><head></head><body></body></html>', { url: 'http://localhost/', virtualConsole: new VirtualConsole() });
  window = dom.window;
  const scope = globalThis as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(window)) {
    if (!(key in scope)) scope[key] = (window as unknown as Record<string, unknown>)[key];
  }
  scope.window = window;
  Object.defineProperty(globalThis, 'navigator', { value: window.navigator, configurable: true });
  // jsdom has no object URLs; media-utils makes one for the preview of each file it uploads.
  Object.assign(window.URL, { createObjectURL: URL.createObjectURL, revokeObjectURL: URL.revokeObjectURL });
}

/** A fresh `core` store in its own registry (nothing resolved yet), talking through the shared api-fetch. */
export function loadEditorPackages(): EditorPackages {
  installWindow();
  const require = createRequire(import.meta.url);
  const data = require('@wordpress/data');
  const core = require('@wordpress/core-data');
  const apiFetch = require('@wordpress/api-fetch').default as ApiFetch;
  const { uploadMedia } = require('@wordpress/media-utils');
  const registry = data.createRegistry();
  registry.register(core.store);
  return { apiFetch, registry, coreStore: core.store, uploadMedia };
}
