import { useDocumentHead } from '../../../hooks/use-document-head';
import { Hero } from './hero';
import { FeaturedBooks } from './featured-books';
import { PersonaExplainer } from './persona-explainer';
import { Testimonials } from './testimonials';
import { ClosingCta } from './closing-cta';
import './home.css';

export function HomePage() {
  useDocumentHead({
    title: 'Persona Books | Personalised books signed for you',
    description: 'Buy a Persona: a personalised copy of a book with your name, the purchase date, a signature anyone can verify and a unique Persona ID.',
  });
  return (
    <>
      <Hero />
      <FeaturedBooks />
      <PersonaExplainer />
      <Testimonials />
      <ClosingCta />
    </>
  );
}
