import { timestampFromDate, timestampFromMs } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { timestampIso } from "./timestamp-iso.js";

describe("timestampIso", () => {
  it("renders UTC with milliseconds, and an unset timestamp as null", () => {
    expect(timestampIso(timestampFromDate(new Date("2026-11-21T10:00:00.5+02:00")))).toBe(
      "2026-11-21T08:00:00.500Z",
    );
    expect(timestampIso(timestampFromMs(0))).toBe("1970-01-01T00:00:00.000Z");
    expect(timestampIso(undefined)).toBeNull();
  });
});
