// The policies a payment provider asks a shop to publish: refunds and cancellation, privacy and
// terms (their words in config/site-content's POLICIES), each on its own page.
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { POLICIES, type PolicyKey } from '../../../config/site-content';
import { useDocumentHead } from '../../../hooks/use-document-head';
import { formatLongDate } from '../../../lib/format-date';
import { InfoPage } from './info-page';

function PolicyPage({ policy }: { policy: PolicyKey }) {
  const text = POLICIES[policy];
  useDocumentHead({ title: `${text.title} | Persona Books`, description: text.lead });
  return (
    <InfoPage eyebrow="Policies" title={text.title} lead={text.lead}>
      <div className="policy">
        <p className="policy__updated">Last updated {formatLongDate(text.updated)}</p>
        {text.sections.map((section) => (
          <section key={section.heading} className="policy__section">
            <h2>{section.heading}</h2>
            {section.paragraphs.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </section>
        ))}
      </div>
      <p className="info-page__note">
        Questions? <Link to={paths.contact}>Contact us</Link>. See also our <Link to={paths.refunds}>Refund and Cancellation Policy</Link>,{' '}
        <Link to={paths.shipping}>Shipping Policy</Link>, <Link to={paths.privacy}>Privacy Policy</Link> and <Link to={paths.terms}>Terms of Service</Link>.
      </p>
    </InfoPage>
  );
}

export const RefundsPage = () => <PolicyPage policy="refunds" />;
export const PrivacyPage = () => <PolicyPage policy="privacy" />;
export const TermsPage = () => <PolicyPage policy="terms" />;
