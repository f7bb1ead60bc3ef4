/**
 * SQL columns and wire fields are snake_case; TypeScript records and protobuf messages name the same values
 * in camelCase (docs/conventions.md). Where one is the other under the other naming (a record and its row,
 * a message and the query parameters it is made from), it is derived here rather than restated field by field.
 */

/** The camelCase name of a snake_case one, as a type: `approval_id` → `approvalId`. */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/** An object's keys under their camelCase names, with the same value types (and optionality). */
export type CamelCaseKeys<R> = { readonly [K in keyof R as K extends string ? CamelCase<K> : K]: R[K] };

/** The object's own keys under their camelCase names, values as they are (a row's as the driver read them). */
export function camelCaseKeys<R extends object>(value: R): CamelCaseKeys<R> {
  const entries = Object.entries(value).map(([key, item]) => [camelCaseName(key), item]);
  return Object.fromEntries(entries) as CamelCaseKeys<R>;
}

function camelCaseName(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, next: string) => next.toUpperCase());
}
