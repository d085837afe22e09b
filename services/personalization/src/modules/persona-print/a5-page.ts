// The page a Persona is laid out on: its own pages, the preview, the footer and the leak mark are
// drawn in A5 points and scaled to the book's page.

/** Layout unit: an A5 page (420 × 595 pt). */
export const A5 = { width: 420, height: 595 } as const;
