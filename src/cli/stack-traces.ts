/**
 * Stack traces of the `quire` command name the src/ files and lines of the bundled modules. Each frame in a file
 * of the build is looked up in that file's source map when a trace is written, so nothing is parsed until an
 * error is shown (node's --enable-source-maps parses every map as its module loads: megabytes kept for good).
 */
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `file:///…/x.js:12:5` or `/…/x.js:12:5` in a frame. */
const LOCATION = /(file:\/\/[^\s()]+?|\/[^\s()]+?)\.js:(\d+):(\d+)/;

export function mapStackTraces(buildFolder: string): void {
  const maps = new Map<string, SourceMap | null>();
  const mapOf = (file: string): SourceMap | null => {
    if (!maps.has(file)) {
      let map: SourceMap | null = null;
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
      } catch {
        // No map beside it: the frame stays as it is.
      }
      maps.set(file, map);
    }
    return maps.get(file)!;
  };

  const original = (frame: string): string => frame.replace(LOCATION, (location, stem: string, line: string, column: string) => {
    const file = `${stem.startsWith('file:') ? fileURLToPath(stem) : stem}.js`;
    if (dirname(file) !== buildFolder) return location;
    const entry = mapOf(file)?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!entry || !('originalSource' in entry)) return location;
    const source = entry.originalSource.startsWith('file:') ? fileURLToPath(entry.originalSource) : resolve(buildFolder, entry.originalSource);
    return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });

  Error.prepareStackTrace = (error: Error, callSites: NodeJS.CallSite[]) => {
    let heading: string;
    try {
      heading = Error.prototype.toString.call(error);
    } catch {
      heading = 'Error';
    }
    return [heading, ...callSites.map((site) => `    at ${original(String(site))}`)].join('\n');
  };
}

/** The folder of the running build (dist/js/ once bundled). */
export const BUILD_FOLDER = dirname(fileURLToPath(import.meta.url));
