// The contact form (spec §5, DESIGN §9.9): its values, the rules the admin service's
// FeedbackBody enforces, and the body and texts that come out of it. Pure, so unit-tested.
import type { FeedbackBody } from '@persona/contracts';
import { serverMessage } from '../../../lib/server-message';

export interface ContactValues {
  name: string;
  email: string;
  message: string;
}

export type ContactField = keyof ContactValues;
export type ContactErrors = Partial<Record<ContactField, string>>;

export const EMPTY_CONTACT: ContactValues = { name: '', email: '', message: '' };

/** Fields in the order they appear, so the first invalid one gets focus. */
export const CONTACT_FIELD_ORDER: readonly ContactField[] = ['name', 'email', 'message'];

/** FeedbackBody's maxLength for each field (the test holds them to the schema). */
export const CONTACT_MAX_LENGTH = { name: 120, email: 200, message: 5000 } as const satisfies Record<ContactField, number>;

export const CONTACT_MESSAGES = {
  name: 'Please enter your name',
  nameTooLong: `Please keep your name under ${CONTACT_MAX_LENGTH.name} characters`,
  email: 'Please enter a valid email address',
  emailTooLong: `Please use an email address under ${CONTACT_MAX_LENGTH.email} characters`,
  message: 'Please enter your message',
  messageTooLong: `Please keep your message under ${CONTACT_MAX_LENGTH.message} characters`,
} as const;

export const SOMETHING_WENT_WRONG = 'Something went wrong!';

// The shape ajv-formats' "email" format accepts, which is what the admin service checks:
// a dot-atom local part and a domain of at least two labels.
const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

/** Lengths as JSON Schema counts them: in characters (code points), not UTF-16 units. */
export function characterCount(text: string): number {
  return [...text].length;
}

/** Every broken rule, keyed by field; empty when the form may be sent. Values are judged trimmed, as they are sent. */
export function validateContact(values: ContactValues): ContactErrors {
  const errors: ContactErrors = {};
  const name = values.name.trim();
  const email = values.email.trim();
  const message = values.message.trim();
  if (!name) errors.name = CONTACT_MESSAGES.name;
  else if (characterCount(name) > CONTACT_MAX_LENGTH.name) errors.name = CONTACT_MESSAGES.nameTooLong;
  if (characterCount(email) > CONTACT_MAX_LENGTH.email) errors.email = CONTACT_MESSAGES.emailTooLong;
  else if (!EMAIL.test(email)) errors.email = CONTACT_MESSAGES.email;
  if (!message) errors.message = CONTACT_MESSAGES.message;
  else if (characterCount(message) > CONTACT_MAX_LENGTH.message) errors.message = CONTACT_MESSAGES.messageTooLong;
  return errors;
}

export function firstInvalidContactField(errors: ContactErrors): ContactField | null {
  return CONTACT_FIELD_ORDER.find((field) => errors[field]) ?? null;
}

/** What POST /api/feedback receives: exactly name, email and message, trimmed (no book: a general message). */
export function buildContactBody(values: ContactValues): FeedbackBody {
  return { name: values.name.trim(), email: values.email.trim(), message: values.message.trim() };
}

/** The toast's text for a message that was not sent: the server's words, else "Something went wrong!". */
export function contactErrorText(error: unknown): string {
  return serverMessage(error) ?? SOMETHING_WENT_WRONG;
}

/** A tel: link for a number written for people ("+91 80 4000 1234" → "tel:+918040001234"). */
export function telHref(phone: string): string {
  const trimmed = phone.trim();
  return `tel:${trimmed.startsWith('+') ? '+' : ''}${trimmed.replace(/\D/g, '')}`;
}

export function mailtoHref(email: string): string {
  return `mailto:${email.trim()}`;
}
