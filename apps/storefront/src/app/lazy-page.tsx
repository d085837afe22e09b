// A page's code as its own chunk that can also be loaded ahead of rendering: the server loads
// every page before it renders, the browser loads the current page's before it hydrates, so
// neither render suspends and the browser's first render matches the server's HTML.
import { lazy, type ComponentType } from 'react';

export interface LazyPage {
  (): React.JSX.Element;
  /** Loads the page's code; after it resolves the page renders without suspending. */
  preload(): Promise<void>;
  /** The page module's source path, as the client build's manifest names it. */
  readonly moduleId: string;
}

export function lazyPage(load: () => Promise<ComponentType>, moduleId: string): LazyPage {
  let Loaded: ComponentType | undefined;
  let pending: Promise<ComponentType> | undefined;
  const fetchPage = () =>
    (pending ??= load().then(
      (component) => (Loaded = component),
      (error: unknown) => {
        // A failed chunk may load on a later try (the route error boundary offers one).
        pending = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(() => fetchPage().then((component) => ({ default: component })));
  const Page = (() => (Loaded ? <Loaded /> : <Lazy />)) as LazyPage;
  Object.assign(Page, { preload: () => fetchPage().then(() => undefined), moduleId });
  return Page;
}
