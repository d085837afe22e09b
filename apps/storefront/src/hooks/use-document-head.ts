import { useEffect } from 'react';
import { useRenderContext } from '../lib/render-context';
import { applyDocumentHead, type HeadInfo } from '../lib/document-head';

/**
 * The page's head tags: told to the server's render while it renders, applied in place
 * in the browser whenever they change. Pass null while nothing is known yet.
 */
export function useDocumentHead(info: HeadInfo | null): void {
  const render = useRenderContext();
  if (render && info) render.head = info;
  const key = info ? JSON.stringify(info) : null;
  useEffect(() => {
    if (!key) return;
    applyDocumentHead(JSON.parse(key) as HeadInfo);
  }, [key]);
}
