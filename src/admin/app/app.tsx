/** The frame: sign-in until credentials work, then the navigation and the screen the address names. */
import apiFetch from '@wordpress/api-fetch';
import { Button, Spinner } from '@wordpress/components';
import { createContext, useContext, useEffect, useState } from 'react';
import { type AdminConfig, errorMessage, isSignedIn, signOut } from './api.js';
import { Editor } from './editor.js';
import { ContentList } from './list.js';
import { MediaLibrary } from './media.js';
import { SignIn } from './sign-in.js';

export interface CurrentUser {
  id: number;
  name: string;
  slug: string;
  roles: string[];
  capabilities: Record<string, boolean>;
}

interface Session { user: CurrentUser; config: AdminConfig }

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside the signed-in app');
  return session;
}

export const can = (user: CurrentUser, capability: string): boolean => user.capabilities[capability] === true;

/** `#/posts`, `#/pages`, `#/media`, `#/edit/post/12`, `#/new/page`. */
export interface Route { screen: 'list' | 'media' | 'edit'; type: 'post' | 'page'; id: number | null }

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/');
  if (parts[0] === 'media') return { screen: 'media', type: 'post', id: null };
  if (parts[0] === 'pages') return { screen: 'list', type: 'page', id: null };
  if ((parts[0] === 'edit' || parts[0] === 'new') && (parts[1] === 'post' || parts[1] === 'page')) {
    const id = parts[0] === 'edit' ? Number(parts[2]) : null;
    return { screen: 'edit', type: parts[1], id: Number.isSafeInteger(id) && id! > 0 ? id : null };
  }
  return { screen: 'list', type: 'post', id: null };
}

/**
 * The route and how many times the address changed: a new item's editor replaces its address once saved, without
 * an event, so opening a new item again has only the count to tell it is a fresh editor.
 */
function useRoute(): Route & { visit: number } {
  const [state, setState] = useState({ hash: location.hash, visit: 0 });
  useEffect(() => {
    const listener = () => setState((previous) => ({ hash: location.hash, visit: previous.visit + 1 }));
    window.addEventListener('hashchange', listener);
    return () => window.removeEventListener('hashchange', listener);
  }, []);
  return { ...parseRoute(state.hash), visit: state.visit };
}

export function App({ config }: { config: AdminConfig }) {
  const [user, setUser] = useState<CurrentUser | null>(null);
  const [signedIn] = useState(isSignedIn());
  const [failure, setFailure] = useState<string | null>(null);
  const route = useRoute();

  useEffect(() => {
    if (!signedIn) return;
    apiFetch<CurrentUser>({ path: '/wp/v2/users/me?context=edit' }).then(setUser, (error) => setFailure(errorMessage(error)));
  }, [signedIn]);

  if (!signedIn) return <SignIn onSignedIn={() => location.reload()} />;
  if (failure) return <div className="quire-admin-message"><p>{failure}</p><Button variant="secondary" onClick={signOut}>Sign out</Button></div>;
  if (!user) return <div className="quire-admin-message"><Spinner /></div>;

  const canEditSomething = can(user, 'edit_posts') || can(user, 'edit_pages');
  return (
    <SessionContext.Provider value={{ user, config }}>
      <div className="quire-admin">
        <header className="quire-admin-bar">
          <nav aria-label="Sections">
            {can(user, 'edit_posts') && <a href="#/posts" aria-current={route.screen === 'list' && route.type === 'post' ? 'page' : undefined}>Posts</a>}
            {can(user, 'edit_pages') && <a href="#/pages" aria-current={route.screen === 'list' && route.type === 'page' ? 'page' : undefined}>Pages</a>}
            {can(user, 'upload_files') && <a href="#/media" aria-current={route.screen === 'media' ? 'page' : undefined}>Media</a>}
          </nav>
          <span className="quire-admin-user">{user.name}</span>
          <Button variant="tertiary" onClick={signOut}>Sign out</Button>
        </header>
        <main className="quire-admin-main">
          {!canEditSomething ? <p className="quire-admin-message">Your account has nothing to edit on this site.</p>
            : route.screen === 'media' ? <MediaLibrary />
            : route.screen === 'edit' ? <Editor key={`${route.type}-${route.id ?? `new-${route.visit}`}`} type={route.type} id={route.id} />
            : <ContentList key={route.type} type={route.type} />}
        </main>
      </div>
    </SessionContext.Provider>
  );
}
