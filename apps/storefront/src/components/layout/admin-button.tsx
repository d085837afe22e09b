import { useSyncExternalStore } from 'react';
import { ADMIN_STORAGE_KEY, readAdminLabel } from '@persona/web-kit/admin-session';
import { paths } from '../../config/paths';

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === ADMIN_STORAGE_KEY) onChange();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

/** What the server renders (it cannot see the browser's storage); the browser then shows the stored admin. */
const SERVER_LABEL = 'Admin';

/** Links to the admin app (a separate SPA, so a plain anchor) labelled with the stored admin. */
export function AdminButton({ className = '' }: { className?: string }) {
  const label = useSyncExternalStore(subscribe, readAdminLabel, () => SERVER_LABEL);
  return (
    <a href={paths.admin} className={`btn btn--outline btn--sm admin-button ${className}`} title={label}>
      <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
        <circle cx="12" cy="8" r="4" />
        <path d="M4 21a8 8 0 0 1 16 0" />
      </svg>
      <span className="admin-button__label">{label}</span>
    </a>
  );
}
