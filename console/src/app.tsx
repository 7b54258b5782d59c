/**
 * The console's frame: the sign-in form until a session exists, then the navigation and the
 * current page. Focus moves to a page's heading when the page changes, so keyboard and screen
 * reader users land where the new content starts.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, whenSignedOut } from './api';
import { BASE, go, usePage } from './router';
import { SignIn } from './sign-in';
import { Overview } from './pages/overview';
import { Tokens } from './pages/tokens';
import { Accounts } from './pages/accounts';
import { Usage } from './pages/usage';
import { Requests } from './pages/requests';
import { Tasks } from './pages/tasks';
import { Channels } from './pages/channels';
import { Identities } from './pages/identities';
import { Codes } from './pages/codes';
import { Playground } from './pages/playground';
import { Settings } from './pages/settings';

const PAGES = [
  ['overview', 'Overview', Overview],
  ['tokens', 'Tokens', Tokens],
  ['accounts', 'Accounts', Accounts],
  ['usage', 'Usage', Usage],
  ['requests', 'Requests', Requests],
  ['tasks', 'Tasks', Tasks],
  ['channels', 'Channels', Channels],
  ['identities', 'Identities', Identities],
  ['codes', 'Codes', Codes],
  ['playground', 'Playground', Playground],
  ['settings', 'Settings', Settings],
] as const;

type Session = { name: string } | null | undefined;

export function App() {
  const [session, setSession] = useState<Session>(undefined);
  const [ended, setEnded] = useState<string>();
  const page = usePage();

  useEffect(() => {
    whenSignedOut((message) => {
      setEnded(message);
      setSession(null);
    });
    api<{ name: string | null; ended: string | null }>('GET', '/session').then(
      (answer) => {
        if (answer.ended) setEnded(answer.ended);
        setSession(answer.name === null ? null : { name: answer.name });
      },
      () => setSession(null),
    );
  }, []);

  // Focus follows a change of page, not the first load, where the skip link comes first.
  const shown = useRef<string>(undefined);
  useEffect(() => {
    const title = PAGES.find(([id]) => id === page)?.[1] ?? 'Not found';
    document.title = `${title} · Switchyard console`;
    if (!session) return;
    if (shown.current !== undefined && shown.current !== page) document.getElementById('page-title')?.focus();
    shown.current = page;
  }, [page, session]);

  if (session === undefined) return null;
  if (session === null)
    return (
      <SignIn
        notice={ended}
        onSignedIn={(name) => {
          setEnded(undefined);
          setSession({ name });
        }}
      />
    );

  const signOut = async () => {
    await api('DELETE', '/session').catch(() => undefined);
    setSession(null);
  };
  const Page = PAGES.find(([id]) => id === page)?.[2];

  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Switchyard</span>
        <nav aria-label="Console">
          <ul>
            {PAGES.map(([id, label]) => (
              <li key={id}>
                <a
                  href={`${BASE}${id}`}
                  aria-current={id === page ? 'page' : undefined}
                  onClick={(event) => {
                    if (event.ctrlKey || event.metaKey || event.shiftKey) return;
                    event.preventDefault();
                    go(id);
                  }}
                >
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span class="muted">{session.name}</span>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main">
        {Page ? (
          <Page />
        ) : (
          <h1 id="page-title" tabIndex={-1}>
            No such page
          </h1>
        )}
      </main>
    </div>
  );
}
