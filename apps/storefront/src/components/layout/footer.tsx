// The site footer; the newsletter form is passed in by the app so this shared piece imports no feature.
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';
import { Logo } from './logo';

const FOOTER_LINKS = [
  { to: paths.home, label: 'Home' },
  { to: paths.books, label: 'Books' },
  { to: paths.about, label: 'About Us' },
  { to: paths.faqs, label: 'FAQ' },
  { to: paths.contact, label: 'Contact Us' },
  { to: paths.sendPersona, label: 'Find My Persona' },
  { to: paths.myPersonas, label: 'My Personas' },
] as const;

/** What a payment provider asks a shop to publish, linked from every page. */
const POLICY_LINKS = [
  { to: paths.shipping, label: 'Shipping' },
  { to: paths.refunds, label: 'Refunds & Cancellation' },
  { to: paths.privacy, label: 'Privacy' },
  { to: paths.terms, label: 'Terms of Service' },
] as const;

export function Footer({ newsletter }: { newsletter?: ReactNode }) {
  return (
    <footer className="site-footer">
      <div className="container site-footer__grid">
        <div className="site-footer__brand">
          <Logo />
          <p className="site-footer__tagline">Personalised books carrying your name, the date you bought them and a signature anyone can verify.</p>
        </div>
        <nav aria-label="Footer" className="site-footer__nav">
          {(
            [
              ['Explore', FOOTER_LINKS],
              ['Policies', POLICY_LINKS],
            ] as const
          ).map(([heading, links]) => (
            <div key={heading}>
              <h2 className="site-footer__heading">{heading}</h2>
              <ul className="site-footer__links">
                {links.map((link) => (
                  <li key={link.to}>
                    <Link to={link.to}>{link.label}</Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        {newsletter && <div className="site-footer__newsletter">{newsletter}</div>}
      </div>
      <div className="container site-footer__bottom">
        <p>© {new Date().getFullYear()} Persona Books. All rights reserved. Prices in Indian rupees.</p>
      </div>
    </footer>
  );
}
