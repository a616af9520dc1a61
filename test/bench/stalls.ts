/**
 * Event-loop stalls on the largest content an author may store: `npm run bench:stalls [-- case[,case…]]`.
 * For each worst case, the work runs while a concurrent reader asks for a small post over and over through
 * `cms.handle()` in the same process; printed are the work's own time, the longest event-loop delay seen
 * meanwhile (the longest gap between ticks of a 5 ms timer, beyond 5 ms), the main thread's CPU time within the
 * longest gap (Linux; a busy machine's wall-clock gaps also hold time spent waiting for a core), the reader's
 * slowest answer and the longest garbage collection (`gc max`, as `PerformanceObserver` reports it; each step
 * starts from a collected heap). Bodies go in as bytes and answers are encoded as an adapter encodes them. The goal is
 * that no request holds the loop longer than 50 ms. Cases:
 *   render-*        an 8 MiB post of the densest smart-punctuation shapes (`bench:render`) and of smileys (a
 *                   rendering in two-byte characters): the write, then the first read (nothing cached yet)
 *   revisions-*     the revisions of such a post, read for the first time
 *   pretty-jsonp    such a post (rendered already) read with `_pretty`, then with `_jsonp`
 *   attachment-text an attachment whose description and caption are 8 MiB of such text each: the two edits,
 *                   then the first read (`-sqlite`: in a SQLite file, as `quire serve` keeps it; `-postgres`: in
 *                   a private PostgreSQL server, as the storage tests start one)
 *   post-excerpt    a post whose content and excerpt are 8 MiB of such text each, written one per request, then
 *                   the first read (`-sqlite`, `-postgres` as above)
 *   post-html-author the same with 8 MiB of ordinary paragraphs each, written by an author (whose HTML is
 *                   sanitised as it is stored)
 *   post-html-admin the same written by the administrator (nothing sanitised)
 *   slider          a slider of 200 slides × 50 layers (about 6 MiB): the write through `cms.sliders`, then the
 *                   first read; the write as a request body, then the first read
 *   batch           one batch of 2,000 post creations (`maxBatchSize: 2000`)
 *   wxr-export      the WXR export of 10,000 posts
 *   form-template   an editor without `unfiltered_html` writes a form whose template, then mail body, are 8 MiB of
 *                   paragraphs; the read, the visitors' schema and refill, and a submission sending that mail
 *   form-tags       the same opened by 1,000 required fields (the most a template may hold) and their mail tags
 *   comment-html    65,525-byte comments of paragraphs and links by a visitor and an author, their first reads,
 *                   and the first read of a page of 100 of them
 *   term-text       an editor writes a category's description, then its name, each 8 MiB of paragraphs (`-amp`: of
 *                   `a & b < c `); then the first read. Each step is named with its answer's status
 *   user-text       the same for an author's own description, display, first and last name and nickname
 *   settings-text   the administrator's title, tagline, date format, URL and email, each 8 MiB of quotes and tags
 *   media-text      an author's alt text and title of an attachment (`-amp` as above)
 *   application-password-name  an author's application password named with 8 MiB
 *   signup-form-text a sign-up form's title, markup and a message, each 8 MiB
 *   comment-author  a visitor's comment, then a moderator's update, with one author field (name, email, URL, user
 *                   agent, address) or the content of 16 MiB per request (`-amp`: of `a & b < c `), and a list
 *                   filtered by a 16 MiB address
 *   form-texts      a form of 1,000 required fields whose message, additional settings, second mail's body and
 *                   each other mail field are written with 8 MiB, then at their bounds; the read, schema, refill
 *                   and two submissions
 *   search          searches of 512 KiB, 1 MiB and 16 MiB on every list that takes one, against 1,000 posts
 *                   (`-sqlite`: in a SQLite file)
 *   urlencoded-body a visitor's 8 MiB form bodies: one escaped value, pluses, escapes that are not UTF-8, a name of
 *                   dots, a name of unclosed brackets (a comment on a post that does not exist: the parse is the work)
 *   json-escapes    a visitor's 8 MiB JSON bodies of a string of backslashes, of escaped surrogate pairs, of `\\u`
 *   json-fallbacks  a visitor's 8 MiB JSON bodies the pieces cannot follow: nested past the limit after 8 MiB of small
 *                   objects, an open bracket, a closing bracket too many, text after the value, a long number (the
 *                   JSON limits raised, as a host taking such bodies would)
 *   form-json-values a visitor's 8 MiB JSON submissions to a contact form of one field of small objects, numbers
 *                   or one-item arrays; then to a sign-up form
 *   parsed-body     a visitor's comment whose body the host's framework parsed: 8 MiB of small objects, of numbers
 *   json-values     8 MiB JSON bodies of millions of tiny values (numbers, empty objects, empty lists in a map, a map of
 *                   700,000 keys), then the most of each the JSON limits let through: an author's post and slider
 *                   saves, and a visitor's comment; each step is named with its answer's status
 *   multipart-text  a visitor's 8 MiB multipart bodies of one text field: ASCII, two-byte and four-byte characters,
 *                   and one in ISO-8859-1; then 1,000 fields of 8 KiB, and 1,020 empty parts (the most kept)
 * Wall-clock figures swing with other work on the machine; the load average is printed with them, and the verdict
 * `over` goes by the CPU time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DEFAULT_MAX_ANONYMOUS_BODY_BYTES } from '../../src/cms.js';
import { DEFAULT_MAX_JSON_MEMBERS, DEFAULT_MAX_JSON_VALUES } from '../../src/core/json-body.js';
import { createCms, createMemoryStorage, encodeResponse, type Cms } from '../../src/index.js';
import { postgresStorage } from '../../src/storage/postgres/index.js';
import { sqliteStorage } from '../../src/storage/sqlite/index.js';
import type { StoragePort } from '../../src/ports/storage.js';
import { startTestPostgres, type TestPostgres } from '../storage/postgres-server.js';
import { sliderLayer as layer } from './slider-layer.js';
import { mainThreadCpuMs } from '../helpers/event-loop.js';
import { MESSAGE_KEYS } from '../../src/forms/defaults.js';
import { MAX_ADDITIONAL_SETTINGS_LENGTH, MAX_MESSAGE_LENGTH } from '../../src/forms/properties.js';

const SIZE = DEFAULT_MAX_ANONYMOUS_BODY_BYTES;
const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);
const GOAL_MS = 50;

interface Site { cms: Cms; admin: { id: number }; readerPath: string }

async function site(options: Partial<Parameters<typeof createCms>[0]> = {}): Promise<Site> {
  const cms = createCms({ storage: createMemoryStorage(), site: { url: 'http://bench.test' }, ...options });
  const admin = await cms.users.create({ login: 'admin', email: 'admin@bench.test', roles: ['administrator'] });
  const small = await send({ cms, admin, readerPath: '' }, 'POST', '/cms/v2/posts', wire({ title: 'Small', content: '<p>A small post.</p>', status: 'publish' }));
  return { cms, admin, readerPath: `/cms/v2/posts/${idOf(small)}` };
}

/** The request body as a server reads it off the wire: bytes, encoded before the measured work starts. */
const wire = (body: unknown) => new TextEncoder().encode(JSON.stringify(body));

