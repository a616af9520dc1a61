import { createCms, type CmsOptions } from '../../src/cms.js';
import type { MemoryOutbox } from '../../src/mail/index.js';
import { fixedClock } from '../../src/ports/clock.js';
import { send } from '../helpers/request.js';
import { ROLES, type Actor, type Role } from '../users/setup.js';

/** The form the reference was observed with: every common field type, pipes, limits, a quiz and an acceptance. */
export const ANCHOR_FORM = `<label> Your name [text* your-name] </label>
<label> Your email [email* your-email] </label>
<label> Phone [tel phone id:phone-field] </label>
<label> Website [url website] </label>
<label> Topic [select* your-topic "Sales|sales@example.com" "Support|support@example.com"] </label>
<label> Seats [number* seats min:1 max:20] </label>
<label> Preferred date [date preferred-date min:2020-01-01 max:2030-12-31] </label>
[checkbox interests "News" "Events"]
<label> Attachment [file attachment limit:1mb filetypes:txt|pdf|png] </label>
<label> Message [textarea* your-message minlength:10 maxlength:500] </label>
[quiz anchor-quiz "What is 2+3?|5"]
[acceptance terms] I agree to the terms [/acceptance]
[submit "Send"]`;

export const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64)';

/** A site with one user per role, a memory outbox and a fixed clock. */
export async function formsSite(options: CmsOptions = {}) {
  const clock = fixedClock('2026-03-04T05:06:07Z');
  const cms = createCms({
    site: { url: 'http://example.test', name: 'Anchor Site', adminEmail: 'admin@example.test', ...options.site },
    clock,
    forms: { secret: 'test-secret', ...options.forms },
    ...Object.fromEntries(Object.entries(options).filter(([key]) => key !== 'site' && key !== 'forms')),
  });
  // Callers are passed as principals the host resolved (`request.user`), which skips the deliberately slow
  // application-password hashing; authentication itself is tested with the users module.
  const ids = {} as Record<Role, number>;
  for (const role of ROLES) {
    ids[role] = (await cms.users.create({ login: role, email: `${role}@example.test`, roles: [role], name: `The ${role}` })).id;
  }
  const userOf = (actor: Actor) => (actor === 'anonymous' ? null : { id: ids[actor] });
  const request = (actor: Actor, method: string, path: string, init: { json?: unknown; form?: string; headers?: Record<string, string> } = {}) =>
    send(cms, method, path, { ...init, user: userOf(actor) });
  const outbox = cms.deps.mailer as MemoryOutbox;
  return { cms, clock, request, userOf, outbox };
}

export interface MultipartFile {
  name: string;
  filename: string;
  type?: string;
  content: Uint8Array | string;
}

/** A multipart/form-data body and its content type. */
export function multipart(fields: Record<string, string | string[]>, files: MultipartFile[] = [], boundary = 'quireBoundary7MA4YWxk') {
  const chunks: Buffer[] = [];
  const add = (text: string) => chunks.push(Buffer.from(text));
  for (const [name, value] of Object.entries(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      add(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${item}\r\n`);
    }
  }
  for (const file of files) {
    add(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.filename}"\r\n`
      + `Content-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`);
    chunks.push(Buffer.from(file.content));
    add('\r\n');
  }
  add(`--${boundary}--\r\n`);
  return { body: new Uint8Array(Buffer.concat(chunks)), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Posts feedback as a browser would (multipart, a real user agent), with extra headers if given. */
export async function postFeedback(
  cms: Awaited<ReturnType<typeof formsSite>>['cms'], id: number, fields: Record<string, string | string[]>,
  options: { files?: MultipartFile[]; headers?: Record<string, string>; remoteAddress?: string; user?: { id: number } | null } = {},
) {
  const { body, contentType } = multipart(fields, options.files);
  const response = await cms.handle({
    method: 'POST',
    path: `/forms/v1/contact-forms/${id}/feedback`,
    headers: { 'content-type': contentType, 'user-agent': BROWSER, ...options.headers },
    body,
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    ...(options.user ? { user: options.user } : {}),
  });
  return { ...response, json: response.body as any };
}

/** A complete, valid submission of the anchor form (the quiz answer hash is the form's own). */
export function validAnchorFields(quizHash: string): Record<string, string | string[]> {
  return {
    _wpcf7: '1', _wpcf7_unit_tag: 'wpcf7-f1-o1', 'your-name': 'Ann Example', 'your-email': 'ann@example.org', phone: '+44 20 7946 0958',
    website: 'https://example.org', 'your-topic': 'Support', seats: '3', 'preferred-date': '2026-05-01', 'interests[]': ['News'],
    'your-message': 'Hello there, a long enough message.', 'anchor-quiz': '5', '_wpcf7_quiz_answer_anchor-quiz': quizHash, terms: '1',
  };
}

/** Creates the anchor form as the administrator and returns its id and its quiz answer hash. */
export async function createAnchorForm(site: Awaited<ReturnType<typeof formsSite>>, extra: Record<string, unknown> = {}) {
  const created = await site.request('administrator', 'POST', '/forms/v1/contact-forms', {
    json: { title: 'Anchor contact form', form: ANCHOR_FORM, ...extra },
  });
  const id = created.json.id as number;
  const refill = await site.request('anonymous', 'GET', `/forms/v1/contact-forms/${id}/refill`);
  return { id, quizHash: refill.json.quiz['anchor-quiz'][1] as string, created };
}
