// The contact form (spec §5): name, email and message, all required, sent to POST /api/feedback
// (DESIGN §9.9); on success /contact-success, on failure a destructive toast and the text kept.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useToast } from '@persona/web-kit/toast';
import { paths } from '../../../config/paths';
import { Field } from '../../../components/ui/field';
import { sendContactMessage } from '../api/send-contact-message';
import {
  buildContactBody,
  contactErrorText,
  EMPTY_CONTACT,
  firstInvalidContactField,
  validateContact,
  type ContactErrors,
  type ContactField,
  type ContactValues,
} from '../lib/contact-form';

type FieldElement = HTMLInputElement | HTMLTextAreaElement;

export function ContactForm() {
  const navigate = useNavigate();
  const { toast } = useToast();
  const [values, setValues] = useState<ContactValues>(EMPTY_CONTACT);
  const [errors, setErrors] = useState<ContactErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  // A ref as well as state: a second submit before React re-renders is still ignored.
  const busy = useRef(false);
  const refocusAfterFailure = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  const fieldRefs = useRef<Partial<Record<ContactField, FieldElement | null>>>({});
  const headingId = useId();

  // After a first submit, errors follow the corrections as they are typed.
  useEffect(() => {
    if (submitted) setErrors(validateContact(values));
  }, [submitted, values]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy.current) return;
    setSubmitted(true);
    const found = validateContact(values);
    setErrors(found);
    const first = firstInvalidContactField(found);
    if (first) {
      // Focus lands on the first invalid field, whose error is also its description.
      fieldRefs.current[first]?.focus();
      return;
    }
    busy.current = true;
    setSending(true);
    try {
      await sendContactMessage(buildContactBody(values));
      void navigate(paths.contactSuccess);
    } catch (error) {
      toast({ title: 'Message not sent', description: contactErrorText(error), variant: 'destructive' });
      busy.current = false;
      refocusAfterFailure.current = true;
      setSending(false);
    }
  }

  // The button dropped focus when it was disabled: once it is enabled again after a failure,
  // give focus back to it so the visitor can simply try again.
  useEffect(() => {
    if (sending || !refocusAfterFailure.current) return;
    refocusAfterFailure.current = false;
    if (!formRef.current?.contains(document.activeElement)) submitRef.current?.focus();
  }, [sending]);

  const field = (name: ContactField) => ({
    name,
    value: values[name],
    error: errors[name],
    readOnly: sending,
    fieldRef: (el: FieldElement | null) => {
      fieldRefs.current[name] = el;
    },
    onChange: (value: string) => setValues((current) => ({ ...current, [name]: value })),
  });

  return (
    <form ref={formRef} className="contact-form" onSubmit={submit} noValidate aria-labelledby={headingId} aria-busy={sending || undefined}>
      <h2 id={headingId} className="contact__section-title">
        Send us a message
      </h2>
      <p className="contact-form__hint">All fields are required.</p>
      <FormField label="Name" autoComplete="name" {...field('name')} />
      <FormField label="Email" type="email" autoComplete="email" inputMode="email" {...field('email')} />
      <FormField label="Message" multiline {...field('message')} />
      <button ref={submitRef} type="submit" className="btn btn--primary btn--lg contact-form__submit" disabled={sending}>
        {sending ? 'Sending...' : 'Send Message'}
      </button>
    </form>
  );
}

interface FormFieldProps {
  label: string;
  name: ContactField;
  value: string;
  error?: string;
  readOnly: boolean;
  type?: 'text' | 'email';
  multiline?: boolean;
  autoComplete?: string;
  inputMode?: 'text' | 'email';
  fieldRef: (el: FieldElement | null) => void;
  onChange: (value: string) => void;
}

function FormField({ label, name, value, error, readOnly, type = 'text', multiline = false, autoComplete, inputMode, fieldRef, onChange }: FormFieldProps) {
  return (
    <Field label={label} error={error} announceError>
      {(control) => {
        const shared = { ...control, name, value, required: true, readOnly };
        return multiline ? (
          <textarea ref={fieldRef} {...shared} rows={8} className="text-input contact-form__message" onChange={(event) => onChange(event.target.value)} />
        ) : (
          <input
            ref={fieldRef}
            {...shared}
            type={type}
            className="text-input"
            autoComplete={autoComplete}
            inputMode={inputMode}
            onChange={(event) => onChange(event.target.value)}
          />
        );
      }}
    </Field>
  );
}
