// The guarded frame: side menu (spec §2: Home, Books, Categories, Orders, Feedback, Logout,
// plus the monthly reports, leaked-copy search, the audit log and subscribers), the header label, and the page outlet.
import { Suspense, useEffect, useId, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { api } from '@persona/web-kit/api-client';
import { clearAdminSession, readAdminLabel } from '@persona/web-kit/admin-session';
import { LogoMark } from '@persona/web-kit/logo-mark';
import { paths, STOREFRONT_HOME } from '../../config/paths';
import { PageLoading } from '../../components/page-loading';

const MENU = [
  { to: paths.dashboard, label: 'Home', end: true },
  { to: paths.books, label: 'Books', end: false },
  { to: paths.categories, label: 'Categories', end: false },
  { to: paths.orders, label: 'Orders', end: false },
  { to: paths.coupons, label: 'Coupons', end: false },
  { to: paths.reports, label: 'Reports', end: false },
  { to: paths.feedbacks, label: 'Feedback', end: false },
  { to: paths.leaks, label: 'Leaks', end: false },
  { to: paths.subscribers, label: 'Subscribers', end: false },
  { to: paths.audit, label: 'Audit log', end: false },
] as const;

export function AdminLayout() {
  const navigate = useNavigate();
  const [label] = useState(() => readAdminLabel());
  const [loggingOut, setLoggingOut] = useState(false);
  // On a phone the menu is a drawer behind a Menu button (on a desktop it is always shown).
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const { pathname } = useLocation();
  // A page chosen from the drawer closes it.
  useEffect(() => setMenuOpen(false), [pathname]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  async function logout() {
    if (loggingOut) return;
    setLoggingOut(true);
    try {
      await api.post('/admin/logout', undefined);
    } catch (error) {
      // Spec §8: a failed logout is only logged; the local session is forgotten either way.
      console.error('Logout failed', error);
    }
    clearAdminSession();
    void navigate(paths.login, { replace: true });
  }

  return (
    <div className="admin-shell">
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <aside className={`admin-sidebar${menuOpen ? ' admin-sidebar--open' : ''}`}>
        <div className="admin-sidebar__bar">
          <p className="admin-sidebar__brand">
            <LogoMark size={28} className="admin-brand__mark" /> Persona Books
          </p>
          <button type="button" className="admin-menu-button" aria-expanded={menuOpen} aria-controls={menuId} onClick={() => setMenuOpen((open) => !open)}>
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
              <path d={menuOpen ? 'M6 6l12 12M18 6 6 18' : 'M4 7h16M4 12h16M4 17h16'} stroke="currentColor" strokeWidth="2" strokeLinecap="round" fill="none" />
            </svg>
            {menuOpen ? 'Close' : 'Menu'}
          </button>
        </div>
        <nav aria-label="Admin menu" id={menuId} className="admin-sidebar__nav">
          <ul className="admin-menu">
            {MENU.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.end} className={({ isActive }) => `admin-menu__link${isActive ? ' admin-menu__link--active' : ''}`}>
                  {item.label}
                </NavLink>
              </li>
            ))}
            <li>
              <button type="button" className="admin-menu__link admin-menu__logout" onClick={logout} disabled={loggingOut}>
                {loggingOut ? 'Logging out...' : 'Logout'}
              </button>
            </li>
          </ul>
        </nav>
      </aside>
      <div className="admin-main">
        <header className="admin-header">
          <a className="admin-header__shop" href={STOREFRONT_HOME}>
            View the shop
          </a>
          <p className="admin-header__label">
            <span className="visually-hidden">Signed in as </span>
            {label}
          </p>
        </header>
        <main id="main-content" className="admin-content" tabIndex={-1}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
