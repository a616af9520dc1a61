/** Sign-in with a login and an application password; both stay in this tab only. */
import { Button, Notice, TextControl } from '@wordpress/components';
import { useState } from 'react';
import { errorMessage, signIn } from './api.js';

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(login.trim(), password.replace(/\s+/g, ''));
      onSignedIn();
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };

  return (
    <form className="quire-admin-sign-in" onSubmit={submit}>
      <h1>Sign in</h1>
      {error && <Notice status="error" isDismissible={false}>{error}</Notice>}
      <TextControl __next40pxDefaultSize label="Login" value={login} onChange={setLogin} autoComplete="username" />
      <TextControl __next40pxDefaultSize label="Application password" type="password" value={password} onChange={setPassword} autoComplete="current-password" />
      <Button __next40pxDefaultSize variant="primary" type="submit" isBusy={busy} disabled={busy || !login || !password}>Sign in</Button>
    </form>
  );
}
