/**
 * A site holding content in every hidden state, each piece carrying its own marker word, for leak tests:
 * posts and pages that are drafts, pending, private, scheduled, trashed (from published and from draft) and
 * password-protected, media attached to each, a hidden author, a tag used by hidden posts only, and published
 * posts whose history (revisions, autosaves) or featured image holds hidden text.
 *
 * Hidden text reads `SECRET <kind> <marker>`; markers are made-up words that appear nowhere else, so a response
 * holding a marker the request did not send has leaked.
 */
import { createCms, type CmsOptions } from '../../src/cms.js';
import type { CmsRequest } from '../../src/core/types.js';
import { fixedClock } from '../../src/ports/clock.js';
import { send } from '../helpers/request.js';
import { png, quarters } from '../media/helpers.js';

/** A small picture: featured images must be images. */
const PICTURE = png(quarters(8, 8));

export const VIEWERS = ['anonymous', 'subscriber', 'contributor'] as const;
export type Viewer = (typeof VIEWERS)[number];

export const HIDDEN_STATES = ['draft', 'pending', 'private', 'future', 'trash', 'trash-draft', 'protected'] as const;
export type HiddenState = (typeof HIDDEN_STATES)[number];

export interface HiddenItem {
  state: HiddenState;
  base: 'posts' | 'pages';
  id: number;
  /** The marker of the item's own text (title, content, excerpt; for protected ones content and excerpt only). */
  marker: string;
  /** The attachment uploaded to it, and the marker of its text (none for a protected parent: that media is public). */
  media: number;
  mediaMarker: string | null;
  slug: string;
}

let counter = 0;
/** A made-up word: letters only, so no tokenizer or slug function splits or changes it. */
function marker(): string {
  counter++;
  let word = '';
  for (let value = counter * 7919 + 104729; word.length < 6 || value > 0; value = Math.floor(value / 26)) {
    word += String.fromCharCode(97 + (value % 26));
  }
  return `zq${word}`;
}

