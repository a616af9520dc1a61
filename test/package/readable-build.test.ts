import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** Stack traces and the source line node prints with an uncaught error, from the built dist/ (`npm test` builds). */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIST = join(ROOT, 'dist', 'js');
/** docs/mailing.md's Mailchimp example on a machine without the key: createCms throws. */
const CRASH = `
import { createCms } from ${JSON.stringify(join(DIST, 'index.js'))};
createCms({ mailing: { mailchimp: { apiKey: process.env.MAILCHIMP_API_KEY ?? '' } } });`;
const THROWER = 'src/mailing/providers/mailchimp/client.ts';

async function crash(flags: string[]): Promise<string> {
  const failed = await promisify(execFile)(process.execPath, [...flags, '--input-type=module', '-e', CRASH], { env: { PATH: process.env.PATH } })
    .then(() => null, (error: { stderr: string }) => error);
  assert.ok(failed, 'the example throws');
  return failed.stderr;
}

describe('the built JavaScript', () => {
  it('keeps its lines short', () => {
    for (const name of readdirSync(DIST).filter((file) => file.endsWith('.js'))) {
      const longest = Math.max(...readFileSync(join(DIST, name), 'utf8').split('\n').map((line) => line.length));
      assert.ok(longest <= 2000, `${name} has a line of ${longest} characters`);
    }
  });

  it('crashes a host in a few readable lines, naming the function that threw', async () => {
    const output = await crash([]);
    assert.ok(output.length < 4000, `${output.length} characters printed`);
    assert.match(output, /throw new Error\('The Mailchimp API key must end in its data centre/);
    assert.match(output, /at mailchimpBaseUrl \(/);
  });

  it('names the src/ file and line of the throw under --enable-source-maps', async () => {
    const line = readFileSync(join(ROOT, THROWER), 'utf8').split('\n').findIndex((text) => text.includes('must end in its data centre')) + 1;
    assert.ok(line > 0);
    const output = await crash(['--enable-source-maps']);
    assert.ok(output.includes(`at mailchimpBaseUrl (${join(ROOT, THROWER)}:${line}:`), output);
    assert.match(output, /at createCms \(.*\/src\/cms\.ts:\d+:\d+\)/);
  });

  it('the quire command names src/ files in its stack traces without a flag', async () => {
    // Records where the first write to standard output comes from: quire's own code, printing the version.
    const probe = `data:text/javascript,${encodeURIComponent(`
const write = process.stdout.write.bind(process.stdout);
let seen = false;
process.stdout.write = (...args) => {
  if (!seen) { seen = true; process.stderr.write(new Error('probe').stack + '\\n'); }
  return write(...args);
};`)}`;
    const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', probe, join(DIST, 'cli.js'), '--version']);
    assert.match(stdout, /^\d+\.\d+\.\d+/);
    assert.match(stderr, /\(.*\/src\/cli\/main\.ts:\d+:\d+\)/);
    assert.doesNotMatch(stderr, /chunk-\w+\.js/);
  });
});