/**
 * One request, answered and encoded for the wire as an adapter does (the encoding is part of the work measured);
 * gives back the bytes sent.
 */
async function send(target: Site, method: string, path: string, body?: Uint8Array): Promise<Uint8Array | null> {
  const answer = await target.cms.handle({
    method, path, query: '', user: target.admin, headers: { 'content-type': 'application/json' }, body,
  });
  const encoded = encodeResponse(answer);
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${new TextDecoder().decode(encoded.body ?? new Uint8Array()).slice(0, 300)}`);
  return encoded.body;
}

const idOf = (bytes: Uint8Array | null) => (JSON.parse(new TextDecoder().decode(bytes!)) as { id: number }).id;

interface Stall { workMs: number; loopMaxMs: number; loopMaxCpuMs: number; readerMaxMs: number; reads: number; gcMaxMs: number }

/**
 * Runs `work` while a reader asks for a small post every 2 ms; the reader's wait is from when it meant to ask
 * (its timer due) to the answer, so a loop held by the work counts in full.
 */
setFlagsFromString('--expose-gc');
/** A full collection, so that each step's collections are of its own garbage. */
const collectGarbage = runInNewContext('gc') as () => void;

async function measured(target: Site, work: () => Promise<unknown>): Promise<Stall> {
  collectGarbage();
  // The longest gap between ticks of a 5 ms timer beyond its 5 ms: how long the loop was held at a time.
  let loopMaxMs = 0;
  let lastTick = performance.now();
  // The main thread's CPU time between ticks: on a busy machine a wall-clock gap also holds time spent waiting for
  // a core, which the CPU time leaves out.
  let loopMaxCpuMs = 0;
  let lastCpu = mainThreadCpuMs();
  const ticker = setInterval(() => {
    const now = performance.now();
    const cpu = mainThreadCpuMs();
    loopMaxMs = Math.max(loopMaxMs, now - lastTick - 5);
    loopMaxCpuMs = Math.max(loopMaxCpuMs, cpu - lastCpu);
    lastTick = now;
    lastCpu = cpu;
  }, 5);
  // The longest garbage collection meanwhile (its pause, or the incremental marking's last step).
  let gcMaxMs = 0;
  const collections = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMaxMs = Math.max(gcMaxMs, entry.duration);
  });
  collections.observe({ entryTypes: ['gc'] });
  let running = true;
  let readerMaxMs = 0;
  let reads = 0;
  const reader = (async () => {
    while (running) {
      const due = performance.now() + 2;
      await new Promise((resolve) => setTimeout(resolve, 2));
      const answer = await target.cms.handle({ method: 'GET', path: target.readerPath, query: '', headers: {} });
      if (answer.status !== 200) throw new Error(`reader: ${answer.status}`);
      readerMaxMs = Math.max(readerMaxMs, performance.now() - due);
      reads += 1;
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 20));
  loopMaxMs = 0;
  loopMaxCpuMs = 0;
  gcMaxMs = 0;
  const started = performance.now();
  await work();
  const workMs = performance.now() - started;
  // A turn for the ticker's and the reader's timers, late by the last stall, to fire.
  await new Promise((resolve) => setTimeout(resolve, 30));
  clearInterval(ticker);
  collections.disconnect();
  running = false;
  await reader;
  return { workMs, loopMaxMs, loopMaxCpuMs, readerMaxMs, reads, gcMaxMs };
}


type Case = () => Promise<Array<[string, Stall]>>;

/** Where a case keeps its site: a fresh store, and what to do when the case is over. */
interface Store { storage: () => Promise<StoragePort>; done: () => Promise<void> }

const memory: Store = { storage: async () => createMemoryStorage(), done: async () => {} };

let sqliteFolder: string | null = null;
const sqlite: Store = {
  storage: async () => {
    sqliteFolder ??= mkdtempSync(join(tmpdir(), 'quire-stalls-'));
    return sqliteStorage({ path: join(sqliteFolder, `bench-${Date.now()}.db`) });
  },
  done: async () => {
    if (sqliteFolder) rmSync(sqliteFolder, { recursive: true, force: true });
    sqliteFolder = null;
  },
};

let postgresServer: TestPostgres | null = null;
const postgres: Store = {
  storage: async () => {
    if (!postgresServer) {
      const started = await startTestPostgres();
      if ('skip' in started) throw new Error(`PostgreSQL: ${started.skip}`);
      postgresServer = started.server;
    }
    return postgresStorage({ connectionString: postgresServer.connectionString, schema: `stalls_${Date.now()}`, max: 4 });
  },
  done: async () => {
    await postgresServer?.stop();
    postgresServer = null;
  },
};

/**
 * Two 8 MiB texts of one record, each written by its own request (each must fit the parsed-body limit), so the
 * second write stores a 16 MiB record; then the first read. The bodies are encoded before the measured work
 * starts, as a server reads them off the wire.
 */
async function twoLargeTexts(
  store: Store, create: (target: Site) => Promise<string>, first: string, second: string, units = ['"', '"1\''], role = 'administrator',
): Promise<Array<[string, Stall]>> {
  const storage = await store.storage();
  try {
    const made = await site({ storage, maxParsedBodyBytes: 4 * SIZE });
    // The writer: the administrator, or a user of another role (whose HTML is sanitised as it is stored).
    const writer = role === 'administrator' ? made.admin : await made.cms.users.create({ login: role, email: `${role}@bench.test`, roles: [role] });
    const target = { ...made, admin: writer };
    const path = await create(target);
    const firstRequest = wire({ [first]: fill(units[0]!) });
    const secondRequest = wire({ [second]: fill(units[1]!) });
    const firstWrite = await measured(target, () => send(target, 'POST', path, firstRequest));
    const secondWrite = await measured(target, () => send(target, 'POST', path, secondRequest));
    const read = await measured(target, () => send(target, 'GET', path));
    return [[`${first}: write`, firstWrite], [`${second}: write`, secondWrite], ['first read', read]];
  } finally {
    await storage.close?.();
    await store.done();
  }
}

const attachmentText = (store: Store) => twoLargeTexts(store, async (target) => {
  const uploaded = await target.cms.handle({
    method: 'POST', path: '/cms/v2/media', query: '', user: target.admin,
    headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="paper.pdf"' }, body: new TextEncoder().encode('%PDF-1.4\n'),
  });
  if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status}`);
  return `/cms/v2/media/${idOf(encodeResponse(uploaded).body)}`;
}, 'description', 'caption');

