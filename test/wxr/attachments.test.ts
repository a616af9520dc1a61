import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OutboundError, type HttpClient, type HttpRequest } from '../../src/ports/http-client.js';
import { send } from '../helpers/request.js';
import { makeCms, PHOTO_URL, PNG, SAMPLE } from './fixture.js';

function fakeClient(answer: (request: HttpRequest) => Uint8Array | Error): HttpClient & { urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    async fetch(request) {
      urls.push(request.url);
      const body = answer(request);
      if (body instanceof Error) throw body;
      return { status: 200, headers: {}, body, url: request.url };
    },
  };
}

describe('attachment files', () => {
  test('stay remote unless fetching is asked for', async () => {
    const httpClient = fakeClient(() => PNG);
    const cms = makeCms({ httpClient });
    const summary = await cms.importWxr(SAMPLE);
    assert.deepEqual(httpClient.urls, []);
    assert.equal(summary.filesFetched, 0);
    assert.deepEqual(await cms.deps.blobs.list(''), []);
    // The media routes show the remote address until the file is fetched.
    const admin = await cms.users.create({ login: 'admin', email: 'admin@new.example', roles: ['administrator'] });
    const media = (await send(cms, 'GET', `/cms/v2/media/${summary.ids.posts.get(10)}?context=edit`, { user: admin })).json;
    assert.equal(media.source_url, PHOTO_URL);
    assert.ok(String(media.description.rendered).includes(PHOTO_URL), media.description.rendered);
  });

  test('are fetched through the HTTP client into the uploads store when asked, and their addresses follow', async () => {
    const httpClient = fakeClient(() => PNG);
    const cms = makeCms({ httpClient });
    const admin = await cms.users.create({ login: 'admin', email: 'admin@new.example', roles: ['administrator'] });
    const summary = await cms.importWxr(SAMPLE, { fetchAttachments: true });
    assert.deepEqual(httpClient.urls, [PHOTO_URL]);
    assert.equal(summary.filesFetched, 1);
    // The bytes are a PNG whatever the name says, so it is stored as one (as uploads are).
    assert.deepEqual((await cms.deps.blobs.list('')).map((blob) => blob.key), ['2024/03/harbour.png']);
    const media = (await send(cms, 'GET', `/cms/v2/media/${summary.ids.posts.get(10)}?context=edit`, { user: admin })).json;
    assert.deepEqual(
      [media.source_url, media.mime_type, media.media_details.width, media.media_details.height, media.guid.raw],
      ['http://new.example/uploads/2024/03/harbour.png', 'image/png', 1, 1, 'http://new.example/uploads/2024/03/harbour.png'],
    );
    const post = await cms.deps.storage.get('posts', summary.ids.posts.get(11)!);
    assert.match(String(post!.content), /<img src="http:\/\/new\.example\/uploads\/2024\/03\/harbour-300x200\.jpg" \/>/);
    assert.equal(post!.featured_media, summary.ids.posts.get(10));
  });

  test('a file that cannot be fetched stays remote, with a warning', async () => {
    const httpClient = fakeClient((request) => new OutboundError('blocked_address', 'The address is not public.', request.url));
    const cms = makeCms({ httpClient });
    const summary = await cms.importWxr(SAMPLE, { fetchAttachments: true });
    assert.equal(summary.created.attachments, 1);
    assert.match(summary.warnings[0]!, /the file of attachment 10 was not fetched \(blocked_address: The address is not public\.\); it stays at http:\/\/old\.example/);
    assert.equal((await cms.deps.storage.get('posts', summary.ids.posts.get(10)!))!.source_url, PHOTO_URL);
  });

  test('the default client refuses loopback and private addresses', async () => {
    const cms = makeCms();
    const summary = await cms.importWxr(SAMPLE.replace(PHOTO_URL, 'http://127.0.0.1:9/secret.png'), { fetchAttachments: true });
    assert.equal(summary.filesFetched, 0);
    assert.match(summary.warnings[0]!, /was not fetched \(blocked_address/);
  });
});
