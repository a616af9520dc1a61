/**
 * The authoring app: sign-in, the lists of posts and pages, the block editor and the media library, over the REST
 * API through `@wordpress/data` and `@wordpress/core-data`. The page carries its settings as JSON (no inline
 * script: the page's policy allows scripts from its own origin only).
 */
import * as blockEditor from '@wordpress/block-editor';
import * as blocks from '@wordpress/blocks';
import * as components from '@wordpress/components';
import * as coreData from '@wordpress/core-data';
import * as data from '@wordpress/data';
import * as element from '@wordpress/element';
import { createRoot } from 'react-dom/client';
import { readConfig, setUpApi, isSignedIn } from './api.js';
import { App } from './app.js';
import { registerBlocks } from './blocks.js';
import '@wordpress/components/build-style/style.css';
import '@wordpress/block-editor/build-style/style.css';
import '@wordpress/block-library/build-style/style.css';
import '@wordpress/block-library/build-style/editor.css';
import '@wordpress/block-library/build-style/theme.css';
import '@wordpress/format-library/build-style/style.css';
import './app.css';

declare global {
  interface Window { wp?: Record<string, unknown> }
}

/** Loads the host's scripts in order; each may call `wp.blocks.registerBlockType`. */
function loadScripts(sources: readonly string[]): Promise<void> {
  return sources.reduce<Promise<void>>((previous, source) => previous.then(() => new Promise<void>((resolve) => {
    const script = document.createElement('script');
    script.src = source;
    script.onload = () => resolve();
    script.onerror = () => { console.warn(`quire admin: could not load ${source}`); resolve(); };
    document.head.append(script);
  })), Promise.resolve());
}

async function start(): Promise<void> {
  const config = readConfig();
  setUpApi(config);
  registerBlocks();
  window.wp = { blocks, blockEditor, components, coreData, data, element };
  if (isSignedIn()) await loadScripts(config.scripts);
  createRoot(document.getElementById('quire-admin')!).render(<App config={config} />);
}

void start();