const createPost = async (target: Site) => `/cms/v2/posts/${idOf(await send(target, 'POST', '/cms/v2/posts', wire({ title: 'Long', status: 'publish' })))}`;
const postExcerpt = (store: Store) => twoLargeTexts(store, createPost, 'content', 'excerpt');
const PARAGRAPH = '<p>Some <b>bold</b> words and <a href="http://bench.test/">a link</a>.</p>\n';


const renderCase = (unit: string): Case => async () => {
  // JSON escapes each `"`, so the request is larger than the 8 MiB of content.
  const target = await site({ maxParsedBodyBytes: 4 * SIZE });
  const request = wire({ title: 'Dense', content: fill(unit), status: 'publish' });
  let written: Uint8Array | null = null;
  const write = await measured(target, async () => {
    written = await send(target, 'POST', '/cms/v2/posts', request);
  });
  const id = idOf(written);
  const read = await measured(target, () => send(target, 'GET', `/cms/v2/posts/${id}`));
  return [['write', write], ['first read', read]];
};

/** The revisions of an 8 MiB post, read for the first time (each renders its content, as the post does). */
const revisionsCase = (unit: string): Case => async () => {
  const target = await site({ maxParsedBodyBytes: 4 * SIZE });
  const id = idOf(await send(target, 'POST', '/cms/v2/posts', wire({ title: 'Dense', content: fill(unit), status: 'publish' })));
  await send(target, 'POST', `/cms/v2/posts/${id}`, wire({ title: 'Dense, edited' }));
  return [['first read', await measured(target, () => send(target, 'GET', `/cms/v2/posts/${id}/revisions`))]];
};

// Text a client stores outside posts: form templates and mail, comments.

/** A user of `role` on `target`, who then makes the requests. */
async function writerOf(target: Site, role: string): Promise<Site> {
  const user = await target.cms.users.create({ login: role, email: `${role}@bench.test`, roles: [role] });
  return { ...target, admin: user };
}

/** A request without a user (an anonymous visitor), answered and encoded as an adapter does. */
async function sendAnonymous(target: Site, method: string, path: string, body?: Uint8Array): Promise<Uint8Array | null> {
  return send({ ...target, admin: undefined as unknown as Site['admin'] }, method, path, body);
}

/**
 * A form whose template and mail body are each the largest text one request may carry, written by an editor
 * without `unfiltered_html` (whose markup is filtered as it is stored): the create, the update of the mail, the
 * editor's read, then what visitors may ask of it and a visitor's submission (which composes and sends the mail).
 * `fields` form-tags (distinct required text fields; at most `MAX_FORM_TAGS`) open the template, and their mail tags
 * (at most `MAX_MAIL_TAGS`) the mail body.
 */
const formTemplate = (unit: string, fields = 0): Case => async () => {
  const made = await site({ maxParsedBodyBytes: 4 * SIZE, capabilities: { allowUnfilteredHtml: false } });
  const target = await writerOf(made, 'editor');
  const names = Array.from({ length: fields }, (_, index) => `field-${index}`);
  const tags = names.map((name) => `<label>[text* ${name} placeholder "Your answer"]</label>\n`).join('');
  const createRequest = wire({ title: 'Large', form: tags + fill(unit).slice(tags.length) });
  let created: Uint8Array | null = null;
  const create = await measured(target, async () => {
    created = await send(target, 'POST', '/forms/v1/contact-forms', createRequest);
  });
  const id = idOf(created);
  const path = `/forms/v1/contact-forms/${id}`;
  const mailTags = names.map((name) => `[${name}] `).join('');
  const mailRequest = wire({ mail: { subject: 'Hello', sender: 'editor@bench.test', recipient: 'admin@bench.test', body: mailTags + fill(unit).slice(mailTags.length) } });
  const update = await measured(target, () => send(target, 'POST', path, mailRequest));
  const read = await measured(target, () => send(target, 'GET', path));
  const schema = await measured(target, () => sendAnonymous(target, 'GET', `${path}/feedback/schema`));
  const refill = await measured(target, () => sendAnonymous(target, 'GET', `${path}/refill`));
  const submission = wire({ _wpcf7: String(id), _wpcf7_unit_tag: `wpcf7-f${id}-o1`, ...Object.fromEntries(names.map((name) => [name, 'An answer'])) });
  const feedback = await measured(target, async () => {
    const answer = await target.cms.handle({
      method: 'POST', path: `${path}/feedback`, query: '', headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (bench)' }, body: submission,
    });
    const status = (JSON.parse(new TextDecoder().decode(encodeResponse(answer).body!)) as { status: string }).status;
    if (status !== 'mail_sent') throw new Error(`feedback: ${status}`);
  });
  return [
    ['create (template)', create], ['update (mail body)', update], ['read', read], ['feedback schema', schema], ['refill', refill],
    ['feedback (mail sent)', feedback],
  ];
};

/**
 * Comments of the largest length (65,525 bytes) of dense markup, by an anonymous visitor and by an author (neither
 * may post unfiltered HTML), on a server that has sanitised a comment before; then the first read of each, and of
 * a page of 100 such comments.
 */
