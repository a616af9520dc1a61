import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { run, serve } from './helpers.js';

const folder = mkdtempSync(join(tmpdir(), 'quire-import-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const password = 'abcd efgh ijkl mnop qrst uvwx';
const authorization = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;

const document = {
  sliders: [{
    alias: 'front-hero',
    title: 'Front hero',
    settings: { layout: 'fullwidth' },
    slides: [{ slide: { title: 'First' }, layers: [{ type: 'text', content: { text: 'Hello' } }] }],
  }],
  signupForms: [{ title: 'Newsletter', slug: 'newsletter', settings: { lists: ['list01'], double_optin: true } }],
};

async function served(file: string, data: string) {
  return serve(['--data', data, '--admin-app-password', password, '--import', file]);
}

describe('quire serve --import', () => {
  test('stores the sliders and sign-up forms of the file, and updates them in place on the next import', async () => {
    const file = join(folder, 'site.json');
    writeFileSync(file, JSON.stringify(document));
    const data = join(folder, 'site.db');
    for (const round of [1, 2]) {
      const { child, apiUrl, finished } = await served(file, data);
      try {
        const slider = await fetch(new URL('slider/sliders/front-hero', apiUrl));
        assert.equal(slider.status, 200);
        assert.equal(((await slider.json()) as { success: boolean }).success, true);
        const forms = await fetch(new URL('mailing/v1/forms', apiUrl), { headers: { authorization } });
        const listed = (await forms.json()) as { slug: string }[];
        assert.deepEqual(listed.map((form) => form.slug), ['newsletter'], `round ${round}`);
        const sliders = (await (await fetch(new URL('slider/sliders', apiUrl))).json()) as unknown[];
        assert.equal(JSON.stringify(sliders).match(/front-hero/g)?.length, 1, `round ${round}: one slider`);
      } finally {
        child.kill('SIGTERM');
      }
      const exit = await finished;
      assert.equal(exit.code, 0);
      const expected = round === 1 ? '1 sliders created, 0 updated; 1 sign-up forms created, 0 updated' : '0 sliders created, 1 updated; 0 sign-up forms created, 1 updated';
      assert.match(exit.stdout, new RegExp(`quire import: ${expected}`));
    }
  });

  test('refuses a bad file with a clear message and does not serve', async () => {
    const cases: [unknown, RegExp][] = [
      [[1, 2], /must hold a JSON object/],
      [{ sliders: [{ alias: 'bad alias' }] }, /sliders\[0\]: .*alias/],
      [{ posts: [] }, /unknown member "posts"/],
    ];
    for (const [content, message] of cases) {
      const file = join(folder, 'bad.json');
      writeFileSync(file, JSON.stringify(content));
      const exit = await run(['serve', '--storage', 'memory', '--port', '0', '--import', file]).finished;
      assert.equal(exit.code, 1);
      assert.match(exit.stderr, message);
      assert.doesNotMatch(exit.stdout, /quire listening/);
    }
    const missing = await run(['serve', '--storage', 'memory', '--port', '0', '--import', join(folder, 'none.json')]).finished;
    assert.match(missing.stderr, /cannot read .*none\.json/);
  });
});
