/** The document settings: visibility, date, password, sticky, slug, author, terms, excerpt, image, parent, discussion. */
import apiFetch from '@wordpress/api-fetch';
import { CheckboxControl, PanelBody, SelectControl, TextControl, TextareaControl } from '@wordpress/components';
import { useEffect, useState } from 'react';
import { can, useSession } from './app.js';
import type { Edits, PostRecord } from './editor.js';
import { FeaturedImage } from './featured-image.js';
import { canPublish } from './permissions.js';
import { Categories, Tags } from './terms.js';

interface Props {
  type: 'post' | 'page';
  record: PostRecord;
  value: <T>(field: string, fallback: T) => T;
  edit: (changes: Edits) => void;
}

interface Option { id: number; name?: string; title?: { raw?: string; rendered?: string } }

export function DocumentSettings({ type, record, value, edit }: Props) {
  const { user } = useSession();
  const kind = type === 'post' ? 'posts' : 'pages';
  const status = value('status', record.status);
  const password = value('password', '');
  const visibility = status === 'private' ? 'private' : password ? 'password' : 'public';
  const publisher = canPublish(user, type);
  const editsOthers = can(user, `edit_others_${kind}`);
  const [authors, setAuthors] = useState<Option[]>([]);
  const [parents, setParents] = useState<Option[]>([]);

  useEffect(() => {
    if (editsOthers) apiFetch<Option[]>({ path: '/wp/v2/users?who=authors&per_page=100&_fields=id,name' }).then(setAuthors, () => undefined);
    if (type === 'page') {
      apiFetch<Option[]>({ path: '/wp/v2/pages?context=edit&per_page=100&status=publish,draft,pending,private,future&_fields=id,title' })
        .then((pages) => setParents(pages.filter((page) => page.id !== record.id)), () => undefined);
    }
  }, [editsOthers, type, record.id]);

  const setVisibility = (next: string) => {
    if (next === 'private') edit({ status: 'private', password: '' });
    else edit({ status: record.status === 'private' ? 'draft' : status, password: next === 'password' ? password || '' : '' });
  };

  return (
    <div className="quire-admin-document-settings">
      <PanelBody title="Status & visibility">
        {publisher && (
          <SelectControl __next40pxDefaultSize label="Visibility" value={visibility} onChange={setVisibility}
            options={[{ value: 'public', label: 'Public' }, { value: 'private', label: 'Private' }, { value: 'password', label: 'Password protected' }]} />
        )}
        {publisher && (visibility === 'password' || password) && (
          <TextControl __next40pxDefaultSize label="Password" value={password} onChange={(next) => edit({ password: next })} />
        )}
        {!publisher && <p>Status: {status === 'pending' ? 'Pending review' : status}</p>}
        {publisher && (
          <TextControl __next40pxDefaultSize label="Publish date" type="datetime-local" value={(value<string | null>('date', null) ?? '').slice(0, 16)}
            onChange={(next) => edit({ date: next ? `${next}:00` : null })} />
        )}
        {publisher && type === 'post' && can(user, 'edit_others_posts') && (
          <CheckboxControl label="Stick to the top of the blog" checked={value('sticky', false)} onChange={(next) => edit({ sticky: next })} />
        )}
        {publisher && record.status !== 'publish' && (
          <CheckboxControl label="Pending review" checked={status === 'pending'} onChange={(next) => edit({ status: next ? 'pending' : 'draft' })} />
        )}
        <TextControl __next40pxDefaultSize label="Slug" value={value('slug', '')} onChange={(next) => edit({ slug: next })} />
        {editsOthers && authors.length > 0 && (
          <SelectControl __next40pxDefaultSize label="Author" value={String(value('author', record.author))}
            options={authors.map((author) => ({ value: String(author.id), label: author.name ?? String(author.id) }))}
            onChange={(next) => edit({ author: Number(next) })} />
        )}
      </PanelBody>
      {type === 'post' && (
        <PanelBody title="Categories" initialOpen>
          <Categories selected={value<number[]>('categories', [])} onChange={(next) => edit({ categories: next })} />
        </PanelBody>
      )}
      {type === 'post' && (
        <PanelBody title="Tags" initialOpen={false}>
          <Tags selected={value<number[]>('tags', [])} onChange={(next) => edit({ tags: next })} />
        </PanelBody>
      )}
      <PanelBody title="Featured image" initialOpen>
        <FeaturedImage mediaId={value('featured_media', 0)} onChange={(next) => edit({ featured_media: next })} />
      </PanelBody>
      {type === 'post' && (
        <PanelBody title="Excerpt" initialOpen={false}>
          <TextareaControl label="Write an excerpt (optional)" value={value('excerpt', '')} onChange={(next) => edit({ excerpt: next })} />
        </PanelBody>
      )}
      {type === 'page' && (
        <PanelBody title="Page attributes" initialOpen>
          <SelectControl __next40pxDefaultSize label="Parent page" value={String(value('parent', 0))}
            options={[{ value: '0', label: '(no parent)' }, ...parents.map((page) => ({ value: String(page.id), label: page.title?.raw || `#${page.id}` }))]}
            onChange={(next) => edit({ parent: Number(next) })} />
          <TextControl __next40pxDefaultSize label="Order" type="number" value={String(value('menu_order', 0))} onChange={(next) => edit({ menu_order: Number(next) || 0 })} />
        </PanelBody>
      )}
      <PanelBody title="Discussion" initialOpen={false}>
        <CheckboxControl label="Allow comments" checked={value('comment_status', 'open') === 'open'} onChange={(next) => edit({ comment_status: next ? 'open' : 'closed' })} />
        <CheckboxControl label="Allow pingbacks & trackbacks" checked={value('ping_status', 'open') === 'open'} onChange={(next) => edit({ ping_status: next ? 'open' : 'closed' })} />
      </PanelBody>
    </div>
  );
}
