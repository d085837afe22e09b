// Confirmations (spec §8: "Are you sure you want to delete ...?") in a real modal <dialog>:
// focus moves into it, Escape cancels, and the answer comes back as a promise.
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';

export interface ConfirmRequest {
  message: string;
  confirmLabel?: string;
}

type Confirm = (request: ConfirmRequest) => Promise<boolean>;
const ConfirmContext = createContext<Confirm | null>(null);

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<ConfirmRequest | null>(null);
  const resolver = useRef<((answer: boolean) => void) | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  const confirm = useCallback<Confirm>((next) => {
    resolver.current?.(false);
    setRequest(next);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (request && !element.open) element.showModal();
    if (!request && element.open) element.close();
  }, [request]);

  const answer = (value: boolean) => {
    resolver.current?.(value);
    resolver.current = null;
    setRequest(null);
  };

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <dialog
        ref={dialog}
        className="confirm-dialog"
        aria-labelledby="confirm-dialog-title"
        aria-describedby="confirm-dialog-message"
        onCancel={(event) => {
          event.preventDefault();
          answer(false);
        }}
      >
        <h2 id="confirm-dialog-title" className="confirm-dialog__title">
          Please confirm
        </h2>
        <p id="confirm-dialog-message">{request?.message}</p>
        <div className="confirm-dialog__actions">
          <button type="button" className="btn btn--outline" onClick={() => answer(false)} autoFocus>
            Cancel
          </button>
          <button type="button" className="btn btn--danger" onClick={() => answer(true)}>
            {request?.confirmLabel ?? 'Delete'}
          </button>
        </div>
      </dialog>
    </ConfirmContext.Provider>
  );
}

export function useConfirm(): Confirm {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm must be used inside <ConfirmProvider>');
  return confirm;
}
