import { Link } from 'react-router-dom';
import { LogoMark } from '@persona/web-kit/logo-mark';
import { paths } from '../../config/paths';

export function Logo() {
  return (
    <Link to={paths.home} className="logo" aria-label="Persona Books, home">
      <LogoMark />
      <span className="logo__text">Persona Books</span>
    </Link>
  );
}
