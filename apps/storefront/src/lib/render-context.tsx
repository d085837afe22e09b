// What a page tells the server's render besides its HTML: its head and its HTTP status.
// In the browser there is no render context and these hooks do nothing.
import { createContext, useContext } from 'react';
import type { HeadInfo } from './document-head';

export interface RenderContext {
  head: HeadInfo | null;
  status: number;
  /** The address visitors use (PUBLIC_URL), for absolute links in the head. */
  origin: string;
}

export const RenderContextValue = createContext<RenderContext | null>(null);

export function useRenderContext(): RenderContext | null {
  return useContext(RenderContextValue);
}

/** The status the server answers this page with (404 for a page or book that does not exist). */
export function useHttpStatus(status: number): void {
  const context = useRenderContext();
  if (context) context.status = status;
}

/** The shop's origin: the server's public address while rendering there, else the browser's. */
export function useOrigin(): string {
  const context = useRenderContext();
  return context ? context.origin : window.location.origin;
}