const commentHtml = (unit: string): Case => async () => {
  const target = await site({ comments: { allowAnonymous: true, floodSeconds: 0, maxLinks: 0, approveKnownAuthors: false }, throttle: false });
  const author = await writerOf(target, 'author');
  const post = idOf(await send(target, 'POST', '/cms/v2/posts', wire({ title: 'Discussed', content: '<p>Say something.</p>', status: 'publish' })));
  const text = (variant: string) => `${variant} ${unit.repeat(Math.floor((65_525 - variant.length - 1) / unit.length))}`;
  await send(author, 'POST', '/cms/v2/comments', wire({ post, content: `<b>A first</b> ${unit}` }));
  let anonymousId = 0;
  const anonymous = await measured(target, async () => {
    anonymousId = idOf(await sendAnonymous(target, 'POST', '/cms/v2/comments', wire({ post, author_name: 'Visitor', author_email: 'visitor@bench.test', content: text('visitor') })));
  });
  let authorId = 0;
  const byAuthor = await measured(author, async () => {
    authorId = idOf(await send(author, 'POST', '/cms/v2/comments', wire({ post, content: text('author') })));
  });
  const readOne = await measured(target, () => sendAnonymous(target, 'GET', `/cms/v2/comments/${anonymousId}`));
  const readOther = await measured(target, () => sendAnonymous(target, 'GET', `/cms/v2/comments/${authorId}`));
  for (let index = 0; index < 97; index += 1) await send(author, 'POST', '/cms/v2/comments', wire({ post, content: text(`author ${index}`) }));
  const page = await measured(target, async () => {
    const answer = await target.cms.handle({ method: 'GET', path: '/cms/v2/comments', query: `post=${post}&per_page=100`, headers: {} });
    if (answer.status !== 200) throw new Error(`comments: ${answer.status}`);
    return encodeResponse(answer);
  });
  return [
    ['anonymous create', anonymous], ['author create', byAuthor], ['first read (anonymous)', readOne], ['first read (author)', readOther],
    ['first read of 100', page],
  ];
};

const CLIENT_TEXT_CASES: Record<string, Case> = {
  'form-template': formTemplate(PARAGRAPH),
  'form-tags': formTemplate(PARAGRAPH, 1000),
  'comment-html': commentHtml(PARAGRAPH),
};

// Other text a client stores: terms, users, settings, sign-up forms.

/** One request whose status is told back (a refusal is an answer too), answered and encoded as an adapter does. */
async function statusOf(target: Site, method: string, path: string, body?: Uint8Array): Promise<number> {
  const answer = await target.cms.handle({
    method, path, query: '', user: target.admin, headers: { 'content-type': 'application/json' }, body,
  });
  encodeResponse(answer);
  return answer.status;
}

/**
 * Each field written by its own request of the largest text one request may carry, by `role` (each step is named
 * with its answer's status: a refused text must be refused quickly); then the first read.
 */
const storedText = (role: string, path: (target: Site) => Promise<{ write: string; read: string }>, fields: string[], unit = PARAGRAPH): Case => async () => {
  const made = await site({ maxParsedBodyBytes: 4 * SIZE, capabilities: { allowUnfilteredHtml: false } });
  const target = role === 'administrator' ? made : await writerOf(made, role);
  const { write, read } = await path(target);
  const steps: Array<[string, Stall]> = [];
  for (const field of fields) {
    const request = wire(field.includes('.') ? { [field.split('.')[0]!]: { [field.split('.')[1]!]: fill(unit) } } : { [field]: fill(unit) });
    let status = 0;
    const stall = await measured(target, async () => {
      status = await statusOf(target, 'POST', write, request);
    });
    steps.push([`${field}: ${status}`, stall]);
  }
  steps.push(['first read', await measured(target, () => send(target, 'GET', read))]);
  return steps;
};

const termPath = async (target: Site) => {
  const path = `/cms/v2/categories/${idOf(await send(target, 'POST', '/cms/v2/categories', wire({ name: 'Long' })))}`;
  return { write: path, read: path };
};
const userPath = async () => ({ write: '/cms/v2/users/me', read: '/cms/v2/users/me' });
const settingsPath = async () => ({ write: '/cms/v2/settings', read: '/cms/v2/settings' });
const signupFormPath = async (target: Site) => {
  const path = `/mailing/v1/forms/${idOf(await send(target, 'POST', '/mailing/v1/forms', wire({ title: 'Long' })))}`;
  return { write: path, read: path };
};

