import { BrowserRouter } from 'react-router-dom';
import type { ApiDataCache } from '../lib/api-data';
import { AppProvider } from './provider';
import { AppRouter } from './router';

/** The storefront in the browser: the server's answers in `cache`, the address from the location bar. */
export function App({ cache }: { cache: ApiDataCache }) {
  return (
    <AppProvider cache={cache}>
      <BrowserRouter>
        <AppRouter />
      </BrowserRouter>
    </AppProvider>
  );
}
