// The sticky site header: logo, search, main links, admin button and the mobile menu.
import { useEffect, useId, useRef, useState } from 'react';
import { NavLink, useLocation } from 'react-router-dom';
import { paths } from '../../config/paths';
import { Logo } from './logo';
import { HeaderSearch } from './header-search';
import { AdminButton } from './admin-button';

// "My Personas" here and in the phone menu, not only in the footer: a returning buyer's first stop.
const NAV_LINKS = [
  { to: paths.books, label: 'Explore' },
  { to: paths.myPersonas, label: 'My Personas' },
  { to: paths.about, label: 'About' },
  { to: paths.contact, label: 'Contact' },
] as const;

export function Header() {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const location = useLocation();
  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => setOpen(false), [location.pathname, location.search]);
  // The explore page has its own search box, answering as one types: one box there, not two doing the same thing.
  const searchHere = location.pathname !== paths.books;

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Logo />
        {searchHere ? <HeaderSearch className="site-header__search" /> : <div className="site-header__search" />}
        <nav className="site-header__nav" aria-label="Main">
          {NAV_LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} className="site-header__link">
              {link.label}
            </NavLink>
          ))}
          <AdminButton />
        </nav>
        <button
          ref={toggleRef}
          type="button"
          className="site-header__menu-toggle"
          aria-expanded={open}
          aria-controls={menuId}
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpen((value) => !value)}
        >
          <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            {open ? <path d="M6 6l12 12M18 6 6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
      </div>
      <div id={menuId} className="mobile-menu" hidden={!open}>
        <div className="container mobile-menu__inner">
          {searchHere && <HeaderSearch onNavigate={() => setOpen(false)} className="mobile-menu__search" />}
          <nav aria-label="Mobile">
            <ul className="mobile-menu__list">
              <li>
                <NavLink to={paths.home} end className="mobile-menu__link">
                  Home
                </NavLink>
              </li>
              {NAV_LINKS.map((link) => (
                <li key={link.to}>
                  <NavLink to={link.to} className="mobile-menu__link">
                    {link.label}
                  </NavLink>
                </li>
              ))}
              <li>
                <AdminButton className="mobile-menu__admin" />
              </li>
            </ul>
          </nav>
        </div>
      </div>
    </header>
  );
}