const mediaPath = async (target: Site) => {
  const uploaded = await target.cms.handle({
    method: 'POST', path: '/cms/v2/media', query: '', user: target.admin,
    headers: { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="paper.pdf"' }, body: new TextEncoder().encode('%PDF-1.4\n'),
  });
  if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status}`);
  const path = `/cms/v2/media/${idOf(encodeResponse(uploaded).body)}`;
  return { write: path, read: path };
};
const applicationPasswordPath = async () => ({ write: '/cms/v2/users/me/application-passwords', read: '/cms/v2/users/me/application-passwords' });

const STORED_TEXT_CASES: Record<string, Case> = {
  'term-text': storedText('editor', termPath, ['description', 'name', 'slug']),
  'term-text-amp': storedText('editor', termPath, ['description', 'name'], 'a & b < c '),
  'user-text': storedText('author', userPath, ['description', 'name', 'first_name', 'last_name', 'nickname', 'url', 'slug', 'email']),
  'user-text-amp': storedText('author', userPath, ['description', 'name', 'first_name', 'last_name', 'nickname'], 'a & b < c '),
  'settings-text': storedText('administrator', settingsPath, ['title', 'description', 'date_format', 'url', 'email'], '"1\' <b>'),
  'media-text': storedText('author', mediaPath, ['alt_text', 'title']),
  'media-text-amp': storedText('author', mediaPath, ['alt_text', 'title'], 'a & b < c '),
  'application-password-name': storedText('author', applicationPasswordPath, ['name'], 'a & b < c '),
  'signup-form-text': storedText('administrator', signupFormPath, ['title', 'content', 'messages.subscribed']),
};

// Texts a visitor or an editor sends with a comment, and search texts.

/** One request whose status is told back, with its query string, by `user` (none: a visitor). */
async function statusWith(target: Site, method: string, path: string, query: string, body?: Uint8Array, user?: { id: number }): Promise<number> {
  const answer = await target.cms.handle({
    method, path, query, ...(user ? { user } : {}), headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (bench)' }, body,
  });
  encodeResponse(answer);
  return answer.status;
}

/**
 * A visitor's comment with one field of 16 MiB (`2 × SIZE` characters of `unit`) per request, the others ordinary;
 * then the administrator's update of an existing comment, one field of 16 MiB per request. Each step is named with
 * its answer's status.
 */
const commentAuthor = (unit: string): Case => async () => {
  const target = await site({
    maxParsedBodyBytes: 8 * SIZE, maxAnonymousBodyBytes: 8 * SIZE, maxBodyBytes: 8 * SIZE,
    comments: { allowAnonymous: true, floodSeconds: 0, maxLinks: 0, approveKnownAuthors: false }, throttle: false,
  });
  const post = idOf(await send(target, 'POST', '/cms/v2/posts', wire({ title: 'Discussed', content: '<p>Say something.</p>', status: 'publish' })));
  const large = unit.repeat(Math.ceil((2 * SIZE) / unit.length)).slice(0, 2 * SIZE);
  const ordinary = { post, author_name: 'Visitor', author_email: 'visitor@bench.test', author_url: 'http://visitor.test/', content: 'A word.' };
  // An address of that length (its form is valid; its length is not).
  const address = `${'a'.repeat(2 * SIZE - 10)}@bench.test`;
  const steps: Array<[string, Stall]> = [];
  for (const [index, field] of ['author_name', 'author_email', 'author_email (address)', 'author_url', 'author_user_agent', 'content'].entries()) {
    const request = wire({ ...ordinary, content: `A word, ${index}.`, ...(field === 'author_email (address)' ? { author_email: address } : { [field]: large }) });
    let status = 0;
    const stall = await measured(target, async () => {
      status = await statusWith(target, 'POST', '/cms/v2/comments', '', request);
    });
    steps.push([`visitor ${field}: ${status}`, stall]);
  }
  const comment = idOf(await sendAnonymous(target, 'POST', '/cms/v2/comments', wire({ ...ordinary, content: 'Edited later.' })));
  for (const field of ['author_name', 'author_email', 'author_url', 'author_user_agent', 'author_ip', 'content']) {
    const request = wire({ [field]: large });
    let status = 0;
    const stall = await measured(target, async () => {
      status = await statusWith(target, 'POST', `/cms/v2/comments/${comment}`, '', request, target.admin);
    });
    steps.push([`editor ${field}: ${status}`, stall]);
  }
  let status = 0;
  const list = await measured(target, async () => {
    status = await statusWith(target, 'GET', '/cms/v2/comments', `author_email=${address}`, undefined, target.admin);
  });
  steps.push([`list by author_email: ${status}`, list]);
  return steps;
};

/**
 * Searches of 512 KiB, 1 MiB and 16 MiB (words, so the text is searched whole, and one unbroken word) on every list that
 * takes `search`, against 1,000 stored posts, 100 comments and 100 categories; the administrator asks, in the
 * query string as `cms.handle` takes it. Each step is named with its answer's status.
 */
const searchCase = (store: Store): Case => async () => {
  const storage = await store.storage();
  try {
    const target = await site({ storage, comments: { floodSeconds: 0, approveKnownAuthors: false }, throttle: false });
    let firstPost = 0;
    for (let index = 0; index < 1000; index += 1) {
      const id = idOf(await send(target, 'POST', '/cms/v2/posts', wire({
        title: `Post ${index} about lorem`, content: `<p>Post ${index} says lorem ipsum dolor sit amet, a few words.</p>`, excerpt: `Excerpt ${index}`, status: 'publish',
      })));
      firstPost ||= id;
    }
    for (let index = 0; index < 100; index += 1) {
      await send(target, 'POST', '/cms/v2/comments', wire({ post: firstPost, content: `Comment ${index} says lorem ipsum.` }));
      await send(target, 'POST', '/cms/v2/categories', wire({ name: `Category ${index} lorem` }));
    }
    await send(target, 'POST', `/cms/v2/posts/${firstPost}`, wire({ title: 'Post 0 about lorem, edited' }));
    await send(target, 'POST', '/forms/v1/contact-forms', wire({ title: 'Lorem form', form: '[text your-name]' }));
    const routes = [
      '/cms/v2/posts', '/cms/v2/pages', '/cms/v2/media', '/cms/v2/comments', '/cms/v2/users', '/cms/v2/categories', '/cms/v2/tags',
      '/cms/v2/search', `/cms/v2/posts/${firstPost}/revisions`, '/forms/v1/contact-forms',
    ];
    const steps: Array<[string, Stall]> = [];
    // 512 KiB of words are a query string under `MAX_QUERY_STRING_LENGTH`; 1 MiB of words and more are over it.
    const sizes = [['512 KiB words', 'lorem ipsum ', 2 ** 19], ['1 MiB words', 'lorem ipsum ', 2 ** 20], ['16 MiB words', 'lorem ipsum ', 2 ** 24], ['16 MiB one word', 'lorem', 2 ** 24]] as const;
    for (const [label, unit, size] of sizes) {
      const query = `search=${encodeURIComponent(unit.repeat(Math.ceil(size / unit.length)).slice(0, size))}`;
      for (const route of routes) {
        let status = 0;
        const stall = await measured(target, async () => {
          status = await statusWith(target, 'GET', route, query, undefined, target.admin);
        });
        steps.push([`${label} ${route.replace(/^\/\w+\/v\d\//, '').replace(/\/\d+\//, '/{id}/')}: ${status}`, stall]);
      }
    }
    return steps;
  } finally {
    await storage.close?.();
    await store.done();
  }
};

/**
 * A form of 1,000 required fields (the most a template may hold) whose other properties are each the largest text
 * one request may carry, written by an editor one property per request: a message (shown for every field left
 * empty), the additional settings (lines of settings), the second mail's body and each other field of the mail;
 * then every message and the settings at their bounds, the editor's read, the visitors' schema and refill, a
 * complete submission and one that leaves every field empty.
 */
const formTexts: Case = async () => {
  const made = await site({ maxParsedBodyBytes: 4 * SIZE, capabilities: { allowUnfilteredHtml: false } });
  const target = await writerOf(made, 'editor');
  const names = Array.from({ length: 1000 }, (_, index) => `field-${index}`);
  const template = names.map((name) => `<label>[text* ${name}]</label>\n`).join('');
  const id = idOf(await send(target, 'POST', '/forms/v1/contact-forms', wire({ title: 'Texts', form: template })));
  const path = `/forms/v1/contact-forms/${id}`;
  const settings = Array.from({ length: Math.ceil(SIZE / 16) }, (_, index) => `flag_${index}: on`).join('\n').slice(0, SIZE);
  const writes: Array<[string, Uint8Array]> = [
    ['messages.invalid_required', wire({ messages: { invalid_required: fill(PARAGRAPH) } })],
    ['additional_settings', wire({ additional_settings: settings })],
    ['mail_2 body', wire({ mail_2: { active: true, subject: 'Copy', sender: 'editor@bench.test', recipient: 'admin@bench.test', body: fill(PARAGRAPH) } })],
    ...['subject', 'sender', 'recipient', 'additional_headers', 'attachments'].map((field): [string, Uint8Array] => [
      `mail ${field}`,
      wire({ mail: { subject: 'Hello', sender: 'editor@bench.test', recipient: 'admin@bench.test', body: '[field-0]', [field]: fill(field === 'additional_headers' ? 'Reply-To: a@bench.test\n' : PARAGRAPH) } }),
    ]),
    ['every message at its bound', wire({ messages: Object.fromEntries(MESSAGE_KEYS.map((key) => [key, fill(PARAGRAPH).slice(0, MAX_MESSAGE_LENGTH)])) })],
    ['settings at their bound', wire({ additional_settings: settings.slice(0, MAX_ADDITIONAL_SETTINGS_LENGTH) })],
  ];
  const steps: Array<[string, Stall]> = [];
  for (const [label, request] of writes) {
    let status = 0;
    const stall = await measured(target, async () => {
      status = await statusOf(target, 'POST', path, request);
    });
    steps.push([`${label}: ${status}`, stall]);
  }
  steps.push(['read', await measured(target, () => send(target, 'GET', path))]);
  steps.push(['feedback schema', await measured(target, () => sendAnonymous(target, 'GET', `${path}/feedback/schema`))]);
  steps.push(['refill', await measured(target, () => sendAnonymous(target, 'GET', `${path}/refill`))]);
  for (const [label, fields] of [['feedback (complete)', Object.fromEntries(names.map((name) => [name, 'An answer']))], ['feedback (all empty)', {}]] as const) {
    const submission = wire({ _wpcf7: String(id), _wpcf7_unit_tag: `wpcf7-f${id}-o1`, ...fields });
    let status = '';
    const stall = await measured(target, async () => {
      const answer = await target.cms.handle({
        method: 'POST', path: `${path}/feedback`, query: '', headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (bench)' }, body: submission,
      });
      status = (JSON.parse(new TextDecoder().decode(encodeResponse(answer).body!)) as { status: string }).status;
    });
    steps.push([`${label}: ${status}`, stall]);
  }
  return steps;
};

