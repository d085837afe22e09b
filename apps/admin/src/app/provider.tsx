import { StrictMode, type ReactNode } from 'react';
import { ToastProvider } from '@persona/web-kit/toast';
import { ConfirmProvider } from '../components/confirm-dialog';

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <StrictMode>
      <ToastProvider>
        <ConfirmProvider>{children}</ConfirmProvider>
      </ToastProvider>
    </StrictMode>
  );
}
