// A labelled form field (checkout, contact, find and verify a Persona): the label, the control the
// caller renders with the ids and ARIA state handed to it, and the error tied to the control.
import { useId, type ReactNode } from 'react';
import './field.css';

export interface FieldControlProps {
  id: string;
  'aria-invalid': 'true' | undefined;
  'aria-describedby': string | undefined;
}

interface FieldProps {
  label: ReactNode;
  error?: string | null;
  /** Read the error out as it appears (an alert), not only when the control gets focus. */
  announceError?: boolean;
  children: (control: FieldControlProps) => ReactNode;
}

export function Field({ label, error, announceError = false, children }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={`field${error ? ' field--invalid' : ''}`}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      {children({ id, 'aria-invalid': error ? 'true' : undefined, 'aria-describedby': error ? errorId : undefined })}
      {error && (
        <p id={errorId} className="field__error" role={announceError ? 'alert' : undefined}>
          {error}
        </p>
      )}
    </div>
  );
}
