import { StrictMode, type ReactNode } from 'react';
import { ToastProvider } from '@persona/web-kit/toast';

export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <StrictMode>
      <ToastProvider>{children}</ToastProvider>
    </StrictMode>
  );
}
