// Confirmations (spec §8: "Are you sure you want to delete ...?") in a real modal <dialog>:
// focus moves into it, Escape cancels, and the answer comes back as a promise. Closing gives focus
// back to the button that asked; when a "yes" then removes that button (its item was deleted),
// focus goes to the page's main content instead of being lost to <body>.
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
  const opener = useRef<HTMLElement | null>(null);

  const confirm = useCallback<Confirm>((next) => {
    resolver.current?.(false);
    if (!dialog.current?.open) opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
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
    if (value) keepFocusWhenRemoved(opener.current);
    opener.current = null;
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

const MAIN_CONTENT_ID = 'main-content';
const WATCH_MS = 30_000;

/** Watches `element` for a while: once it has left the document and focus fell to <body>, focuses the main content. */
function keepFocusWhenRemoved(element: HTMLElement | null) {
  if (!element) return;
  const observer = new MutationObserver(() => {
    if (element.isConnected) return;
    stop();
    const active = document.activeElement;
    if (!active || active === document.body) document.getElementById(MAIN_CONTENT_ID)?.focus({ preventScroll: true });
  });
  const timer = window.setTimeout(() => stop(), WATCH_MS);
  function stop() {
    observer.disconnect();
    window.clearTimeout(timer);
  }
  observer.observe(document.body, { childList: true, subtree: true });
}