/**
 * Bodies a visitor may send, the largest the anonymous body limit lets through, each shaped to cost its parser the
 * most: a comment on a post that does not exist, refused once the body is parsed (each step is named with its
 * answer's status).
 */
const visitorBodies = (type: string, bodies: Record<string, string>, options: Parameters<typeof site>[0] = {}): Case => async () => {
  const target = await site(options);
  const steps: Array<[string, Stall]> = [];
  for (const [label, text] of Object.entries(bodies)) {
    const body = new TextEncoder().encode(text);
    if (body.byteLength > SIZE) throw new Error(`${label}: ${body.byteLength} bytes`);
    let status = 0;
    const stall = await measured(target, async () => {
      const answer = await target.cms.handle({ method: 'POST', path: '/cms/v2/comments', query: '', headers: { 'content-type': type }, body });
      encodeResponse(answer);
      status = answer.status;
    });
    steps.push([`${label}: ${status}`, stall]);
  }
  return steps;
};

/**
 * A visitor's 8 MiB JSON submissions to a contact form, one field holding millions of small values: the core
 * decodes such a body in turns, and the form reads every value.
 */
const formJsonValues: Case = async () => {
  const target = await site();
  const id = idOf(await send(target, 'POST', '/forms/v1/contact-forms', wire({ title: 'Message', form: '[textarea your-message]' })));
  const steps: Array<[string, Stall]> = [];
  const bodies = { 'small objects': '{"a":1},', numbers: '1,', 'one-item arrays': '[1],' };
  for (const [label, unit] of Object.entries(bodies)) {
    const head = `{"_wpcf7":"${id}","_wpcf7_unit_tag":"wpcf7-f${id}-o1","your-message":[`;
    const body = new TextEncoder().encode(`${head}${unit.repeat(Math.floor((SIZE - head.length - 8) / unit.length))}1]}`);
    let status = 0;
    const stall = await measured(target, async () => {
      const answer = await target.cms.handle({
        method: 'POST', path: `/forms/v1/contact-forms/${id}/feedback`, query: '', headers: { 'content-type': 'application/json' }, body,
      });
      encodeResponse(answer);
      status = answer.status;
    });
    steps.push([`${label}: ${status}`, stall]);
  }
  // The same to a sign-up form, whose route also reads JSON bodies.
  const signupForm = idOf(await send(target, 'POST', '/mailing/v1/forms', wire({ title: 'Newsletter', settings: { lists: ['list01'] } })));
  const timestamp = Math.floor(Date.now() / 1000) - 60;
  for (const [label, unit] of Object.entries({ 'sign-up, small objects': '{"a":1},', 'sign-up, numbers': '1,' })) {
    const head = `{"_mc4wp_form_id":"${signupForm}","_mc4wp_timestamp":"${timestamp}","_mc4wp_honeypot":"","EMAIL":"reader@bench.test","FNAME":[`;
    const body = new TextEncoder().encode(`${head}${unit.repeat(Math.floor((SIZE - head.length - 8) / unit.length))}1]}`);
    let status = 0;
    const stall = await measured(target, async () => {
      const answer = await target.cms.handle({
        method: 'POST', path: '/mailing/v1/form', query: '', headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (bench)' }, body,
      });
      encodeResponse(answer);
      status = answer.status;
    });
    steps.push([`${label}: ${status}`, stall]);
  }
  return steps;
};

/**
 * Bodies a host's framework parsed already (`parsedBody`, as `express.json()` with its limit raised gives them), of
 * 8 MiB of small objects or numbers: a visitor's comment on a post that does not exist.
 */
const parsedBodies: Case = async () => {
  const target = await site();
  const steps: Array<[string, Stall]> = [];
  for (const [label, unit] of Object.entries({ 'small objects': '{"a":1},', numbers: '1,' })) {
    const parsedBody = JSON.parse(`{"post":999999,"content":[${unit.repeat(Math.floor((SIZE - 64) / unit.length))}1]}`) as unknown;
    let status = 0;
    const stall = await measured(target, async () => {
      const answer = await target.cms.handle({ method: 'POST', path: '/cms/v2/comments', query: '', headers: { 'content-type': 'application/json' }, parsedBody });
      encodeResponse(answer);
      status = answer.status;
    });
    steps.push([`${label}: ${status}`, stall]);
  }
  return steps;
};

