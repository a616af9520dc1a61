import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WHOLE_TEXT_CHARS } from '../../../src/core/chunked-text.js';
import { encodeResponse } from '../../../src/core/encode.js';
import { renderContent, renderExcerpt } from '../../../src/content/render/index.js';
import { makeSite } from '../posts/helpers.js';

test('a post whose rendering is tens of times the usual size answers the same JSON in every shape', async () => {
  const site = await makeSite();
  const content = `<p>Intro</p>\n\n${'"quoted" it\'s \u{1F600} '.repeat(Math.ceil(WHOLE_TEXT_CHARS / 10))}`;
  const rendered = renderContent(content);
  assert.ok(rendered.length > WHOLE_TEXT_CHARS);
  const created = await site.create({ title: 'Large', content, status: 'publish' });
  assert.equal(created.content.rendered, rendered, 'the write answers the rendering');
  for (const path of [`/cms/v2/posts/${created.id}`, `/cms/v2/posts/${created.id}?context=edit`, '/cms/v2/posts']) {
    const answer = await site.admin('GET', path);
    assert.equal(answer.status, 200);
    const post = Array.isArray(answer.json) ? answer.json[0] : answer.json;
    assert.equal(post.content.rendered, rendered, path);
    const wire = new TextDecoder().decode(encodeResponse(answer).body!);
    assert.equal(wire, JSON.stringify(answer.json), `${path}: the bytes sent spell the body`);
  }
  const updated = await site.admin('POST', `/cms/v2/posts/${created.id}`, { json: { excerpt: content } });
  assert.equal(updated.status, 200);
  const revisions = await site.admin('GET', `/cms/v2/posts/${created.id}/revisions`);
  assert.equal(revisions.status, 200);
  assert.ok(revisions.json.length > 0);
  for (const revision of revisions.json) assert.equal(revision.content.rendered, rendered, 'a revision renders as the post');
  assert.equal(revisions.json[0].excerpt.rendered, renderExcerpt(content, ''), 'a stored excerpt renders on its own');
  const fields = await site.anonymous('GET', `/cms/v2/posts/${created.id}?_fields=content.rendered,id`);
  assert.deepEqual(fields.json, { id: created.id, content: { rendered } });
  const nested = await site.anonymous('GET', `/cms/v2/posts/${created.id}?_fields=content.rendered.inner`);
  assert.deepEqual(nested.json, { content: { rendered } }, 'a path below a string stops at the string');
});
