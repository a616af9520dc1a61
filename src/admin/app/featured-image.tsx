/** The featured image: upload one or pick one already in the library; remove it. */
import apiFetch from '@wordpress/api-fetch';
import { Button, FormFileUpload, Modal, Notice, Spinner } from '@wordpress/components';
import { useEffect, useState } from 'react';
import { errorMessage } from './api.js';
import { can, useSession } from './app.js';
import { useMediaPages } from './media-pages.js';
import { type Media, thumbnailOf, uploadWithProgress } from './upload.js';

export function FeaturedImage({ mediaId, onChange }: { mediaId: number; onChange: (id: number) => void }) {
  const { user, config } = useSession();
  const [media, setMedia] = useState<Media | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [picking, setPicking] = useState(false);

  useEffect(() => {
    if (!mediaId) { setMedia(null); return; }
    if (media?.id === mediaId) return;
    apiFetch<Media>({ path: `/wp/v2/media/${mediaId}?context=edit` }).then(setMedia, () => setMedia(null));
  }, [mediaId]);

  const upload = async (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    setProgress(0);
    try {
      const uploaded = await uploadWithProgress(file, config.names, setProgress);
      setMedia(uploaded);
      onChange(uploaded.id);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setProgress(null);
    }
  };

  return (
    <div className="quire-admin-featured-image">
      {error && <Notice status="error" onRemove={() => setError(null)}>{error}</Notice>}
      {media && <img src={thumbnailOf(media)} alt={media.alt_text || 'Featured image'} />}
      {progress !== null && <progress max={1} value={progress} aria-label="Upload progress" />}
      {can(user, 'upload_files') && (
        <FormFileUpload accept="image/*" onChange={(event) => upload(event.currentTarget.files)} render={({ openFileDialog }) => (
          <Button variant="secondary" onClick={openFileDialog}>{mediaId ? 'Replace featured image' : 'Upload featured image'}</Button>
        )} />
      )}
      <Button variant="tertiary" onClick={() => setPicking(true)}>Choose from the library</Button>
      {mediaId > 0 && <Button variant="link" isDestructive onClick={() => onChange(0)}>Remove featured image</Button>}
      {picking && <PickImage onClose={() => setPicking(false)} onPick={(picked) => { setMedia(picked); onChange(picked.id); setPicking(false); }} />}
    </div>
  );
}

function PickImage({ onClose, onPick }: { onClose: () => void; onPick: (media: Media) => void }) {
  const { items, error, hasMore, loadingMore, loadMore } = useMediaPages<Media>('media_type=image&context=edit');
  return (
    <Modal title="Choose an image" onRequestClose={onClose}>
      {error && <Notice status="error" isDismissible={false}>{error}</Notice>}
      {!items ? !error && <Spinner /> : items.length === 0 ? <p>No images yet.</p> : (
        <ul className="quire-admin-media-grid">
          {items.map((item) => (
            <li key={item.id}><button type="button" onClick={() => onPick(item)}><img src={thumbnailOf(item)} alt={item.alt_text || item.title.raw || ''} /></button></li>
          ))}
        </ul>
      )}
      {hasMore && <Button variant="secondary" isBusy={loadingMore} disabled={loadingMore} onClick={loadMore}>Load more</Button>}
    </Modal>
  );
}
