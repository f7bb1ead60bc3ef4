import { describe, expect, it } from "vitest";
import { describePostgresSettings, notDurable } from "./pg-settings.js";

describe("PostgreSQL durability settings", () => {
  const durable = { fsync: "on", synchronous_commit: "on", full_page_writes: "on", wal_level: "replica" };

  it("is durable only with fsync, synchronous_commit and full_page_writes on", () => {
    expect(notDurable(durable)).toEqual([]);
    expect(notDurable({ ...durable, synchronous_commit: "off" })).toEqual(["synchronous_commit"]);
    expect(notDurable({ ...durable, fsync: "off", full_page_writes: "unknown" })).toEqual([
      "fsync",
      "full_page_writes",
    ]);
  });

  it("describes what was read back, and says when it is not durable", () => {
    expect(describePostgresSettings(durable)).toBe(
      "fsync=on, synchronous_commit=on, full_page_writes=on, wal_level=replica (durable)",
    );
    expect(describePostgresSettings({ ...durable, fsync: "off", wal_level: "minimal" })).toBe(
      "fsync=off, synchronous_commit=on, full_page_writes=on, wal_level=minimal (NOT durable: fsync not on)",
    );
  });
});
