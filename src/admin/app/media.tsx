/** The media library: upload with progress, the list, alt text and caption, delete. */
import apiFetch from '@wordpress/api-fetch';
import { Button, FormFileUpload, Notice, Spinner, TextControl, TextareaControl } from '@wordpress/components';
import { useState } from 'react';
import { errorMessage } from './api.js';
import { can, useSession } from './app.js';
import { useMediaPages } from './media-pages.js';
import { type Media, thumbnailOf, uploadWithProgress } from './upload.js';

export function MediaLibrary() {
  const { user, config } = useSession();
  const [uploads, setUploads] = useState<{ name: string; progress: number }[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [revision, setRevision] = useState(0);
  const pages = useMediaPages<Media & { author?: number }>('context=edit', revision);
  const items = pages.items;

  const upload = async (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) {
      setUploads((previous) => [...previous, { name: file.name, progress: 0 }]);
      try {
        await uploadWithProgress(file, config.names, (progress) => setUploads((previous) => previous.map((entry) => (entry.name === file.name ? { ...entry, progress } : entry))));
      } catch (failure) {
        setError(errorMessage(failure));
      }
      setUploads((previous) => previous.filter((entry) => entry.name !== file.name));
      setRevision((value) => value + 1);
    }
  };

  return (
    <section className="quire-admin-media" aria-label="Media">
      <div className="quire-admin-list-head">
        <h1>Media</h1>
        {can(user, 'upload_files') && (
          <FormFileUpload multiple onChange={(event) => upload(event.currentTarget.files)} render={({ openFileDialog }) => (
            <Button variant="primary" onClick={openFileDialog}>Upload</Button>
          )} />
        )}
      </div>
      {error && <Notice status="error" onRemove={() => setError(null)}>{error}</Notice>}
      {pages.error && <Notice status="error" isDismissible={false}>{pages.error}</Notice>}
      {uploads.map((entry) => (
        <p key={entry.name} className="quire-admin-upload">{entry.name} <progress max={1} value={entry.progress} aria-label={`Uploading ${entry.name}`} /></p>
      ))}
      {!items ? !pages.error && <Spinner /> : items.length === 0 ? <p>No media yet.</p> : (
        <ul className="quire-admin-media-list">
          {items.map((item) => <MediaItem key={item.id} item={item} onDeleted={() => setRevision((value) => value + 1)} onError={setError} />)}
        </ul>
      )}
      {pages.hasMore && <Button variant="secondary" isBusy={pages.loadingMore} disabled={pages.loadingMore} onClick={pages.loadMore}>Load more</Button>}
    </section>
  );
}

function MediaItem({ item, onDeleted, onError }: { item: Media & { author?: number }; onDeleted: () => void; onError: (message: string) => void }) {
  const { user } = useSession();
  const [alt, setAlt] = useState(item.alt_text);
  const [caption, setCaption] = useState(item.caption.raw ?? '');
  const [saved, setSaved] = useState(true);
  const mayDelete = can(user, item.author === user.id ? 'delete_posts' : 'delete_others_posts');

  const save = async () => {
    try {
      await apiFetch({ path: `/wp/v2/media/${item.id}`, method: 'POST', data: { alt_text: alt, caption } });
      setSaved(true);
    } catch (failure) {
      onError(errorMessage(failure));
    }
  };
  const remove = async () => {
    try {
      await apiFetch({ path: `/wp/v2/media/${item.id}?force=true`, method: 'DELETE' });
      onDeleted();
    } catch (failure) {
      onError(errorMessage(failure));
    }
  };

  return (
    <li className="quire-admin-media-item">
      {item.media_type === 'image' ? <img src={thumbnailOf(item)} alt={item.alt_text} /> : <span className="quire-admin-file">{item.mime_type}</span>}
      <div>
        <strong>{item.title.raw ?? item.title.rendered}</strong>
        <TextControl __next40pxDefaultSize label="Alternative text" value={alt} onChange={(next) => { setAlt(next); setSaved(false); }} />
        <TextareaControl label="Caption" value={caption} onChange={(next) => { setCaption(next); setSaved(false); }} />
        <Button variant="secondary" disabled={saved} onClick={save}>Save</Button>
        {mayDelete && <Button variant="link" isDestructive onClick={remove}>Delete permanently</Button>}
      </div>
    </li>
  );
}
