// How the server's answers travel with the page: a JSON script the browser reads before it
// hydrates (scriptJson makes it safe inside the HTML).
import type { PageData } from '../../lib/api-data';

export const PAGE_DATA_ELEMENT_ID = 'persona-page-data';

export function readPageData(doc: Document = document): PageData {
  const element = doc.getElementById(PAGE_DATA_ELEMENT_ID);
  if (!element?.textContent) return {};
  try {
    return JSON.parse(element.textContent) as PageData;
  } catch {
    return {};
  }
}
