import { describe, expect, it } from "vitest";
import { addDays, parseUtcDay, utcDayOf } from "./utc-day.js";

describe("UTC day", () => {
  it("reads a real date and spans exactly its 24 UTC hours", () => {
    const day = parseUtcDay("2026-02-28");
    expect(day?.start.toISOString()).toBe("2026-02-28T00:00:00.000Z");
    expect(day?.end.toISOString()).toBe("2026-03-01T00:00:00.000Z");
  });

  it.each(["2026-02-30", "2026-13-01", "26-01-01", "2026-1-1", "", "2026-01-01T00:00:00Z"])(
    "refuses %j",
    (text) => expect(parseUtcDay(text)).toBeUndefined(),
  );

  it("cuts days at UTC midnight", () => {
    expect(utcDayOf(new Date("2026-03-01T23:59:59.999Z")).day).toBe("2026-03-01");
    expect(utcDayOf(new Date("2026-03-02T00:00:00.000Z")).day).toBe("2026-03-02");
    expect(addDays(utcDayOf(new Date("2026-03-01T12:00:00Z")), -1).day).toBe("2026-02-28");
  });
});
