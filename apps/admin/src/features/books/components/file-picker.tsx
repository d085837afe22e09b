// One file input of the book form: the right accept list, the spec's checks on pick (a refused
// file is cleared and explained in a toast), and what the book has now when editing.
import { useId, useRef, type ReactNode } from 'react';
import type { BookFileField } from '@persona/contracts';
import { useToast } from '@persona/web-kit/toast';
import { checkFile } from '../lib/book-form';

const ACCEPT = { image: 'image/jpeg,image/png,image/gif,image/webp', pdf: 'application/pdf,.pdf', png: 'image/png' } as const;

interface FilePickerProps {
  field: BookFileField;
  label: string;
  multiple?: boolean;
  onPick: (files: File[]) => void;
  picked: File[];
  current?: ReactNode;
  hint?: string;
}

export function FilePicker({ field, label, multiple = false, onPick, picked, current, hint }: FilePickerProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const { toast } = useToast();
  const kind = field === 'fullPdf' || field === 'samplePdf' ? 'pdf' : field === 'authorSignature' ? 'png' : 'image';

  function pick(list: FileList | null) {
    const files = Array.from(list ?? []);
    for (const file of files) {
      const problem = checkFile(field, file);
      if (problem) {
        toast({ title: problem, variant: 'destructive' });
        if (input.current) input.current.value = '';
        onPick([]);
        return;
      }
    }
    onPick(files);
  }

  return (
    <div className="field file-field">
      <label htmlFor={id}>{label}</label>
      {current && <div className="file-field__current">{current}</div>}
      <input
        ref={input}
        id={id}
        name={field}
        type="file"
        accept={ACCEPT[kind]}
        multiple={multiple}
        onChange={(e) => pick(e.target.files)}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      {hint && (
        <p id={`${id}-hint`} className="form-note">
          {hint}
        </p>
      )}
      {picked.length > 0 && <p className="form-note">{picked.length === 1 ? `Chosen: ${picked[0].name}` : `Chosen: ${picked.length} files`}</p>}
    </div>
  );
}
