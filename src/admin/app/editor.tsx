/**
 * The editor of one post or page: the title, the block canvas, the document settings and the actions the user's
 * capabilities allow. The record is read with `context=edit`; the blocks are parsed from `content.raw` and
 * serialized back on save. An autosave runs on a timer while there are unsaved changes.
 */
import apiFetch from '@wordpress/api-fetch';
import {
  BlockEditorKeyboardShortcuts, BlockEditorProvider, BlockInspector, BlockList, BlockTools, Inserter, ObserveTyping, WritingFlow,
} from '@wordpress/block-editor';
import { createBlock, isUnmodifiedDefaultBlock, parse, serialize } from '@wordpress/blocks';
import { Button, Notice, Popover, SlotFillProvider, Spinner, TabPanel } from '@wordpress/components';
import { uploadMedia } from '@wordpress/media-utils';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { errorMessage } from './api.js';
import { can, useSession } from './app.js';
import { useAutosave } from './autosave.js';
import { canPublish } from './permissions.js';
import { Revisions } from './revisions.js';
import { DocumentSettings } from './settings.js';
import { HistoryButtons, useEditHistory, useHistoryShortcuts, type Snapshot } from './history.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- records are the API's JSON, read field by field. */
export type PostRecord = Record<string, any> & { id: number; status: string; author: number; modified_gmt: string };
export type Edits = Record<string, unknown>;

