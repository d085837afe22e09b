// A Persona's licence as the routes tell it (issue 23): its verify answer says whether it holds,
// and a download of one that ended is refused with why.
import { type PersonaVerification, shopDate } from '@persona/contracts';
import { HttpError } from '@persona/service-kit';
import { formatPurchaseDate } from '../persona-print/format-date';
import type { PersonaRow } from './personas.repository';

/** The licence as the verify answer tells it: it holds, or it ended and why. */
export function licenceOf(row: PersonaRow): PersonaVerification['licence'] {
  if (!row.licence_end || !row.licence_ended_at) return { status: 'active' };
  const endedAt = row.licence_ended_at.toISOString();
  if (row.licence_end === 'replaced' && row.replaced_by) return { status: 'replaced', endedAt, replacedBy: row.replaced_by };
  return { status: 'refunded', endedAt };
}

/** Why a Persona downloads no more, as a 410 its holder can act on; null while its licence holds. */
export function licenceEnded(row: PersonaRow): HttpError | null {
  const licence = licenceOf(row);
  if (licence.status === 'replaced')
    return new HttpError(410, `This Persona was replaced by Persona ${licence.replacedBy}, with the corrected details: download that one`, 'REPLACED');
  if (licence.status === 'refunded')
    return new HttpError(
      410,
      `This Persona's order was refunded in full on ${formatPurchaseDate(shopDate(new Date(licence.endedAt)))}: it can no longer be downloaded`,
      'REFUNDED',
    );
  return null;
}
