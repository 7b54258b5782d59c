/** Sign-in: the admin token is sent once and exchanged for the session cookie; it is not kept. */
import { useState } from 'preact/hooks';
import { api } from './api';
import { ErrorNote, useAction } from './ui';

export function SignIn({ notice, onSignedIn }: { notice?: string; onSignedIn: (name: string) => void }) {
  const [token, setToken] = useState('');
  const signIn = useAction((secret: string) => api<{ name: string }>('POST', '/session', { token: secret }));
  const submit = async (event: Event) => {
    event.preventDefault();
    const answer = await signIn.start(token);
    if (answer) {
      setToken('');
      onSignedIn(answer.name);
    }
  };
  return (
    <main id="main" class="sign-in">
      <form class="card" onSubmit={submit}>
        <h1 id="page-title" tabIndex={-1}>
          Switchyard console
        </h1>
        {notice && (
          <p class="notice" role="status">
            {notice}
          </p>
        )}
        <label class="field">
          <span class="field-label">Admin token</span>
          <input
            type="password"
            name="token"
            autocomplete="off"
            required
            value={token}
            onInput={(event) => setToken(event.currentTarget.value)}
          />
          <span class="hint">
            An admin token: <code>switchyard token create --name ops --admin</code> prints one, and{' '}
            <code>make run</code> prints a development one.
          </span>
        </label>
        <ErrorNote error={signIn.error} />
        <button type="submit" class="primary" disabled={signIn.busy}>
          {signIn.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
