/** Media items a page at a time, read by `X-WP-TotalPages`: the first page, then more on request. */
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage, fetchPage } from './api.js';
import type { Media } from './upload.js';

export const MEDIA_PER_PAGE = 40;

export interface MediaPages<T> {
  items: T[] | null;
  error: string | null;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore(): void;
}

/** `query` is the collection's query without `page`; a new `revision` starts again from the first page. */
export function useMediaPages<T extends Media>(query: string, revision = 0): MediaPages<T> {
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loaded, setLoaded] = useState({ page: 0, totalPages: 0 });
  const [loadingMore, setLoadingMore] = useState(false);
  const generation = useRef(0);

  const load = useCallback((page: number, current: number) => {
    fetchPage<T>(`/wp/v2/media?${query}&per_page=${MEDIA_PER_PAGE}&page=${page}`).then((result) => {
      if (current !== generation.current) return;
      setItems((previous) => {
        const kept = page === 1 ? [] : previous ?? [];
        const known = new Set(kept.map((item) => item.id));
        return [...kept, ...result.items.filter((item) => !known.has(item.id))];
      });
      setLoaded({ page, totalPages: result.totalPages });
    }, (failure) => {
      if (current === generation.current) setError(errorMessage(failure));
    }).finally(() => setLoadingMore(false));
  }, [query]);

  useEffect(() => {
    generation.current += 1;
    setError(null);
    load(1, generation.current);
  }, [load, revision]);

  const hasMore = loaded.page > 0 && loaded.page < loaded.totalPages;
  const loadMore = useCallback(() => {
    if (!hasMore || loadingMore) return;
    setLoadingMore(true);
    load(loaded.page + 1, generation.current);
  }, [hasMore, loadingMore, load, loaded.page]);

  return { items, error, hasMore, loadingMore, loadMore };
}