/** The shapes of `json-values`: a field holding the most tiny values 8 MiB lets through (less room for the rest). */
const TINY_VALUES: Record<string, (room: number) => string> = {
  numbers: (room) => `[${'0,'.repeat(Math.floor((room - 1) / 2) - 1)}0]`,
  'empty objects': (room) => `[${'{},'.repeat(Math.floor((room - 1) / 3) - 1)}{}]`,
  'lists in a map': (room) => `{"a":[${'[],'.repeat(Math.floor((room - 7) / 3) - 1)}[]]}`,
  '700,000 keys': (room) => `{${fitted(room - 2, Array.from({ length: 700_000 }, (_, index) => `"${index.toString(36)}":0`))}}`,
  // The most the limits let through: lists (or maps) of the most members, as many as the values and 8 MiB allow.
  'numbers, at the limits': (room) => withinLimits(room, () => `[${Array(DEFAULT_MAX_JSON_MEMBERS).fill('0').join(',')}]`),
  'empty objects, at the limits': (room) => withinLimits(room, () => `[${Array(DEFAULT_MAX_JSON_MEMBERS).fill('{}').join(',')}]`),
  'lists, at the limits': (room) => withinLimits(room, () => `[${Array(DEFAULT_MAX_JSON_MEMBERS).fill('[]').join(',')}]`),
  'keys, at the limits': (room) => withinLimits(room, (list) => `{${Array.from({ length: DEFAULT_MAX_JSON_MEMBERS }, (_, index) => `"${list}-${index.toString(36)}":0`).join(',')}}`),
};

/** The items joined with commas, all of them: an error when they do not fit in `room` characters. */
function fitted(room: number, items: string[]): string {
  const joined = items.join(',');
  if (joined.length > room) throw new Error(`${joined.length} characters for room for ${room}`);
  return joined;
}

/** A list of `made` arrays or objects of `DEFAULT_MAX_JSON_MEMBERS` members each, within the values and `room`. */
function withinLimits(room: number, made: (index: number) => string): string {
  const lists: string[] = [];
  let length = 2;
  for (let index = 0; (index + 1) * (DEFAULT_MAX_JSON_MEMBERS + 1) + 1 <= DEFAULT_MAX_JSON_VALUES; index += 1) {
    const list = made(index);
    if (length + list.length + 1 > room) break;
    lists.push(list);
    length += list.length + 1;
  }
  return `[${lists.join(',')}]`;
}

/**
 * 8 MiB JSON bodies of millions of tiny values in the field a route walks: an author's post (its tags) and slider
 * (its slides, refused for the role once checked) saves, then a visitor's comment on a post that does not exist.
 */
const jsonValues: Case = async () => {
  const made = await site();
  const author = await writerOf(made, 'author');
  const steps: Array<[string, Stall]> = [];
  const sends: Array<[string, Site | null, string, string]> = [
    ['post', author, '/cms/v2/posts', 'tags'], ['slider', author, '/slider/sliders', 'slides'], ['comment', null, '/cms/v2/comments', 'content'],
  ];
  for (const [route, caller, path, field] of sends) {
    for (const [label, shape] of Object.entries(TINY_VALUES)) {
      const head = `{"title":"Values","alias":"values","post":999999,"${field}":`;
      const body = new TextEncoder().encode(`${head}${shape(SIZE - head.length - 1)}}`);
      if (body.byteLength > SIZE) throw new Error(`${label}: ${body.byteLength} bytes`);
      let status = 0;
      const stall = await measured(made, async () => {
        const answer = await made.cms.handle({
          method: 'POST', path, query: '', ...(caller ? { user: caller.admin } : {}), headers: { 'content-type': 'application/json' }, body,
        });
        encodeResponse(answer);
        status = answer.status;
      });
      steps.push([`${route}, ${label}: ${status}`, stall]);
    }
  }
  return steps;
};

/** A multipart body of one small field (`post`) and one large text field, `content`, with the given part headers. */
function multipartText(value: string, partHeaders = ''): string {
  const boundary = MULTIPART_BOUNDARY;
  return `--${boundary}\r\nContent-Disposition: form-data; name="post"\r\n\r\n999999\r\n`
    + `--${boundary}\r\nContent-Disposition: form-data; name="content"\r\n${partHeaders}\r\n${value}\r\n--${boundary}--\r\n`;
}
/** A multipart body of `count` fields `f[]` of `value` each. */
function manyParts(count: number, value: string): string {
  const part = `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="f[]"\r\n\r\n${value}\r\n`;
  return `${part.repeat(count)}--${MULTIPART_BOUNDARY}--\r\n`;
}
const MULTIPART_BOUNDARY = 'bench-boundary-7MA4YWxkTrZu0gW';
/** Room for the parts' delimiters and headers within the body limit. */
const MULTIPART_ROOM = 512;

/** Limits a host may raise to take such bodies, under which their parsing is what is measured. */
const RAISED_JSON_LIMITS = { maxJsonValues: 2 ** 40, maxJsonMembers: 2 ** 40 };

/** Small objects up to the body limit, less room for what goes around them. */
const jsonObjects = '{"a":1},'.repeat(Math.floor((SIZE - 1024) / 8));

const BODY_CASES: Record<string, Case> = {
  'multipart-text': visitorBodies(`multipart/form-data; boundary=${MULTIPART_BOUNDARY}`, {
    'ASCII field': multipartText('a'.repeat(SIZE - MULTIPART_ROOM)),
    'two-byte field': multipartText('é'.repeat((SIZE - MULTIPART_ROOM) / 2)),
    'four-byte field': multipartText('😀'.repeat((SIZE - MULTIPART_ROOM) / 4)),
    'latin1 field': multipartText('a'.repeat(SIZE - MULTIPART_ROOM), 'Content-Type: text/plain; charset=iso-8859-1\r\n'),
    '1,000 fields of 8 KiB': manyParts(1000, 'é'.repeat(4000)),
    '1,020 empty parts': manyParts(1020, ''),
  }),
  'urlencoded-body': visitorBodies('application/x-www-form-urlencoded', {
    'escaped characters': `post=999999&content=${'%C3%A9'.repeat(SIZE / 6 - 4)}`,
    pluses: `post=999999&content=${'a+'.repeat(SIZE / 2 - 12)}`,
    'broken escapes': `post=999999&content=${'%C3%A9'.repeat(SIZE / 6 - 5)}%ZZ`,
    'a name of dots': `post=999999&${'.'.repeat(SIZE - 20)}=1`,
    'unclosed brackets': `post=999999&a[${'.['.repeat(SIZE / 2 - 12)}=1`,
  }),
  'json-fallbacks': visitorBodies('application/json', {
    'too deep after 8 MiB': `{"post":999999,"content":[${jsonObjects}${'['.repeat(520)}`,
    'an open bracket': `{"post":999999,"content":[${jsonObjects}1]`,
    'a closing bracket too many': `{"post":999999,"content":[${jsonObjects}1]}]`,
    'text after the value': `{"post":999999,"content":[${jsonObjects}1]} x`,
    'a long number': '1'.repeat(SIZE),
  }, RAISED_JSON_LIMITS),
  'form-json-values': formJsonValues,
  'parsed-body': parsedBodies,
  'json-values': jsonValues,
  'json-escapes': visitorBodies('application/json', {
    backslashes: JSON.stringify({ post: 999999, content: '\\'.repeat(SIZE / 2 - 16) }),
    'escaped pairs': `{"post":999999,"content":"${'\\ud83d\\ude00'.repeat(SIZE / 12 - 3)}"}`,
    'escapes of u': `{"post":999999,"content":"${'\\\\u'.repeat(SIZE / 3 - 12)}"}`,
  }),
};

