/**
 * What every list endpoint takes and answers beside its items (docs/api.md#lists): `limit` and `starting_after` in
 * the query, `has_more` in the answer. Newest first, by keyset (src/db/pages.ts): a page after the last id seen is
 * the same however many items were added meanwhile.
 */
import { z } from 'zod';
import type { PageQuery } from '../../db/pages.js';

export const MAX_PAGE = 100;

/** The query of a list whose page holds `defaultLimit` items unless asked for fewer or more (up to MAX_PAGE). */
export const pageQuery = (defaultLimit: number) => z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE).default(defaultLimit)
    .describe(`How many items at most (1-${MAX_PAGE}, default ${defaultLimit})`),
  starting_after: z.string().min(1).max(100).optional()
    .describe('The id of the last item of the page before: the page that follows it (older items)'),
});

/** The members every list answer has beside its items. */
export const pageMembers = {
  has_more: z.boolean().describe('Whether older items follow this page'),
  next_starting_after: z.string().nullable()
    .describe('While `has_more`: the last item\'s id, to send as `starting_after` for the next page; else null'),
};

/** The answer's paging members for a page whose items' ids `idOf` reads. */
export function pageAnswer<T>(page: { items: T[]; hasMore: boolean }, idOf: (item: T) => string) {
  const last = page.items.at(-1);
  return { has_more: page.hasMore, next_starting_after: page.hasMore && last !== undefined ? idOf(last) : null };
}

export const pageOf = (query: { limit: number; starting_after?: string }): PageQuery =>
  ({ limit: query.limit, ...(query.starting_after !== undefined ? { startingAfter: query.starting_after } : {}) });
