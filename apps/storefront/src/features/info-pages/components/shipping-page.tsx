import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths';
import { SHIPPING } from '../../../config/site-content';
import { formatInr } from '@persona/contracts';
import { useDocumentHead } from '../../../hooks/use-document-head';
import { InfoPage } from './info-page';

export function ShippingPage() {
  useDocumentHead({
    title: 'Shipping | Persona Books',
    description: `Physical Personas ship for a flat ${formatInr(SHIPPING.deliveryFeeRupees)} and arrive ${SHIPPING.minBusinessDays} to ${SHIPPING.maxBusinessDays} business days after dispatch.`,
  });
  return (
    <InfoPage eyebrow="Delivery" title="Shipping Information" lead="How your printed Persona reaches you.">
      <div className="info-cards">
        <section className="info-card">
          <h2>Handled with care</h2>
          <p>Shipping is handled manually: every printed Persona is checked and packed by hand before it leaves us.</p>
        </section>
        <section className="info-card">
          <h2>Flat fee</h2>
          <p>
            Physical deliveries have a flat fee of <strong>{formatInr(SHIPPING.deliveryFeeRupees)}</strong>. Digital Personas have no delivery fee.
          </p>
        </section>
        <section className="info-card">
          <h2>Where we deliver</h2>
          <p>We deliver printed Personas to addresses in India with a 6-digit PIN code. Your digital copy is ready to download wherever you are.</p>
        </section>
        <section className="info-card">
          <h2>Delivery time</h2>
          <p>
            We dispatch a printed Persona within <strong>{SHIPPING.dispatchBusinessDays} business days</strong> of your payment (a gift is dispatched so that it
            arrives by the day you chose). Physical deliveries take{' '}
            <strong>
              {SHIPPING.minBusinessDays} to {SHIPPING.maxBusinessDays} business days
            </strong>{' '}
            after dispatch. The day your copy leaves us we e-mail you the carrier and its tracking number, which your Persona's page shows too.
          </p>
        </section>
      </div>
      <p className="info-page__note">
        Questions about an order? <Link to={paths.contact}>Contact us</Link> or <Link to={paths.sendPersona}>find your Persona</Link>. A damaged copy or a
        cancellation: see our <Link to={paths.refunds}>Refund and Cancellation Policy</Link>.
      </p>
    </InfoPage>
  );
}
