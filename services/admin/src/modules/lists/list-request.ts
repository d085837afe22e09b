// What an administrator's list is asked for: a search, a page size, and an offset page or a
// cursor (decoded by the route), and where counting stops.
import type { CursorValue } from '@persona/db';

export interface ListRequest {
  search?: string;
  /** Only what was made on this day of the shop (YYYY-MM-DD, India time) or later. */
  from?: string;
  limit?: number;
  page?: number;
  after?: CursorValue[];
  before?: CursorValue[];
  /** Where counting stops (COUNT_CAP of @persona/contracts by default). */
  countCap?: number;
}
