import { describe, expect, it } from "vitest";
import { httpScenario, loadResult } from "./bench-fixtures.js";
import { bestFloor, FLOOR_CLIENTS, FLOOR_VARIANTS, withBestFloor } from "./one-hop-floor.js";

describe("one-hop floor", () => {
  const floors = [
    httpScenario("floor: a", loadResult(1500), undefined, "floor"),
    httpScenario("floor: b", loadResult(3000), undefined, "floor"),
    httpScenario("floor: c", loadResult(2000), undefined, "floor"),
  ];

  it("measures one variant per client library, each with the server its transport needs", () => {
    expect(FLOOR_VARIANTS.map((v) => v.client)).toEqual([...FLOOR_CLIENTS]);
    expect(FLOOR_VARIANTS.map((v) => v.server)).toEqual(["h2c", "h2c", "http1", "platform-http1"]);
  });

  it("the best floor is the fastest one", () => {
    expect(bestFloor(floors)?.name).toBe("floor: b");
    expect(bestFloor([httpScenario("previewQuotations", loadResult(9000))])).toBeUndefined();
  });

  it("compares floors and distributed endpoints with the best floor, not the embedded mode or node:http", () => {
    const compared = withBestFloor([
      ...floors,
      httpScenario("node:http JSON server", loadResult(30000), undefined, "baseline"),
      httpScenario("previewQuotations", loadResult(1800)),
      httpScenario("previewQuotations", loadResult(600), undefined, "embedded"),
    ]);
    expect(compared.map((s) => s.floor)).toEqual([
      { name: "floor: b", ratio: 0.5 },
      { name: "floor: b", ratio: 1 },
      { name: "floor: b", ratio: 2000 / 3000 },
      undefined,
      { name: "floor: b", ratio: 0.6 },
      undefined,
    ]);
  });

  it("leaves everything as it is when no floor ran", () => {
    const http = [httpScenario("previewQuotations", loadResult(600))];
    expect(withBestFloor(http)).toEqual(http);
  });
});
