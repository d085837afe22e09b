import { useEffect } from 'react';

/** Every admin page names itself in the tab: "<page> | Persona Books Admin". */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} | Persona Books Admin`;
  }, [title]);
}
