/** WordPress export files (WXR): importing a WordPress site into quire, and exporting quire's content back. */
import type { ContentPortDeps } from './content-port.js';
import type { WxrImportOptions, WxrImportSummary } from './import-run.js';
import type { WxrSource } from './input.js';

export { WxrError, isWxrError, type WxrErrorCode } from './errors.js';
export type { WxrIdMaps } from './id-map.js';
export type { WxrCounts, WxrImportOptions, WxrImportSummary, WxrProgress } from './import-run.js';
export type { WxrSource } from './input.js';
export type { WxrLimits } from './reader.js';
export type { WxrSite } from './records.js';
export { createProgressReporter, type ProgressReporter, type ProgressReporterOptions } from './progress.js';
export type { ContentPortDeps as WxrDeps } from './content-port.js';

export interface WxrApi {
  /**
   * Imports a WordPress export file (WXR): its authors, categories, tags, posts, pages, attachments and comments.
   * All or nothing: a malformed file fails with a `WxrError` naming the line, and nothing of it is kept.
   */
  importWxr(source: WxrSource, options?: WxrImportOptions): Promise<WxrImportSummary>;
  /** The site's content as a WXR 1.2 file, in pieces: `for await (const piece of cms.exportWxr()) out.write(piece)`. */
  exportWxr(): AsyncIterable<string>;
}

/** The importer and exporter are loaded on first use: most hosts never move a site in or out. */
export function createWxrApi(deps: ContentPortDeps): WxrApi {
  return {
    importWxr: async (source, options) => (await import('./importer.js')).importWxr(deps, source, options),
    async *exportWxr() {
      yield* (await import('./exporter.js')).exportWxr(deps);
    },
  };
}
