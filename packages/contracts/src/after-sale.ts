// The order page's actions on what was sold (issue 23): a Persona re-issued with a corrected name
// or message, and a printed copy cancelled before it is dispatched. Each carries an id the page
// makes, so a second press (or a retried request) does the work once.
import { Type, type Static } from '@sinclair/typebox';
import { Id } from './common';

/**
 * A new Persona with the corrected names (checked by the service with the checkout's own rules,
 * printable-text.ts); a gift's recipient and message go only with a gift. Absent: as before.
 */
export const ReissuePersonaBody = Type.Object(
  {
    reissueId: Id,
    buyerName: Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' }),
    recipientName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    /** A gift's message; an empty one removes it. */
    message: Type.Optional(Type.String({ maxLength: 600 })),
    reason: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' }),
  },
  { additionalProperties: false },
);
export type ReissuePersonaBody = Static<typeof ReissuePersonaBody>;

/** One re-issue of an order's Persona, as the order page lists it. */
export const PersonaReissue = Type.Object({
  _id: Id,
  oldPersonaId: Type.String(),
  newPersonaId: Type.String(),
  buyerName: Type.String(),
  recipientName: Type.Union([Type.String(), Type.Null()]),
  message: Type.Union([Type.String(), Type.Null()]),
  reason: Type.String(),
  requestedBy: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});
export type PersonaReissue = Static<typeof PersonaReissue>;

/**
 * A printed copy cancelled before dispatch; `cancelId` is the page's and names the refund it makes:
 * the printing and delivery fees (`print`), or all that is left of the order (`order`).
 */
export const CancelPrintBody = Type.Object(
  {
    cancelId: Id,
    refund: Type.Union([Type.Literal('print'), Type.Literal('order')]),
    reason: Type.String({ minLength: 1, maxLength: 500, pattern: '\\S' }),
  },
  { additionalProperties: false },
);
export type CancelPrintBody = Static<typeof CancelPrintBody>;
