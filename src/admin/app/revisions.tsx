/** The revisions of a post or page, newest first; restoring one loads it into the editor and saves it. */
import apiFetch from '@wordpress/api-fetch';
import { Button, Modal, Spinner } from '@wordpress/components';
import { useState } from 'react';
import { errorMessage } from './api.js';

interface Revision { id: number; date: string; author: number; title: { raw: string }; content: { raw: string }; excerpt: { raw: string } }

export function Revisions({ base, id, onRestore }: { base: string; id: number; onRestore: (source: { title: string; content: string; excerpt?: string }) => void }) {
  const [open, setOpen] = useState(false);
  const [revisions, setRevisions] = useState<Revision[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const show = () => {
    setOpen(true);
    setRevisions(null);
    apiFetch<Revision[]>({ path: `/wp/v2/${base}/${id}/revisions?context=edit&per_page=100` }).then(setRevisions, (failure) => setError(errorMessage(failure)));
  };

  return (
    <>
      <Button variant="tertiary" onClick={show}>Revisions</Button>
      {open && (
        <Modal title="Revisions" onRequestClose={() => setOpen(false)}>
          {error && <p role="alert">{error}</p>}
          {!revisions && !error ? <Spinner /> : revisions?.length === 0 ? <p>No revisions yet.</p> : (
            <ol className="quire-admin-revisions">
              {revisions?.map((revision) => (
                <li key={revision.id}>
                  <span>{new Date(`${revision.date}`).toLocaleString()} — {revision.title.raw || '(no title)'}</span>
                  <Button variant="secondary" onClick={() => {
                    onRestore({ title: revision.title.raw, content: revision.content.raw, excerpt: revision.excerpt?.raw });
                    setOpen(false);
                  }}>Restore this revision</Button>
                </li>
              ))}
            </ol>
          )}
        </Modal>
      )}
    </>
  );
}
