import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';

export function ClosingCta() {
  return (
    <section className="page-section" aria-labelledby="cta-heading">
      <div className="container">
        <div className="cta">
          <h2 id="cta-heading" className="cta__title">
            Ready to own a book that is truly yours?
          </h2>
          <p className="cta__text">Read a free sample of any book, then make it your Persona.</p>
          <Link to={paths.books} className="btn btn--light btn--lg">
            Browse the collection
          </Link>
        </div>
      </div>
    </section>
  );
}
