import { useEffect } from 'react';
import { applyDocumentHead, type HeadInfo } from '../lib/document-head';

/** Applies the page's head tags whenever they change. Pass null while nothing is known yet. */
export function useDocumentHead(info: HeadInfo | null): void {
  const key = info ? JSON.stringify(info) : null;
  useEffect(() => {
    if (!key) return;
    applyDocumentHead(JSON.parse(key) as HeadInfo);
  }, [key]);
}
