// The shop's support e-mail, phone and postal address (spec §2, DESIGN §10: from the site-content config).
import { CONTACT_DETAILS } from '../../../config/site-content';
import { mailtoHref, telHref } from '../lib/contact-form';

export function ContactDetails() {
  const { email, phone, address, replyWithin } = CONTACT_DETAILS;
  return (
    <section className="contact-details" aria-labelledby="contact-details-heading">
      <h2 id="contact-details-heading" className="contact__section-title">
        Other ways to reach us
      </h2>
      <dl className="contact-details__list">
        <div className="contact-details__item">
          <dt>Email</dt>
          <dd>
            <a href={mailtoHref(email)}>{email}</a>
          </dd>
        </div>
        <div className="contact-details__item">
          <dt>Phone</dt>
          <dd>
            <a href={telHref(phone)}>{phone}</a>
          </dd>
        </div>
        <div className="contact-details__item">
          <dt>Address</dt>
          <dd>
            <address>
              {address.map((line, index) => (
                <span key={line}>
                  {index > 0 && <br />}
                  {line}
                </span>
              ))}
            </address>
          </dd>
        </div>
      </dl>
      <p className="contact-details__note">We reply to every message within {replyWithin}.</p>
    </section>
  );
}
