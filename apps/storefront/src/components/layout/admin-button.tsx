import { useEffect, useState } from 'react';
import { ADMIN_STORAGE_KEY, readAdminLabel } from '@persona/web-kit/admin-session';
import { paths } from '../../config/paths';

/** Links to the admin app (a separate SPA, so a plain anchor) labelled with the stored admin. */
export function AdminButton({ className = '' }: { className?: string }) {
  const [label, setLabel] = useState(() => readAdminLabel());
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || event.key === ADMIN_STORAGE_KEY) setLabel(readAdminLabel());
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);
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
