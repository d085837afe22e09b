import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';

const STEPS = [
  { title: 'Your name, in print', text: 'Each Persona carries a dedication page with your name and the date you bought it.' },
  {
    title: 'Signed, and anyone can check it',
    text: 'Each copy is signed, with the author’s own signature where they have given one, so anyone can check it is genuine and unmodified.',
  },
  { title: 'A unique Persona ID', text: 'Find your copy again any time with its ID, in digital or printed form.' },
] as const;

export function PersonaExplainer() {
  return (
    <section id="what-is-a-persona" className="page-section explainer" aria-labelledby="what-is-a-persona-heading" tabIndex={-1}>
      <div className="container">
        <p className="eyebrow">The Persona</p>
        <h2 id="what-is-a-persona-heading" className="section-heading">
          What is a Persona?
        </h2>
        <p className="section-lead">A Persona is one personalised copy of a book, made for one reader. It is the book you love, with proof that it is yours.</p>
        <ol className="explainer__steps">
          {STEPS.map((step, index) => (
            <li key={step.title} className="explainer__step">
              <span className="explainer__number" aria-hidden="true">
                {index + 1}
              </span>
              <h3 className="explainer__title">{step.title}</h3>
              <p className="explainer__text">{step.text}</p>
            </li>
          ))}
        </ol>
        <Link to={paths.about} className="btn btn--outline">
          Learn more about us
        </Link>
      </div>
    </section>
  );
}
