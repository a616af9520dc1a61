import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WHOLE_TEXT_CHARS } from '../../src/core/chunked-text.js';
import { sanitizeTextField } from '../../src/format/text.js';
import { MAX_APPLICATION_NAME_LENGTH, MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, MAX_SENT_URL_OR_SLUG_LENGTH, userSlug, sanitizeDescription, sanitizeNameField } from '../../src/users/fields.js';
import { longestTurnCpu } from '../helpers/event-loop.js';
import { siteWithMembers } from './setup.js';

const tooLong = (field: string, max: number) => ({
  code: 'rest_invalid_param', message: `Invalid parameter(s): ${field}`,
  data: {
    status: 400, params: { [field]: `${field} must be at most ${max.toLocaleString('en-US')} characters long.` },
    details: { [field]: { code: 'rest_too_long', message: `${field} must be at most ${max.toLocaleString('en-US')} characters long.`, data: null } },
  },
});

const NAMES = ['name', 'first_name', 'last_name', 'nickname'];
const LIMITS: Record<string, number> = { ...Object.fromEntries(NAMES.map((field) => [field, MAX_NAME_LENGTH])), description: MAX_DESCRIPTION_LENGTH };

test('a user\'s names and description up to their limits are stored as they are cleaned today', async () => {
  const { request } = await siteWithMembers();
  // Characters, not UTF-16 units: an emoji counts once.
  const name = `a & <b>\ud83d\ude00</b>${'\ud83d\ude00'.repeat(MAX_NAME_LENGTH - 12)}`;
  const unit = '<a href="javascript:x()" rel="me">Fish</a> &amp; <em>chips</em> & <script>x</script> ';
  const description = unit.repeat(MAX_DESCRIPTION_LENGTH / unit.length).padEnd(MAX_DESCRIPTION_LENGTH, '&');
  const sent = { ...Object.fromEntries(NAMES.map((field) => [field, name])), description };
  const updated = await request('author', 'POST', '/cms/v2/users/me?context=edit', { json: sent });
  assert.equal(updated.status, 200, JSON.stringify(updated.json));
  for (const field of NAMES) assert.equal(updated.json[field], sanitizeNameField(sanitizeTextField(name)), field);
  assert.ok(updated.json.description === sanitizeDescription(description));
});

test('a user\'s name or description over its limit is refused before it is cleaned, and changes nothing', async () => {
  const { request, members } = await siteWithMembers({ maxParsedBodyBytes: 16 * WHOLE_TEXT_CHARS });
  const before = (await request('administrator', 'GET', `/cms/v2/users/${members.author.id}?context=edit`)).json;
  const long = 'a & b < c '.repeat(WHOLE_TEXT_CHARS / 10);
  const cleaningMs = await longestTurnCpu(async () => sanitizeNameField(sanitizeTextField(long)));
  for (const field of [...NAMES, 'description']) {
    let refused: Awaited<ReturnType<typeof request>> | undefined;
    const turnCpu = await longestTurnCpu(async () => {
      refused = await request('author', 'POST', '/cms/v2/users/me', { json: { [field]: long } });
    });
    assert.deepEqual(refused!.json, tooLong(field, LIMITS[field]!), field);
    assert.ok(turnCpu < cleaningMs / 2, `${field}: longest turn ${turnCpu.toFixed(1)} ms of CPU, cleaning the text ${cleaningMs.toFixed(1)} ms`);
    const justOver = field === 'description' ? 'x'.repeat(MAX_DESCRIPTION_LENGTH + 1) : '\ud83d\ude00'.repeat(MAX_NAME_LENGTH + 1);
    assert.deepEqual((await request('administrator', 'POST', `/cms/v2/users/${members.author.id}`, { json: { [field]: justOver } })).json, tooLong(field, LIMITS[field]!));
  }
  const created = await request('administrator', 'POST', '/cms/v2/users', {
    json: { username: 'newbie', email: 'newbie@example.test', password: 'correct horse', first_name: 'x'.repeat(MAX_NAME_LENGTH + 1) },
  });
  assert.deepEqual(created.json, tooLong('first_name', MAX_NAME_LENGTH));
  const after = (await request('administrator', 'GET', `/cms/v2/users/${members.author.id}?context=edit`)).json;
  assert.deepEqual(after, before, 'the refused updates changed nothing');
  const users = await request('administrator', 'GET', '/cms/v2/users?per_page=100');
  assert.ok(!users.json.some((user: { slug: string }) => user.slug === 'newbie'), 'the refused create stored nothing');
});

