// /admin/login (spec §2, §8): e-mail and password with a show/hide toggle, "Logging in..." while busy,
// toasts "Login failed" / "Login successful", then the page the guard came from (else the dashboard).
import { useId, useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { ApiError } from '@persona/web-kit/api-client';
import { hasAdminToken, saveAdminSession } from '@persona/web-kit/admin-session';
import { LogoMark } from '@persona/web-kit/logo-mark';
import { useToast } from '@persona/web-kit/toast';
import { paths } from '../../../config/paths';
import { usePageTitle } from '../../../lib/use-page-title';
import { login } from '../api/login';

interface LoginState {
  from?: string;
  sessionEnded?: boolean;
}

export function LoginPage() {
  usePageTitle('Log in');
  const navigate = useNavigate();
  const location = useLocation();
  const state = (location.state ?? {}) as LoginState;
  const { toast } = useToast();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [busy, setBusy] = useState(false);
  const emailId = useId();
  const passwordId = useId();

  if (!busy && hasAdminToken()) return <Navigate to={paths.dashboard} replace />;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const { token, admin } = await login({ email: email.trim(), password });
      saveAdminSession(token, admin);
      toast({ title: 'Login successful' });
      void navigate(state.from && state.from.startsWith('/') && !state.from.startsWith('//') ? state.from : paths.dashboard, { replace: true });
    } catch (error) {
      const message = error instanceof ApiError && error.message ? error.message : 'Invalid credentials';
      toast({ title: 'Login failed', description: message, variant: 'destructive' });
      setBusy(false);
    }
  }

  return (
    <main className="login" id="main-content">
      <form className="login__card" onSubmit={submit} aria-labelledby="login-title">
        <p className="login__brand" aria-hidden="true">
          <LogoMark size={28} className="admin-brand__mark" /> Persona Books
        </p>
        <h1 id="login-title" className="login__title">
          Admin login
        </h1>
        {state.sessionEnded && (
          <p className="form-note" role="status">
            Your session has ended. Please log in again.
          </p>
        )}
        <div className="field">
          <label htmlFor={emailId}>Email</label>
          <input id={emailId} type="email" name="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={passwordId}>Password</label>
          <div className="password-input">
            <input
              id={passwordId}
              type={showPassword ? 'text' : 'password'}
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <button type="button" className="password-input__toggle" onClick={() => setShowPassword((shown) => !shown)} aria-controls={passwordId}>
              {showPassword ? 'Hide' : 'Show'}
              <span className="visually-hidden"> password</span>
            </button>
          </div>
        </div>
        <button type="submit" className="btn btn--primary login__submit" disabled={busy}>
          {busy ? 'Logging in...' : 'Login'}
        </button>
        <a className="login__back" href="/">
          Back to the shop
        </a>
      </form>
    </main>
  );
}
