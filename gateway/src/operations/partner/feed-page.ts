/**
 * The paging of routes read in feed order (the statement feed, a day's transactions): the query's `after`
 * (the previous page's `next_cursor`, opaque) and `limit`, and the page's `next_cursor`. Each route words
 * the descriptions for what it pages.
 */
import { DEFAULT_FEED_PAGE_SIZE, MAX_FEED_PAGE_SIZE } from "@payouts/platform/statement-feed";
import { Nullable, Type } from "../../api/schema.js";

/** Longest `after` accepted: far above any cursor the routes issue. */
const MAX_CURSOR_LENGTH = 255;

export function feedPageQuery(descriptions: { readonly after: string; readonly limit: string }) {
  return Type.Object({
    after: Type.Optional(Type.String({ maxLength: MAX_CURSOR_LENGTH, description: descriptions.after })),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_FEED_PAGE_SIZE,
        default: DEFAULT_FEED_PAGE_SIZE,
        description: descriptions.limit,
      }),
    ),
  });
}

/** A page's `next_cursor`: what to pass as `after` next. */
export function feedNextCursor(description: string) {
  return Nullable(Type.String(), description);
}
