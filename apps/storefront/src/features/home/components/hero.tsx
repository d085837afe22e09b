import { useState } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { TryWithYourName } from './try-with-your-name';

export function Hero() {
  // The name typed in "Try it with your name" shows on the book in the picture as it is typed.
  const [name, setName] = useState('');
  return (
    <section className="hero" aria-labelledby="hero-heading">
      <div className="container hero__inner">
        <div className="hero__copy">
          <p className="eyebrow hero__eyebrow">Books that carry your name</p>
          <h1 id="hero-heading" className="hero__title">
            Every great story, <span className="hero__highlight">personalised for you</span>
          </h1>
          <p className="hero__lead">
            A Persona is your own copy of a book: your name and purchase date inside, signed, with a unique Persona ID that proves it is yours.
          </p>
          <div className="hero__actions">
            <Link to={paths.books} className="btn btn--light btn--lg">
              Explore Books
            </Link>
            <a href={paths.personaExplainer} className="btn btn--ghost-light btn--lg">
              What is a Persona?
            </a>
          </div>
          <TryWithYourName name={name} onName={setName} />
        </div>
        <div className="hero__art" aria-hidden="true">
          <div className="hero__book hero__book--back" />
          <div className="hero__book hero__book--front">
            <span className="hero__book-kicker">Personalised for</span>
            <span className="hero__book-name">{name.trim() || 'You'}</span>
            <span className="hero__book-id">PRS-7K3M-9QXD</span>
          </div>
        </div>
      </div>
    </section>
  );
}