export function Editor({ type, id }: { type: 'post' | 'page'; id: number | null }) {
  const { user } = useSession();
  const base = type === 'post' ? 'posts' : 'pages';
  const [record, setRecord] = useState<PostRecord | null>(null);
  const [edits, setEdits] = useState<Edits>({});
  const [blocks, setBlocks] = useState<any[]>([]);
  const [contentDirty, setContentDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<{ status: 'success' | 'error' | 'warning'; text: string } | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [canvasKey, setCanvasKey] = useState(0);
  const recordId = useRef<number | null>(id);
  // The blocks as rendered last: a save that ends tells from them whether the canvas changed while it ran.
  const latestBlocks = useRef(blocks);
  latestBlocks.current = blocks;
  const container = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (id === null) {
      setBlocks([createBlock('core/paragraph')]);
      setRecord({ id: 0, status: 'draft', author: user.id, modified_gmt: '', title: { raw: '' }, content: { raw: '' }, excerpt: { raw: '' }, comment_status: 'open', ping_status: 'open' } as PostRecord);
      return;
    }
    apiFetch<PostRecord>({ path: `/wp/v2/${base}/${id}?context=edit` }).then((loaded) => {
      setRecord(loaded);
      setBlocks(blocksOf(loaded.content?.raw ?? ''));
    }, (error) => setLoadError(errorMessage(error)));
  }, [base, id, user.id]);

  const dirty = contentDirty || Object.keys(edits).length > 0;
  const value = <T,>(field: string, fallback: T): T => (field in edits ? edits[field] : record?.[field]?.raw ?? record?.[field] ?? fallback) as T;
  const edit = useCallback((changes: Edits) => setEdits((previous) => ({ ...previous, ...changes })), []);
  const restore = useCallback((snapshot: Snapshot) => {
    setBlocks(snapshot.blocks);
    setEdits((previous) => ({ ...previous, title: snapshot.title }));
    setContentDirty(true);
  }, []);
  const editHistory = useEditHistory({ blocks, title: value('title', '') }, restore);
  useHistoryShortcuts(container, editHistory);

  /** Replaces what the editor shows (an autosave or a revision being restored) as unsaved changes. */
  const replaceContent = useCallback((source: { title: string; content: string; excerpt?: string }) => {
    const replaced = blocksOf(source.content);
    editHistory.change('replace', { blocks: replaced, title: source.title }, true);
    setEdits((previous) => ({ ...previous, title: source.title, ...(source.excerpt !== undefined ? { excerpt: source.excerpt } : {}) }));
    setBlocks(replaced);
    setContentDirty(true);
    setCanvasKey((key) => key + 1);
  }, [editHistory.change]);

  const save = useCallback(async (status?: string): Promise<PostRecord | null> => {
    if (!record) return null;
    setSaving(true);
    const body: Edits = { ...edits, content: contentOf(blocks) };
    if (status) body.status = status;
    if (!('title' in body)) body.title = record.title?.raw ?? '';
    const path = recordId.current === null ? `/wp/v2/${base}` : `/wp/v2/${base}/${recordId.current}`;
    try {
      const saved = await apiFetch<PostRecord>({ path: `${path}?context=edit`, method: 'POST', data: body });
      recordId.current = saved.id;
      if (id === null) history.replaceState(null, '', `#/edit/${type}/${saved.id}`);
      setRecord(saved);
      // What was typed while the request ran is kept, still unsaved.
      setEdits((current) => unsentEdits(current, body));
      if (latestBlocks.current === blocks) setContentDirty(false);
      setNotice({ status: 'success', text: savedMessage(saved.status) });
      return saved;
    } catch (error) {
      setNotice({ status: 'error', text: errorMessage(error) });
      return null;
    } finally {
      setSaving(false);
    }
  }, [record, edits, blocks, base, id, type]);

  const autosave = useAutosave({ base, record, dirty, saving, title: value('title', ''), excerpt: value('excerpt', ''), blocks, save, replaceContent });

  const settings = useMemo(() => ({
    hasFixedToolbar: false,
    focusMode: false,
    hasUploadPermissions: can(user, 'upload_files'),
    mediaUpload: can(user, 'upload_files') ? (options: Record<string, unknown>) => uploadMedia(options as any) : undefined,
    __experimentalBlockPatterns: [],
    __experimentalBlockPatternCategories: [],
    __experimentalFetchReusableBlocks: false,
    titlePlaceholder: 'Add title',
    bodyPlaceholder: 'Type / to choose a block',
    allowedMimeTypes: null,
  }), [user]);

  if (loadError) return <Notice status="error" isDismissible={false}>{loadError}</Notice>;
  if (!record) return <Spinner />;

  const publisher = canPublish(user, type);
  const status = value('status', record.status);
  const isLive = record.status === 'publish' || record.status === 'future' || record.status === 'private';
  const date = value<string | null>('date', null);
  const scheduled = date !== null && new Date(date).getTime() > Date.now();
  return (
    <SlotFillProvider>
      <div className="quire-admin-editor" ref={container}>
        <div className="quire-admin-editor-bar">
          <a href={`#/${base}`}>← {type === 'post' ? 'Posts' : 'Pages'}</a>
          <HistoryButtons history={editHistory} />
          <span className="quire-admin-save-state" aria-live="polite">{saving ? 'Saving…' : dirty ? 'Unsaved changes' : record.id ? 'Saved' : ''}</span>
          {recordId.current !== null && <Revisions base={base} id={recordId.current} onRestore={replaceContent} />}
          {!isLive && <Button variant="tertiary" disabled={saving} onClick={() => save(status === 'pending' ? 'pending' : 'draft')}>Save draft</Button>}
          {isLive && <Button variant="primary" disabled={saving} onClick={() => save()}>Update</Button>}
          {!isLive && publisher && <Button variant="primary" disabled={saving} onClick={() => save(status === 'private' ? 'private' : scheduled ? 'future' : 'publish')}>{scheduled ? 'Schedule' : 'Publish'}</Button>}
          {!isLive && !publisher && <Button variant="primary" disabled={saving} onClick={() => save('pending')}>Submit for review</Button>}
        </div>
        {notice && <Notice status={notice.status} onRemove={() => setNotice(null)}>{notice.text}</Notice>}
        {autosave.notice}
        <BlockEditorProvider key={canvasKey} value={blocks} onInput={(next: any[]) => changeBlocks(next, false)} onChange={(next: any[]) => changeBlocks(next, true)} settings={settings}>
          <BlockEditorKeyboardShortcuts.Register />
          <div className="quire-admin-editor-body">
            <div className="quire-admin-editor-content">
              <div className="quire-admin-editor-tools"><Inserter rootClientId={undefined} clientId={undefined} isAppender={false} /></div>
              <textarea className="quire-admin-title" aria-label="Add title" placeholder="Add title" rows={1} value={value('title', '')} onChange={(event) => changeTitle(event.target.value)} />
              <BlockTools className="quire-admin-canvas">
                <WritingFlow className="editor-styles-wrapper" tabIndex={-1}>
                  <ObserveTyping><BlockList /></ObserveTyping>
                </WritingFlow>
              </BlockTools>
            </div>
            <aside className="quire-admin-sidebar" aria-label="Settings">
              <TabPanel tabs={[{ name: 'document', title: type === 'post' ? 'Post' : 'Page' }, { name: 'block', title: 'Block' }]}>
                {(tab) => (tab.name === 'block' ? <BlockInspector /> : <DocumentSettings type={type} record={record} value={value} edit={edit} />)}
              </TabPanel>
            </aside>
          </div>
        </BlockEditorProvider>
        <Popover.Slot />
      </div>
    </SlotFillProvider>
  );

  function changeBlocks(next: any[], persistent: boolean): void {
    editHistory.change('blocks', { blocks: next, title: value('title', '') }, persistent);
    setBlocks(next);
    setContentDirty(true);
  }

  function changeTitle(title: string): void {
    editHistory.change('title', { blocks, title }, false);
    edit({ title });
  }
}

/** The blocks of some content; empty content starts with one paragraph to type in. */
function blocksOf(content: string): any[] {
  const parsed = parse(content);
  return parsed.length ? parsed : [createBlock('core/paragraph')];
}

/** The content to save: nothing for the one empty paragraph a new post starts with. */
export function contentOf(blocks: any[]): string {
  return blocks.length === 1 && isUnmodifiedDefaultBlock(blocks[0]) ? '' : serialize(blocks);
}

function savedMessage(status: string): string {
  switch (status) {
    case 'publish': return 'Published.';
    case 'future': return 'Scheduled.';
    case 'pending': return 'Submitted for review.';
    case 'private': return 'Published privately.';
    default: return 'Draft saved.';
  }
}

/** The edits that differ from what a save sent: made while it ran, so not saved by it. */
function unsentEdits(current: Edits, sent: Edits): Edits {
  return Object.fromEntries(Object.entries(current).filter(([field, value]) => !(field in sent) || !Object.is(sent[field], value)));
}
