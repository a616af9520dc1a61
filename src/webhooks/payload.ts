/** Where an event's resource is read: the API path an anonymous reader would ask for it. */
import type { EventSubject } from './events.js';

const TERM_BASES: Readonly<Record<string, string>> = { category: 'categories', post_tag: 'tags' };

export function resourcePath(subject: EventSubject): string {
  switch (subject.kind) {
    case 'post': return `/cms/v2/posts/${subject.id}`;
    case 'page': return `/cms/v2/pages/${subject.id}`;
    case 'media': return `/cms/v2/media/${subject.id}`;
    case 'comment': return `/cms/v2/comments/${subject.id}`;
    case 'term': return `/cms/v2/${TERM_BASES[subject.taxonomy ?? ''] ?? encodeURIComponent(subject.taxonomy ?? '')}/${subject.id}`;
    case 'submission': return `/forms/v1/contact-forms/${subject.form ?? 0}/submissions`;
    case 'subscriber': return `/mailing/v1/subscribers?list=${encodeURIComponent(subject.list ?? '')}`;
  }
}
