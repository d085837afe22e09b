import { useEffect } from 'react';
import { BrowserRouter } from 'react-router-dom';
import type { ApiDataCache } from '../lib/api-data';
import { AppProvider } from './provider';
import { AppRouter } from './router';

/**
 * Marks the document once the app has hydrated (or rendered) it and every component's effects
 * have run (a parent's effect runs after its children's): `<html data-interactive>`. The page
 * paints before its code starts (main.tsx); tools and tests wait for this before they type.
 */
function InteractiveMark() {
  useEffect(() => {
    document.documentElement.setAttribute('data-interactive', '');
  }, []);
  return null;
}

/** The storefront in the browser: the server's answers in `cache`, the address from the location bar. */
export function App({ cache }: { cache: ApiDataCache }) {
  return (
    <AppProvider cache={cache}>
      <BrowserRouter>
        <AppRouter />
      </BrowserRouter>
      <InteractiveMark />
    </AppProvider>
  );
}
