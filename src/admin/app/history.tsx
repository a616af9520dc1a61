/**
 * Undo and redo of the editor's title and blocks. As in the block editor, a persistent change (`onChange`) starts a
 * new history entry and a passing one (`onInput`, such as the next letter typed into the same paragraph) amends the
 * current one; a run of title keystrokes is one entry too. Ctrl/Cmd+Z undoes, Ctrl/Cmd+Shift+Z and Ctrl+Y redo.
 */
import { Button } from '@wordpress/components';
import { redo as redoIcon, undo as undoIcon } from '@wordpress/icons';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/* eslint-disable @typescript-eslint/no-explicit-any -- blocks are the block editor's objects. */
export interface Snapshot { blocks: any[]; title: string }
type Source = 'blocks' | 'title' | 'replace';

const LIMIT = 100;

export interface EditHistory {
  /** Records that `next` replaces the present; `persistent` starts a new entry. */
  change(source: Source, next: Snapshot, persistent: boolean): void;
  undo(): void;
  redo(): void;
  hasUndo: boolean;
  hasRedo: boolean;
}

export function useEditHistory(present: Snapshot, apply: (snapshot: Snapshot) => void): EditHistory {
  const [stacks, setStacks] = useState<{ past: Snapshot[]; future: Snapshot[] }>({ past: [], future: [] });
  const current = useRef(present);
  const stacksRef = useRef(stacks);
  const lastSource = useRef<Source | null>(null);
  current.current = present;
  stacksRef.current = stacks;

  const update = (next: { past: Snapshot[]; future: Snapshot[] }) => {
    stacksRef.current = next;
    setStacks(next);
  };

  const change = useCallback((source: Source, next: Snapshot, persistent: boolean) => {
    if (source === 'blocks' && sameBlocks(next.blocks, current.current.blocks)) {
      // The block editor marking its last change persistent, or echoing blocks it was given: the entry is complete.
      lastSource.current = null;
      current.current = next;
      return;
    }
    const startsEntry = source === 'replace' || (source === 'title' ? lastSource.current !== 'title' : persistent || lastSource.current !== 'blocks');
    const { past, future } = stacksRef.current;
    if (startsEntry) update({ past: [...past, current.current].slice(-LIMIT), future: [] });
    else if (future.length) update({ past, future: [] });
    lastSource.current = source;
    current.current = next;
  }, []);

  const step = useCallback((direction: 'undo' | 'redo') => {
    const { past, future } = stacksRef.current;
    const from = direction === 'undo' ? past : future;
    const target = from.at(-1);
    if (!target) return;
    const remaining = from.slice(0, -1);
    const other = [...(direction === 'undo' ? future : past), current.current];
    update(direction === 'undo' ? { past: remaining, future: other } : { past: other, future: remaining });
    lastSource.current = null;
    current.current = target;
    apply(target);
  }, [apply]);

  const undo = useCallback(() => step('undo'), [step]);
  const redo = useCallback(() => step('redo'), [step]);
  return { change, undo, redo, hasUndo: stacks.past.length > 0, hasRedo: stacks.future.length > 0 };
}

/** The keyboard shortcuts, within the editor (its dialogs and the sidebar's own fields keep their native undo). */
export function useHistoryShortcuts(container: RefObject<HTMLElement | null>, history: EditHistory): void {
  const latest = useRef(history);
  latest.current = history;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
      const target = event.target as HTMLElement;
      if (target !== document.body && !container.current?.contains(target)) return;
      if (target.tagName === 'INPUT' || (target.tagName === 'TEXTAREA' && !target.classList.contains('quire-admin-title'))) return;
      const key = event.key.toLowerCase();
      const isUndo = key === 'z' && !event.shiftKey;
      const isRedo = (key === 'z' && event.shiftKey) || (key === 'y' && event.ctrlKey && !event.shiftKey);
      if (!isUndo && !isRedo) return;
      event.preventDefault();
      event.stopPropagation();
      if (isUndo) latest.current.undo();
      else latest.current.redo();
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [container]);
}

export function HistoryButtons({ history }: { history: EditHistory }) {
  const mac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
  return (
    <>
      <Button icon={undoIcon} label="Undo" shortcut={mac ? '⌘Z' : 'Ctrl+Z'} size="compact" accessibleWhenDisabled disabled={!history.hasUndo} onClick={history.undo} />
      <Button icon={redoIcon} label="Redo" shortcut={mac ? '⇧⌘Z' : 'Ctrl+Shift+Z'} size="compact" accessibleWhenDisabled disabled={!history.hasRedo} onClick={history.redo} />
    </>
  );
}

/** Whether two block lists hold the same blocks with the same attribute values (the block editor rebuilds the lists). */
function sameBlocks(a: any[], b: any[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  return a.every((block, index) => {
    const other = b[index];
    if (block === other) return true;
    if (block.clientId !== other.clientId || block.name !== other.name || !sameBlocks(block.innerBlocks ?? [], other.innerBlocks ?? [])) return false;
    const keys = Object.keys(block.attributes ?? {});
    return keys.length === Object.keys(other.attributes ?? {}).length && keys.every((key) => block.attributes[key] === other.attributes[key]);
  });
}
