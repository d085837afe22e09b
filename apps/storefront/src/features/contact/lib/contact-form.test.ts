import { FeedbackBody } from '@persona/contracts';
import { ApiError } from '@persona/web-kit/api-client';
import {
  buildContactBody,
  characterCount,
  CONTACT_MAX_LENGTH,
  CONTACT_MESSAGES,
  contactErrorText,
  EMPTY_CONTACT,
  firstInvalidContactField,
  mailtoHref,
  SOMETHING_WENT_WRONG,
  telHref,
  validateContact,
  type ContactValues,
} from './contact-form';

const filled: ContactValues = { name: 'Asha Rao', email: 'asha@example.com', message: 'When will the printed edition ship?' };

describe('contact form validation', () => {
  it('accepts a complete form', () => {
    expect(validateContact(filled)).toEqual({});
  });

  it('requires name, email and message, blank text counting as empty', () => {
    expect(validateContact(EMPTY_CONTACT)).toEqual({ name: CONTACT_MESSAGES.name, email: CONTACT_MESSAGES.email, message: CONTACT_MESSAGES.message });
    expect(validateContact({ name: '   ', email: ' \t', message: '\n\n ' })).toEqual({
      name: CONTACT_MESSAGES.name,
      email: CONTACT_MESSAGES.email,
      message: CONTACT_MESSAGES.message,
    });
  });

  it('judges the values trimmed, as they are sent', () => {
    expect(validateContact({ name: '  Asha  ', email: ' asha@example.com ', message: '  Hello  ' })).toEqual({});
  });

  it('wants the e-mail shape the server accepts (a domain with a dot, no spaces)', () => {
    for (const email of ['asha', 'asha@', '@example.com', 'asha@example', 'a b@example.com', 'asha@@example.com', 'asha@example..com', 'asha@-example.com']) {
      expect({ email, error: validateContact({ ...filled, email }).email }).toEqual({ email, error: CONTACT_MESSAGES.email });
    }
    for (const email of ['asha.rao+books@example.co.in', 'ASHA@EXAMPLE.COM', "o'neil@mail.example.org"]) {
      expect({ email, error: validateContact({ ...filled, email }).email }).toEqual({ email, error: undefined });
    }
  });

  it("keeps to FeedbackBody's maximum lengths", () => {
    expect(CONTACT_MAX_LENGTH).toEqual({
      name: FeedbackBody.properties.name.maxLength,
      email: FeedbackBody.properties.email.maxLength,
      message: FeedbackBody.properties.message.maxLength,
    });
    const longest = { name: 'n'.repeat(120), email: `${'e'.repeat(188)}@example.com`, message: 'm'.repeat(5000) };
    expect(longest.email).toHaveLength(200);
    expect(validateContact(longest)).toEqual({});
    expect(validateContact({ name: 'n'.repeat(121), email: `${'e'.repeat(189)}@example.com`, message: 'm'.repeat(5001) })).toEqual({
      name: CONTACT_MESSAGES.nameTooLong,
      email: CONTACT_MESSAGES.emailTooLong,
      message: CONTACT_MESSAGES.messageTooLong,
    });
  });

  it('counts characters as the server does (an emoji is one), after trimming', () => {
    expect(characterCount('📚')).toBe(1);
    expect(validateContact({ ...filled, message: '📚'.repeat(5000) })).toEqual({});
    expect(validateContact({ ...filled, message: `  ${'m'.repeat(5000)}  ` })).toEqual({});
  });

  it('names the first invalid field in form order', () => {
    expect(firstInvalidContactField(validateContact({ ...filled, email: 'x', message: '' }))).toBe('email');
    expect(firstInvalidContactField(validateContact({ ...filled, message: '' }))).toBe('message');
    expect(firstInvalidContactField({})).toBeNull();
  });
});

describe('the message sent', () => {
  it('is exactly name, email and message, trimmed', () => {
    expect(buildContactBody({ name: '  Asha Rao ', email: ' asha@example.com ', message: '\n Line one\nLine two \n' })).toEqual({
      name: 'Asha Rao',
      email: 'asha@example.com',
      message: 'Line one\nLine two',
    });
  });
});

describe('a message that was not sent', () => {
  it('shows the server\'s message, else "Something went wrong!"', () => {
    expect(contactErrorText(new ApiError(429, 'Too many requests; please try again in 40 seconds'))).toBe('Too many requests; please try again in 40 seconds');
    expect(contactErrorText(new ApiError(400, 'body field "email" must be a valid email'))).toBe('body field "email" must be a valid email');
    expect(contactErrorText(new ApiError(502, 'Bad Gateway'))).toBe(SOMETHING_WENT_WRONG);
    expect(contactErrorText(new TypeError('Failed to fetch'))).toBe(SOMETHING_WENT_WRONG);
    expect(SOMETHING_WENT_WRONG).toBe('Something went wrong!');
  });
});

describe('contact links', () => {
  it('dials the digits of a number written for people, keeping a leading +', () => {
    expect(telHref('+91 80 4000 1234')).toBe('tel:+918040001234');
    expect(telHref('(080) 4000-1234')).toBe('tel:08040001234');
  });

  it('mails the address', () => {
    expect(mailtoHref(' support@personabooks.in ')).toBe('mailto:support@personabooks.in');
  });
});