const SEARCH_CASES: Record<string, Case> = {
  'comment-author': commentAuthor(PARAGRAPH),
  'comment-author-amp': commentAuthor('a & b < c '),
  'form-texts': formTexts,
  search: searchCase(memory),
  'search-sqlite': searchCase(sqlite),
};

const CASES: Record<string, Case> = {
  'render-quote-pairs': renderCase('\'"'),
  'render-doubles': renderCase('"'),
  'render-primes': renderCase('"1\''),
  'render-apostrophes': renderCase("a'"),
  // Emoji: a rendering in two-byte characters.
  'render-smileys': renderCase('hi :) there ;-) 8O :mrgreen: '),
  'revisions-doubles': revisionsCase('"'),
  'pretty-jsonp': async () => {
    const target = await site({ maxParsedBodyBytes: 4 * SIZE });
    const id = idOf(await send(target, 'POST', '/cms/v2/posts', wire({ title: 'Dense', content: fill('"'), status: 'publish' })));
    await send(target, 'GET', `/cms/v2/posts/${id}`);
    const read = (query: string) => async () => {
      const answer = await target.cms.handle({ method: 'GET', path: `/cms/v2/posts/${id}`, query, headers: {} });
      if (answer.status !== 200) throw new Error(`${query}: ${answer.status}`);
      return encodeResponse(answer);
    };
    return [['read ?_pretty', await measured(target, read('_pretty'))], ['read ?_jsonp=cb', await measured(target, read('_jsonp=cb'))]];
  },
  'attachment-text': () => attachmentText(memory),
  'attachment-text-sqlite': () => attachmentText(sqlite),
  'attachment-text-postgres': () => attachmentText(postgres),
  'post-excerpt': () => postExcerpt(memory),
  'post-excerpt-sqlite': () => postExcerpt(sqlite),
  'post-excerpt-postgres': () => postExcerpt(postgres),
  'post-html-author': () => twoLargeTexts(memory, createPost, 'content', 'excerpt', [PARAGRAPH, PARAGRAPH], 'author'),
  'post-html-admin': () => twoLargeTexts(memory, createPost, 'content', 'excerpt', [PARAGRAPH, PARAGRAPH]),
  slider: async () => {
    const target = await site();
    const slides = Array.from({ length: 200 }, (_, slide) => ({
      slide: { title: `Slide ${slide}`, publish: { state: 'published', from: '', to: '' }, timeline: { duration: [700], easeIn: ['default'] } },
      layers: Array.from({ length: 50 }, (_, index) => layer(slide, index)),
    }));
    const slider = (alias: string) => ({
      alias, title: 'Bench', settings: { general: { lazyLoad: 'none' }, source: { type: 'gallery' } }, slides,
    });
    const write = await measured(target, () => target.cms.sliders.create(slider('bench')));
    const read = await measured(target, () => send(target, 'GET', '/slider/sliders/bench'));
    // As an author's editor saves it: the body read off the wire, checked and stored, then read by a visitor.
    const request = wire(slider('bench-http'));
    const httpWrite = await measured(target, () => send(target, 'POST', '/slider/sliders', request));
    const httpRead = await measured(target, () => send(target, 'GET', '/slider/sliders/bench-http'));
    return [['write', write], ['first read', read], [`write over HTTP (${(request.byteLength / 2 ** 20).toFixed(1)} MiB)`, httpWrite], ['first read', httpRead]];
  },
  batch: async () => {
    const target = await site({ maxBatchSize: 2000 });
    const requests = Array.from({ length: 2000 }, (_, index) => ({
      method: 'POST', path: '/cms/v2/posts', body: { title: `Batch ${index}`, content: `<p>Item ${index}.</p>`, status: 'publish' },
    }));
    const request = wire({ requests });
    return [['2,000 creations', await measured(target, () => send(target, 'POST', '/batch/v1', request))]];
  },
  'wxr-export': async () => {
    const target = await site();
    for (let index = 0; index < 10_000; index += 1) {
      await target.cms.handle({
        method: 'POST', path: '/cms/v2/posts', query: '', user: target.admin, headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Post ${index}`, content: `<!-- wp:paragraph -->\n<p>Post ${index} says a few words.</p>\n<!-- /wp:paragraph -->`, status: 'publish' }),
      });
    }
    let bytes = 0;
    const stall = await measured(target, async () => {
      for await (const piece of target.cms.exportWxr()) bytes += piece.length;
    });
    return [[`10,000 posts (${(bytes / 2 ** 20).toFixed(1)} MiB)`, stall]];
  },
  ...CLIENT_TEXT_CASES,
  ...STORED_TEXT_CASES,
  ...SEARCH_CASES,
  ...BODY_CASES,
};

const [selection = 'all'] = process.argv.slice(2);
const chosen = selection === 'all' ? Object.keys(CASES) : selection.split(',');
console.log(`load average ${loadavg().map((load) => load.toFixed(1)).join(' ')}; goal: no event-loop delay over ${GOAL_MS} ms; milliseconds`);
console.log(`${'case'.padEnd(20)} ${'step'.padEnd(28)} ${'work'.padStart(7)} ${'loop max'.padStart(9)} ${'cpu'.padStart(6)} ${'reader max'.padStart(11)} ${'reads'.padStart(6)} ${'gc max'.padStart(7)}`);
for (const name of chosen) {
  const run = CASES[name];
  if (run === undefined) throw new Error(`unknown case ${name}; cases: ${Object.keys(CASES).join(', ')}`);
  for (const [step, stall] of await run()) {
    const verdict = stall.loopMaxCpuMs > GOAL_MS ? '  over' : '';
    console.log(`${name.padEnd(20)} ${step.padEnd(28)} ${stall.workMs.toFixed(0).padStart(7)} ${stall.loopMaxMs.toFixed(0).padStart(9)} ${stall.loopMaxCpuMs.toFixed(0).padStart(6)} `
      + `${stall.readerMaxMs.toFixed(0).padStart(11)} ${String(stall.reads).padStart(6)} ${stall.gcMaxMs.toFixed(0).padStart(7)}${verdict}`);
  }
}
