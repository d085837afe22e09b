import { StrictMode, type ReactNode } from 'react';
import { ToastProvider } from '@persona/web-kit/toast';
import { ApiDataProvider, type ApiDataCache } from '../lib/api-data';

export function AppProvider({ cache, children }: { cache: ApiDataCache; children: ReactNode }) {
  return (
    <StrictMode>
      <ApiDataProvider cache={cache}>
        <ToastProvider>{children}</ToastProvider>
      </ApiDataProvider>
    </StrictMode>
  );
}
