import assert from 'node:assert/strict';
import { test } from 'node:test';
import { performance } from 'node:perf_hooks';
import { renderContent, renderExcerpt } from '../../src/content/render/index.js';
import { OFF_THREAD_CHARACTERS, renderWhereCheapest } from '../../src/content/render/pool/jobs.js';
import { makeMediaSite, png, quarters, uploadRaw, type MediaSite } from './helpers.js';

const dense = (characters: number) => `Intro "one" 'two' 9x9\n\n${'"1\' a -- b... :) '.repeat(Math.ceil(characters / 17))}`;
const FILE_MARKUP = '<p class="attachment"><a href="http://example.test/a.png">a.png</a></p>';

test('an attachment\'s large texts render on a worker thread to what the main thread makes', async () => {
  const text = dense(4 * OFF_THREAD_CHARACTERS);
  const cases = [
    { kind: 'content', raw: text, attachmentHtml: FILE_MARKUP },
    { kind: 'excerpt', excerpt: '', content: text, excerptLength: undefined, attachmentHtml: FILE_MARKUP },
    { kind: 'excerpt', excerpt: text, content: 'Short', excerptLength: undefined, attachmentHtml: FILE_MARKUP },
  ] as const;
  const expected = [
    renderContent(text, { attachmentHtml: FILE_MARKUP }),
    renderExcerpt('', text, { attachmentHtml: FILE_MARKUP }),
    renderExcerpt(text, 'Short', { attachmentHtml: FILE_MARKUP }),
  ];
  for (const [index, job] of cases.entries()) {
    const rendered = renderWhereCheapest(job, renderContent);
    assert.ok(rendered instanceof Promise, 'a large text is not rendered in place');
    assert.equal(String(await rendered), expected[index]);
  }
  // The file markup is part of a generated excerpt's source: it must not be rendered without it.
  assert.notEqual(expected[1], renderExcerpt('', text));
  const small = renderWhereCheapest({ kind: 'content', raw: 'It\'s "small".', attachmentHtml: FILE_MARKUP }, renderContent);
  assert.equal(small, renderContent('It\'s "small".', { attachmentHtml: FILE_MARKUP }), 'a small text renders in place');
});

async function describedAttachment(site: MediaSite, description: string, caption: string): Promise<{ description: string; caption: string; turns: number; longestGap: number }> {
  const uploaded = await uploadRaw(site, { name: 'a.png', type: 'image/png', bytes: png(quarters(8, 8)) });
  assert.equal(uploaded.status, 201);
  const body = JSON.stringify({ description, caption });
  const edited = await site.cms.handle({
    method: 'POST', path: `/cms/v2/media/${uploaded.json.id}`, query: '', user: { id: site.ids.administrator }, headers: { 'content-type': 'application/json' }, body,
  });
  assert.equal(edited.status, 200);
  // Only the read is watched: with the memory store, everything but a worker's answer settles without a turn of the loop.
  let turns = 0;
  let longestGap = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    turns += 1;
    longestGap = Math.max(longestGap, performance.now() - last);
    last = performance.now();
  }, 1);
  const read = await site.cms.handle({ method: 'GET', path: `/cms/v2/media/${uploaded.json.id}`, query: 'context=edit', user: { id: site.ids.administrator }, headers: {} });
  clearInterval(ticker);
  longestGap = Math.max(longestGap, performance.now() - last);
  assert.equal(read.status, 200);
  const json = read.body instanceof Uint8Array ? JSON.parse(new TextDecoder().decode(read.body)) : read.body as any;
  return { description: String(json.description.rendered), caption: String(json.caption.rendered), turns, longestGap };
}

test('reading an attachment with a large description and caption keeps the event loop turning and renders them as small ones are', async () => {
  const site = await makeMediaSite();
  // The file markup the site places before an attachment's texts, learnt from a small description.
  const small = await describedAttachment(site, 'Small', 'Tiny');
  const markup = small.description.slice(0, small.description.lastIndexOf('\n<p>Small</p>'));
  assert.ok(markup.includes('a.png'), `file markup found: ${markup}`);
  assert.equal(small.description, renderContent('Small', { attachmentHtml: markup }));

  const text = dense(64 * OFF_THREAD_CHARACTERS);
  assert.equal(small.turns, 0, 'small texts render in place');
  const large = await describedAttachment(site, text, text);
  const ownMarkup = large.description.slice(0, large.description.indexOf('\n<p>Intro'));
  assert.ok(ownMarkup.includes('.png'), `file markup found: ${ownMarkup}`);
  const started = performance.now();
  assert.equal(large.description, renderContent(text, { attachmentHtml: ownMarkup }));
  const inPlaceMs = performance.now() - started;
  assert.equal(large.caption, renderExcerpt(text, text, { attachmentHtml: ownMarkup }));
  // Rendered in place, the read would hold the loop for at least the rendering's time.
  assert.ok(large.longestGap < inPlaceMs / 2, `longest gap ${large.longestGap.toFixed(1)} ms, rendering in place ${inPlaceMs.toFixed(1)} ms`);
});
