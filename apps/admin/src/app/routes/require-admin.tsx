import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { hasAdminToken } from '@persona/web-kit/admin-session';
import { paths } from '../../config/paths';

/** Spec §4: no stored token → the login page. Whether the token is valid is the server's call (a 401 logs out). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (!hasAdminToken()) return <Navigate to={paths.login} replace state={{ from: location.pathname + location.search }} />;
  return <>{children}</>;
}
