import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_SEARCH_LENGTH } from '../../src/core/search-arg.js';
import { sanitizeTextField } from '../../src/format/text.js';
import { makeCommentSite } from '../comments/helpers.js';
import { longestTurnCpu } from '../helpers/event-loop.js';

const tooLong = {
  code: 'rest_invalid_param', message: 'Invalid parameter(s): search',
  data: {
    status: 400, params: { search: `search must be at most ${MAX_SEARCH_LENGTH.toLocaleString('en-US')} characters long.` },
    details: { search: { code: 'rest_too_long', message: `search must be at most ${MAX_SEARCH_LENGTH.toLocaleString('en-US')} characters long.`, data: null } },
  },
};

async function searchableSite() {
  const site = await makeCommentSite('memory');
  const post = await site.create({ title: 'Lorem ipsum', content: 'Dolor sit amet', status: 'publish' });
  await site.admin('POST', `/cms/v2/posts/${post.id}`, { json: { title: 'Lorem ipsum, edited' } });
  await site.comment({ post: post.id, content: 'Lorem ipsum too' });
  await site.admin('POST', '/forms/v1/contact-forms', { json: { title: 'Lorem form', form: '[text your-name]' } });
  const lists = [
    '/cms/v2/posts', '/cms/v2/pages', '/cms/v2/media', '/cms/v2/comments', '/cms/v2/users', '/cms/v2/categories', '/cms/v2/tags',
    '/cms/v2/search', `/cms/v2/posts/${post.id}/revisions`, '/forms/v1/contact-forms',
  ];
  return { site, lists };
}

test(`every list takes a search of up to ${MAX_SEARCH_LENGTH.toLocaleString('en-US')} characters and refuses a longer one`, async () => {
  const { site, lists } = await searchableSite();
  // Characters, not UTF-16 units: an emoji counts once.
  const longest = `lorem ${'\ud83d\ude00'.repeat(MAX_SEARCH_LENGTH - 6)}`;
  for (const path of lists) {
    assert.equal((await site.admin('GET', `${path}?search=lorem`)).status, 200, path);
    assert.equal((await site.admin('GET', `${path}?search=${encodeURIComponent(longest)}`)).status, 200, `${path}: at the bound`);
    const refused = await site.admin('GET', `${path}?search=${encodeURIComponent(`${longest}x`)}`);
    assert.deepEqual({ status: refused.status, body: refused.json }, { status: 400, body: tooLong }, path);
  }
});

test('a search of a mebibyte is refused before it is cleaned', async () => {
  const { site, lists } = await searchableSite();
  // Spaces and `<` as an in-process caller may send them: nothing to decode.
  const long = 'a b < c '.repeat(2 ** 17 - 1);
  const cleaningMs = await longestTurnCpu(async () => sanitizeTextField(long));
  for (const path of lists) {
    let refused: Awaited<ReturnType<typeof site.admin>> | undefined;
    const turnCpu = await longestTurnCpu(async () => {
      refused = await site.admin('GET', `${path}?search=${long}`);
    });
    assert.deepEqual(refused!.json, tooLong, path);
    assert.ok(turnCpu < cleaningMs / 2, `${path}: longest turn ${turnCpu.toFixed(1)} ms of CPU, cleaning the search ${cleaningMs.toFixed(1)} ms`);
  }
});

test('the route index shows the bound on every list that declares `search`', async () => {
  const { site } = await searchableSite();
  const { routes } = (await site.anonymous('GET', '/')).json;
  const declaring = Object.entries(routes as Record<string, { endpoints: { methods: string[]; args: Record<string, { maxLength?: number }> }[] }>)
    .flatMap(([route, { endpoints }]) => endpoints.filter((endpoint) => endpoint.args.search).map((endpoint) => [route, endpoint.args.search!] as const));
  assert.ok(declaring.length >= 9, `lists declaring search: ${declaring.map(([route]) => route).join(', ')}`);
  for (const [route, search] of declaring) assert.equal(search.maxLength, MAX_SEARCH_LENGTH, route);
});
