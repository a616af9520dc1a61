/** The list of posts or pages: status filter, search, paging, trash, restore and delete for good. */
import apiFetch from '@wordpress/api-fetch';
import { Button, Notice, SearchControl, SelectControl, Spinner } from '@wordpress/components';
import { useCallback, useEffect, useState } from 'react';
import { errorMessage, fetchPage, type Page } from './api.js';
import { useSession } from './app.js';
import { canCreate, canDelete, canEdit } from './permissions.js';

interface Row { id: number; title: { rendered: string; raw?: string }; status: string; date: string; author: number; modified: string }

const PER_PAGE = 20;
const STATUSES = [
  { value: 'any', label: 'All' }, { value: 'publish', label: 'Published' }, { value: 'future', label: 'Scheduled' },
  { value: 'draft', label: 'Drafts' }, { value: 'pending', label: 'Pending' }, { value: 'private', label: 'Private' },
  { value: 'trash', label: 'Trash' },
];
const STATUS_LABELS: Record<string, string> = { publish: 'Published', future: 'Scheduled', draft: 'Draft', pending: 'Pending', private: 'Private', trash: 'Trash' };

export function ContentList({ type }: { type: 'post' | 'page' }) {
  const { user } = useSession();
  const base = type === 'post' ? 'posts' : 'pages';
  const [status, setStatus] = useState('any');
  const [search, setSearch] = useState('');
  const [pageNumber, setPageNumber] = useState(1);
  const [page, setPage] = useState<Page<Row> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [revision, setRevision] = useState(0);

  useEffect(() => {
    let current = true;
    const statuses = status === 'any' ? 'publish,future,draft,pending,private' : status;
    const query = new URLSearchParams({ context: 'edit', status: statuses, page: String(pageNumber), per_page: String(PER_PAGE), _fields: 'id,title,status,date,author,modified' });
    if (search) query.set('search', search);
    setPage(null);
    fetchPage<Row>(`/wp/v2/${base}?${query}`).then((result) => { if (current) { setPage(result); setError(null); } }, (failure) => { if (current) setError(errorMessage(failure)); });
    return () => { current = false; };
  }, [base, status, search, pageNumber, revision]);

  const act = useCallback(async (row: Row, action: 'trash' | 'restore' | 'delete') => {
    try {
      if (action === 'trash') await apiFetch({ path: `/wp/v2/${base}/${row.id}`, method: 'DELETE' });
      else if (action === 'delete') await apiFetch({ path: `/wp/v2/${base}/${row.id}?force=true`, method: 'DELETE' });
      else await apiFetch({ path: `/wp/v2/${base}/${row.id}`, method: 'POST', data: { status: 'draft' } });
      setRevision((value) => value + 1);
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }, [base]);

  return (
    <section className="quire-admin-list" aria-label={type === 'post' ? 'Posts' : 'Pages'}>
      <div className="quire-admin-list-head">
        <h1>{type === 'post' ? 'Posts' : 'Pages'}</h1>
        {canCreate(user, type) && <Button variant="primary" href={`#/new/${type}`}>{type === 'post' ? 'Add post' : 'Add page'}</Button>}
      </div>
      <div className="quire-admin-filters">
        <SelectControl __next40pxDefaultSize label="Status" value={status} options={STATUSES} onChange={(value) => { setStatus(value); setPageNumber(1); }} />
        <SearchControl __nextHasNoMarginBottom label="Search" value={search} onChange={(value) => { setSearch(value); setPageNumber(1); }} />
      </div>
      {error && <Notice status="error" onRemove={() => setError(null)}>{error}</Notice>}
      {!page ? <Spinner /> : page.items.length === 0 ? <p>Nothing found.</p> : (
        <table className="quire-admin-table">
          <thead><tr><th>Title</th><th>Status</th><th>Date</th><th><span className="screen-reader-text">Actions</span></th></tr></thead>
          <tbody>
            {page.items.map((row) => {
              const title = row.title.raw || '(no title)';
              const editable = row.status !== 'trash' && canEdit(user, type, row);
              const deletable = canDelete(user, type, row);
              return (
                <tr key={row.id}>
                  <td>{editable ? <a href={`#/edit/${type}/${row.id}`}>{title}</a> : title}</td>
                  <td>{STATUS_LABELS[row.status] ?? row.status}</td>
                  <td>{row.date.replace('T', ' ').slice(0, 16)}</td>
                  <td className="quire-admin-row-actions">
                    {deletable && row.status !== 'trash' && <Button variant="link" isDestructive onClick={() => act(row, 'trash')}>Trash</Button>}
                    {deletable && row.status === 'trash' && <Button variant="link" onClick={() => act(row, 'restore')}>Restore</Button>}
                    {deletable && row.status === 'trash' && <Button variant="link" isDestructive onClick={() => act(row, 'delete')}>Delete permanently</Button>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {page && page.totalPages > 1 && (
        <div className="quire-admin-paging">
          <Button variant="secondary" disabled={pageNumber <= 1} onClick={() => setPageNumber(pageNumber - 1)}>Previous</Button>
          <span>Page {pageNumber} of {page.totalPages} ({page.total} items)</span>
          <Button variant="secondary" disabled={pageNumber >= page.totalPages} onClick={() => setPageNumber(pageNumber + 1)}>Next</Button>
        </div>
      )}
    </section>
  );
}
