import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";

/**
 * A protobuf Timestamp as the ISO 8601 text partners read (`2026-11-21T10:00:00.000Z`, UTC, milliseconds);
 * an unset one is null.
 */
export function timestampIso(ts: Timestamp | undefined): string | null {
  return ts === undefined ? null : timestampDate(ts).toISOString();
}
