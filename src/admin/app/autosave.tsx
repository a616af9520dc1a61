/**
 * Autosaves on a timer while there are unsaved changes (`POST …/autosaves`: the API updates an own draft in
 * place and keeps a separate autosave of anything else), and offers to restore an autosave newer than the record.
 */
import apiFetch from '@wordpress/api-fetch';
import { Notice } from '@wordpress/components';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useSession } from './app.js';
import { contentOf, type PostRecord } from './editor.js';

interface AutosaveInput {
  base: string;
  record: PostRecord | null;
  dirty: boolean;
  saving: boolean;
  title: string;
  excerpt: string;
  blocks: unknown[];
  save: (status?: string) => Promise<PostRecord | null>;
  replaceContent: (source: { title: string; content: string; excerpt?: string }) => void;
}

interface Autosave { id: number; author: number; modified_gmt: string; title: { raw: string }; content: { raw: string }; excerpt: { raw: string } }

export function useAutosave(input: AutosaveInput): { notice: ReactNode } {
  const { user, config } = useSession();
  const [newer, setNewer] = useState<Autosave | null>(null);
  const latest = useRef(input);
  latest.current = input;
  const lastSaved = useRef<string | null>(null);
  const recordId = input.record?.id ?? 0;

  useEffect(() => {
    if (!recordId) return;
    const { base, record } = latest.current;
    apiFetch<Autosave[]>({ path: `/wp/v2/${base}/${recordId}/autosaves?context=edit` }).then((autosaves) => {
      const own = autosaves.find((autosave) => autosave.author === user.id);
      // Times are to the second: an autosave made in the second of the last save still counts when it differs.
      if (!own || !record || own.modified_gmt < record.modified_gmt) return;
      const differs = own.content.raw !== record.content?.raw || own.title.raw !== record.title?.raw || own.excerpt.raw !== record.excerpt?.raw;
      if (differs) setNewer(own);
    }, () => undefined);
  }, [recordId, user.id]);

  useEffect(() => {
    const timer = setInterval(() => {
      const { base, record, dirty, saving, title, excerpt, blocks, save } = latest.current;
      if (!record || !dirty || saving) return;
      const content = contentOf(blocks as never[]);
      // The API refuses an autosave that matches the record (nothing to save): a change undone, or one just saved.
      if (record.id && title === (record.title?.raw ?? '') && content === (record.content?.raw ?? '') && excerpt === (record.excerpt?.raw ?? '')) return;
      const snapshot = JSON.stringify([title, excerpt, content]);
      if (snapshot === lastSaved.current) return;
      lastSaved.current = snapshot;
      if (!record.id) {
        // A new item with no title, content or excerpt is refused by the API (empty_content): nothing to save yet.
        if (title || excerpt || content) void save('draft');
        return;
      }
      apiFetch({ path: `/wp/v2/${base}/${record.id}/autosaves`, method: 'POST', data: { title, excerpt, content } }).catch(() => {
        lastSaved.current = null;
      });
    }, config.autosaveInterval * 1000);
    return () => clearInterval(timer);
  }, [config.autosaveInterval]);

  const notice = newer && (
    <Notice status="warning" onRemove={() => setNewer(null)} actions={[{
      label: 'Restore the autosave',
      onClick: () => { input.replaceContent({ title: newer.title.raw, content: newer.content.raw, excerpt: newer.excerpt.raw }); setNewer(null); },
    }]}>
      There is an autosave of this item that is more recent than the version below.
    </Notice>
  );
  return { notice };
}