test(`an application password's name over ${MAX_APPLICATION_NAME_LENGTH} characters is refused before it is cleaned, and stores nothing`, async () => {
  const { request } = await siteWithMembers({ maxParsedBodyBytes: 16 * WHOLE_TEXT_CHARS });
  const path = '/cms/v2/users/me/application-passwords';
  const before = (await request('author', 'GET', path)).json;
  const atLimit = await request('author', 'POST', path, { json: { name: `a & <b>${'\ud83d\ude00'.repeat(MAX_APPLICATION_NAME_LENGTH - 7)}` } });
  assert.equal(atLimit.status, 201);
  assert.equal(atLimit.json.name, sanitizeTextField(`a & <b>${'\ud83d\ude00'.repeat(MAX_APPLICATION_NAME_LENGTH - 7)}`));
  const long = 'a & b < c '.repeat(WHOLE_TEXT_CHARS / 10);
  const cleaningMs = await longestTurnCpu(async () => sanitizeTextField(long));
  let refused: Awaited<ReturnType<typeof request>> | undefined;
  const body = JSON.stringify({ name: long });
  const turnCpu = await longestTurnCpu(async () => {
    refused = await request('author', 'POST', path, { json: body });
  });
  assert.deepEqual(refused!.json, tooLong('name', MAX_APPLICATION_NAME_LENGTH));
  assert.ok(turnCpu < cleaningMs / 2, `longest turn ${turnCpu.toFixed(1)} ms of CPU, cleaning the name ${cleaningMs.toFixed(1)} ms`);
  const renamed = await request('author', 'POST', `${path}/${atLimit.json.uuid}`, { json: { name: 'x'.repeat(MAX_APPLICATION_NAME_LENGTH + 1) } });
  assert.deepEqual(renamed.json, tooLong('name', MAX_APPLICATION_NAME_LENGTH));
  const after = (await request('author', 'GET', path)).json;
  assert.equal(after.length, before.length + 1, 'the refused create stored nothing');
  assert.equal(after.at(-1).name, atLimit.json.name, 'the refused rename changed nothing');
});

test('names and descriptions that come by the in-process API (as a WXR import makes its authors) are bounded the same way', async () => {
  const { cms, members } = await siteWithMembers();
  const long = 'a & b < c '.repeat(WHOLE_TEXT_CHARS / 10);
  const refusal = (field: string, max: number) => (error: unknown) => {
    assert.deepEqual({ code: (error as { code: string }).code, status: (error as { status: number }).status }, { code: 'rest_invalid_param', status: 400 });
    const { status: _status, ...data } = tooLong(field, max).data;
    assert.deepEqual({ ...(error as { extra: object }).extra }, data);
    return true;
  };
  await assert.rejects(cms.users.create({ login: 'imported', email: 'imported@example.test', firstName: long }), refusal('first_name', MAX_NAME_LENGTH));
  await assert.rejects(cms.users.update(members.author.id, { description: long }), refusal('description', MAX_DESCRIPTION_LENGTH));
  await assert.rejects(cms.users.update(members.author.id, { nickname: '\ud83d\ude00'.repeat(MAX_NAME_LENGTH + 1) }), refusal('nickname', MAX_NAME_LENGTH));
  assert.equal(await cms.users.find('imported'), null, 'nothing was stored');
  const kept = await cms.users.update(members.author.id, { nickname: '\ud83d\ude00'.repeat(MAX_NAME_LENGTH) });
  assert.equal(kept?.nickname, '\ud83d\ude00'.repeat(MAX_NAME_LENGTH));
  assert.equal(kept?.description, '');
});

test(`a user's URL or slug over ${MAX_SENT_URL_OR_SLUG_LENGTH.toLocaleString('en-US')} characters is refused before it is cleaned`, async () => {
  const { request, members } = await siteWithMembers({ maxParsedBodyBytes: 16 * WHOLE_TEXT_CHARS });
  const before = (await request('administrator', 'GET', `/cms/v2/users/${members.author.id}?context=edit`)).json;
  const long = '<p>Some <b>bold</b> words and <a href="http://example.test/">a link</a>.</p>\n'.repeat(WHOLE_TEXT_CHARS / 16);
  const cleaningMs = await longestTurnCpu(async () => userSlug(long));
  for (const field of ['url', 'slug']) {
    const body = JSON.stringify({ [field]: long });
    let refused: Awaited<ReturnType<typeof request>> | undefined;
    const turnCpu = await longestTurnCpu(async () => {
      refused = await request('author', 'POST', '/cms/v2/users/me', { json: body });
    });
    assert.deepEqual(refused!.json, tooLong(field, MAX_SENT_URL_OR_SLUG_LENGTH), field);
    assert.ok(turnCpu < cleaningMs / 2, `${field}: longest turn ${turnCpu.toFixed(1)} ms of CPU, cleaning the text ${cleaningMs.toFixed(1)} ms`);
  }
  // Within the bound, the reference's own limits after cleaning still apply.
  const slug = await request('author', 'POST', '/cms/v2/users/me?context=edit', { json: { slug: `<b>${'x'.repeat(40)}</b>` } });
  assert.equal(slug.json.slug, 'x'.repeat(40));
  const after = (await request('administrator', 'GET', `/cms/v2/users/${members.author.id}?context=edit`)).json;
  assert.deepEqual({ ...after, slug: before.slug, link: before.link, _links: before._links }, before, 'the refused updates changed nothing else');
});
