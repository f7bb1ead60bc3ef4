/**
 * What every console route shares: id, page-size and cursor shapes, the closed query shape, and the error
 * cases of a query. Query parameters are read from these shapes (`http/read-query.ts`); they are closed
 * (`additionalProperties: false`): a parameter a route's shape does not list is refused, and so is an empty
 * value, so neither a typo nor `partner_id=` is an unfiltered list.
 */
import type { TArray, TProperties, TSchema } from "typebox";
import { ClosedObject, Nullable, Type } from "../../api/schema.js";
import type { ErrorCase } from "../../openapi/openapi-errors.js";

/** Ids as the platform makes them (`tx_…`, `ptr_…`, `whd_…`). */
export const ID_PATTERN = "^[A-Za-z0-9_-]{1,100}$";
export const Id = (description: string, example: string) =>
  Type.String({ pattern: ID_PATTERN, description, examples: [example] });
/** A path parameter naming one id: "The <what> (`ptr_…`)." with `example` (an id of that kind). */
export const IdParam = (what: string, example: string) =>
  Type.String({ description: `The ${what} (\`${example.split("_")[0]}_…\`).`, examples: [example] });
export const Limit = (fallback: number) =>
  Type.Integer({
    minimum: 1,
    maximum: 100,
    default: fallback,
    description: `Page size, 1–100; ${fallback} when left out.`,
  });
/** A query shape of this API: closed, so an unknown parameter is refused. */
export const Query = <P extends TProperties>(properties: P) =>
  Type.Object(properties, { additionalProperties: false });
export const Cursor = Type.String({
  maxLength: 500,
  description: "The `next_cursor` of the previous page; opaque.",
});
export const NextCursor = Nullable.Text("Pass as `cursor` for the next page; null on the last page.");
/** The paging parameters of a list query, last in its shape: `limit` (default `fallback`) and `cursor`. */
export const Paging = (fallback: number) => ({
  limit: Type.Optional(Limit(fallback)),
  cursor: Type.Optional(Cursor),
});
/** A page of a list: its items under `key`, then `next_cursor`; a closed object named `name` in the document. */
export const ListPage = <K extends string, T extends TSchema>(name: string, key: K, item: T) => {
  const properties = { [key]: Type.Array(item), next_cursor: NextCursor } as Record<K, TArray<T>> & {
    next_cursor: typeof NextCursor;
  };
  return ClosedObject(name, properties);
};
export const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const QUERY_CASE: ErrorCase = [
  "INVALID_FIELD",
  "a query parameter is unknown to this route, repeated, or not well formed (`field` names it)",
];
export const CURSOR_CASE: ErrorCase = [
  "INVALID_FIELD",
  "`cursor` is not one this list returned, or `limit` is not 1–100",
];
/** What reading a page of a list can answer besides its own cases: a bad query parameter, cursor or limit. */
export const PAGE_CASES: readonly ErrorCase[] = [QUERY_CASE, CURSOR_CASE];
export const PARTNER_NOT_FOUND: ErrorCase = ["PARTNER_NOT_FOUND", "no such partner"];
/** The document tag of every console operation. */
export const CONSOLE_TAG = ["Console"];
