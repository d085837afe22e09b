import { Link } from 'react-router-dom';
import { paths } from '../../config/paths';

export function Logo() {
  return (
    <Link to={paths.home} className="logo" aria-label="Persona Books, home">
      <svg className="logo__mark" viewBox="0 0 64 64" width="32" height="32" aria-hidden="true">
        <rect width="64" height="64" rx="14" fill="currentColor" />
        <path d="M18 16h16a12 12 0 0 1 0 24h-8v8h-8z" fill="#fff" />
        <path d="M26 24h8a4 4 0 0 1 0 8h-8z" fill="currentColor" />
      </svg>
      <span className="logo__text">Persona Books</span>
    </Link>
  );
}
