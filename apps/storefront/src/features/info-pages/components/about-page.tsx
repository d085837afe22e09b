import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { TEAM } from '../../../config/site-content';
import { useDocumentHead } from '../../../hooks/use-document-head';
import { InfoPage } from './info-page';

const DIFFERENTIATORS = [
  { title: 'Truly yours', text: 'Your name and purchase date printed inside, not a sticker on the cover.' },
  {
    title: 'Signed and verifiable',
    text: 'Every Persona is signed, by the author where they have given us their signature and otherwise by Persona Books for them, and anyone can check it.',
  },
  { title: 'Try before you buy', text: 'Read a free sample of every book before you make it yours.' },
  { title: 'Digital or print', text: 'Download your Persona at once, or have a printed copy delivered.' },
] as const;

function initials(name: string): string {
  return name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
}

export function AboutPage() {
  useDocumentHead({
    title: 'About Us | Persona Books',
    description: 'Our story, our mission and the team behind Persona Books, the shop of personalised, author-signed books.',
  });
  return (
    <InfoPage eyebrow="About us" title="Books that know who they belong to" lead="Persona Books makes every copy of a book personal.">
      <div className="about-grid">
        <section>
          <h2>Our story</h2>
          <p>
            We love the inscribed first editions on our grandparents’ shelves: books that clearly belonged to someone. Persona Books brings that feeling to
            every reader, with a personalised copy of the books you love, signed by their authors.
          </p>
        </section>
        <section>
          <h2>Our mission</h2>
          <p>To make owning a book personal again, and to give authors a genuine, verifiable way to sign every copy they sell, in digital and in print.</p>
        </section>
      </div>

      <section className="about-section" aria-labelledby="team-heading">
        <h2 id="team-heading">Our team</h2>
        <ul className="team">
          {TEAM.map((member) => (
            <li key={member.name} className="team__member">
              <span className="team__avatar" aria-hidden="true">
                {initials(member.name)}
              </span>
              <h3 className="team__name">{member.name}</h3>
              <p className="team__role">{member.role}</p>
              <p className="team__bio">{member.bio}</p>
            </li>
          ))}
        </ul>
      </section>

      <section className="about-section" aria-labelledby="different-heading">
        <h2 id="different-heading">What makes us different</h2>
        <ul className="info-cards">
          {DIFFERENTIATORS.map((item) => (
            <li key={item.title} className="info-card">
              <h3>{item.title}</h3>
              <p>{item.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <div className="about-actions">
        <Link to={paths.books} className="btn btn--primary btn--lg">
          Explore Books
        </Link>
        <Link to={paths.sendPersona} className="btn btn--outline btn--lg">
          Find My Persona
        </Link>
      </div>
    </InfoPage>
  );
}
