// A Persona's downloads as the buyer's pages show them (issue 24): what each format has left, why
// a download is refused, and the calls that read the allowance, ask for more (a link e-mailed to
// the buyer) and open that link. The /send-persona page and the library share them.
import { DOWNLOAD_LABELS, type Envelope, type FormatDownloads, type PersonaDownloads, type PersonaFormat } from '@persona/contracts';
import { api } from '@persona/web-kit/api-client';
import { formatLongDate } from './format-date';

const path = (personaId: string, rest = '') => `/personas/${encodeURIComponent(personaId)}/downloads${rest}`;

/** GET /api/personas/:id/downloads. */
export async function getPersonaDownloads(personaId: string, signal?: AbortSignal): Promise<PersonaDownloads> {
  return (await api.get<Envelope<PersonaDownloads>>(path(personaId), undefined, signal)).data;
}

/** POST …/downloads/renewal: the server e-mails the buyer; its answer says so without naming the address. */
export async function askForMoreDownloads(personaId: string): Promise<string> {
  return (await api.post<{ message: string }>(path(personaId, '/renewal'), undefined)).message;
}

/** POST …/downloads/renew with the e-mailed link's token: a fresh allowance. */
export async function renewDownloads(personaId: string, token: string): Promise<PersonaDownloads> {
  return (await api.post<Envelope<PersonaDownloads>>(path(personaId, '/renew'), { token })).data;
}

/** The button's name: "Download PDF", "Download EPUB". */
export const downloadLabel = (format: PersonaFormat) => DOWNLOAD_LABELS[format];

/** Under a button: "7 of 10 downloads left". */
export function downloadsLeftText(count: FormatDownloads): string {
  return `${count.left} of ${count.limit} download${count.limit === 1 ? '' : 's'} left`;
}

const times = (n: number) => (n === 1 ? 'once' : `${n} times`);

/**
 * Why the id's holder cannot download every format now, in the page's words, and whether asking
 * for more can help (not when the owner stopped them); null while every format has downloads left.
 */
export function downloadsRefusal(state: PersonaDownloads): { title: string; message: string; canAsk: boolean } | null {
  if (state.status === 'revoked')
    return {
      title: "This Persona's downloads have been stopped",
      message: 'The shop has stopped its downloads. It is still a genuine Persona: write to us if you think this is a mistake.',
      canAsk: false,
    };
  if (state.status === 'ended') return null;
  if (state.status === 'expired')
    return {
      title: "This Persona's downloads have ended",
      message: `Its downloads ended on ${formatLongDate(state.until)}. We can e-mail the buyer a link that gives it a fresh allowance.`,
      canAsk: true,
    };
  const usedUp = state.formats.filter((f) => f.left === 0);
  if (usedUp.length === 0) return null;
  const limit = usedUp[0]!.limit;
  const which = usedUp.length === state.formats.length ? '' : ` as ${usedUp.map((f) => f.format.toUpperCase()).join(' and ')}`;
  return {
    title: `This Persona has been downloaded ${times(limit)}${which}, the most we allow`,
    message:
      'So that a lent or lost copy is not downloaded by everyone, each format downloads a limited number of times. We can e-mail the buyer a link that gives it a fresh allowance.',
    canAsk: true,
  };
}

const RENEW_FRAGMENT = /^#renew=([A-Za-z0-9_-]{20,100})$/;

/** The token of an e-mailed "more downloads" link in the address's fragment, or null. */
export function renewalTokenFromFragment(hash: string): string | null {
  return RENEW_FRAGMENT.exec(hash)?.[1] ?? null;
}