export async function makeHiddenSite(options: Partial<CmsOptions> = {}) {
  const cms = createCms({ clock: fixedClock('2026-11-21T17:11:35Z'), ...options, site: { url: 'http://example.test', ...options.site } });
  const ids: Record<string, number> = {};
  for (const role of ['administrator', 'author', 'contributor', 'subscriber']) {
    ids[role] = (await cms.users.create({ login: role, email: `${role}@example.test`, roles: [role] })).id;
  }
  const markers: string[] = [];
  const fresh = () => {
    const made = marker();
    markers.push(made);
    return made;
  };
  const hiddenAuthorMarker = fresh();
  ids.hiddenAuthor = (await cms.users.create({
    login: 'quietwriter', email: 'quiet@example.test', roles: ['author'], name: `SECRET user ${hiddenAuthorMarker}`,
  })).id;

  const as = (user: number) => (method: string, path: string, init: Parameters<typeof send>[3] = {}) => send(cms, method, path, { ...init, user: { id: user } });
  const admin = as(ids.administrator!);
  const ok = async (response: Promise<Awaited<ReturnType<typeof send>>>, expected: number) => {
    const answer = await response;
    if (answer.status !== expected) throw new Error(`fixture: ${answer.status} ${JSON.stringify(answer.json)}`);
    return answer.json;
  };
  const upload = async (parent: number, text: string | null) => {
    const query = new URLSearchParams({ post: String(parent), generate_sub_sizes: 'false' });
    if (text !== null) {
      query.set('title', `SECRET media title ${text}`);
      query.set('caption', `SECRET caption ${text}`);
      query.set('alt_text', `SECRET alt ${text}`);
      query.set('description', `SECRET description ${text}`);
    } else {
      query.set('caption', 'A caption anyone may read');
    }
    const request: CmsRequest = {
      method: 'POST', path: '/cms/v2/media', query: query.toString(), body: PICTURE,
      headers: { 'content-type': 'image/png', 'content-disposition': 'attachment; filename="picture.png"' },
      user: { id: ids.administrator! },
    };
    const response = await cms.handle(request);
    if (response.status !== 201) throw new Error(`fixture upload: ${response.status}`);
    return (response.body as { id: number }).id;
  };

  const tag = await ok(admin('POST', '/cms/v2/tags', { json: { name: 'Only on hidden posts' } }), 201);
  const items: HiddenItem[] = [];
  for (const base of ['posts', 'pages'] as const) {
    for (const state of HIDDEN_STATES) {
      const own = fresh();
      // Slugs carry no marker: a published child page's permalink holds its parent's path, as the site serves it.
      const slug = `hidden-${state}-${base}`;
      const fields: Record<string, unknown> = {
        title: `SECRET title ${own}`, content: `SECRET content ${own}`, excerpt: `SECRET excerpt ${own}`, slug, author: ids.author,
      };
      if (base === 'posts' && state !== 'protected') fields.tags = [tag.id];
      if (state === 'protected') Object.assign(fields, { title: `Protected ${base}`, slug: `protected-${base}`, status: 'publish', password: 'letmein' });
      else if (state === 'future') Object.assign(fields, { status: 'future', date: '2030-01-01T00:00:00' });
      else if (state === 'trash') fields.status = 'publish';
      else if (state === 'trash-draft') fields.status = 'draft';
      else fields.status = state;
      if (state === 'private' && base === 'posts') fields.sticky = true;
      const created = await ok(admin('POST', `/cms/v2/${base}`, { json: fields }), 201);
      const mediaMarker = state === 'protected' ? null : fresh();
      const media = await upload(created.id, mediaMarker);
      await ok(admin('POST', `/cms/v2/${base}/${created.id}`, { json: { featured_media: media } }), 200);
      if (state.startsWith('trash')) await ok(admin('DELETE', `/cms/v2/${base}/${created.id}`), 200);
      items.push({ state, base, id: created.id, marker: own, media, mediaMarker, slug: state === 'protected' ? `protected-${base}` : slug });
    }
  }

  // Published content pointing at hidden content, and published content with hidden history.
  const privatePost = items.find((item) => item.state === 'private' && item.base === 'posts')!;
  const privatePage = items.find((item) => item.state === 'private' && item.base === 'pages')!;
  const showcase = await ok(admin('POST', '/cms/v2/posts', { json: { title: 'Showcase', status: 'publish', featured_media: privatePost.media } }), 201);
  const child = await ok(admin('POST', '/cms/v2/pages', { json: { title: 'Child page', status: 'publish', parent: privatePage.id } }), 201);
  const historyMarker = fresh();
  const history = await ok(admin('POST', '/cms/v2/posts', { json: { title: 'History', content: `SECRET history ${historyMarker}`, status: 'draft' } }), 201);
  await ok(admin('POST', `/cms/v2/posts/${history.id}`, { json: { content: 'Public words', status: 'publish' } }), 200);
  const autosaveMarker = fresh();
  await ok(admin('POST', `/cms/v2/posts/${history.id}/autosaves`, { json: { content: `SECRET autosave ${autosaveMarker}` } }), 200);
  const quiet = await ok(as(ids.hiddenAuthor!)('POST', '/cms/v2/posts', { json: { title: 'Quiet draft', status: 'draft' } }), 201);
  const contributorDraft = await ok(as(ids.contributor!)('POST', '/cms/v2/posts', { json: { title: 'Contributor draft', content: 'Open words' } }), 201);
  const publicMedia = await upload(showcase.id, null);
  // A public comment whose address is private: neither the address nor a search by a part of it may show.
  const commenterMarker = fresh();
  await ok(admin('POST', '/cms/v2/comments', { json: {
    post: showcase.id, content: 'A public comment', author_name: 'Commenter', author_email: `${commenterMarker}@example.test`,
    author_ip: '198.51.100.23', status: 'approved',
  } }), 201);
  const revisions = await ok(admin('GET', `/cms/v2/posts/${history.id}/revisions`), 200) as { id: number }[];
  const autosaves = await ok(admin('GET', `/cms/v2/posts/${history.id}/autosaves`), 200) as { id: number }[];

  const viewerUser = (viewer: Viewer): number | null => (viewer === 'anonymous' ? null : ids[viewer]!);
  return {
    cms, ids, items, markers, tag: tag.id as number, hiddenAuthorMarker, commenterMarker,
    showcase: showcase.id as number, child: child.id as number, history: history.id as number,
    historyRevisions: revisions.map((revision) => revision.id), historyAutosaves: autosaves.map((autosave) => autosave.id),
    quietDraft: quiet.id as number, contributorDraft: contributorDraft.id as number, publicMedia,
    viewerUser,
  };
}

export type HiddenSite = Awaited<ReturnType<typeof makeHiddenSite>>;
