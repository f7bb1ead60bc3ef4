import { describe, expect, it } from "vitest";
import { createStatementNames, PLANNED_PER_CALL } from "./statement-names.js";

describe("createStatementNames", () => {
  it("gives each text one name, the same every time, and another text another name", () => {
    const nameOf = createStatementNames();
    const a = nameOf("SELECT balance FROM ledger.accounts WHERE partner_id = $1");
    const b = nameOf("SELECT tx_id FROM ledger.transactions WHERE tx_id = $1");
    expect(a).toMatch(/^payouts_\d+$/);
    expect(b).toMatch(/^payouts_\d+$/);
    expect(b).not.toBe(a);
    expect(nameOf("SELECT balance FROM ledger.accounts WHERE partner_id = $1")).toBe(a);
  });

  it("leaves statements that project * unnamed, and names multiplication", () => {
    const nameOf = createStatementNames();
    for (const sql of [
      "SELECT * FROM gateway.partners WHERE partner_id = $1",
      "UPDATE gateway.partners SET name = $2 WHERE partner_id = $1 RETURNING *",
      "WITH app AS (INSERT INTO gateway.apps (client_id) VALUES ($1) RETURNING *) SELECT app.*, 1 FROM app",
      "SELECT a, t.* FROM t WHERE x = $1",
      'SELECT "t".* FROM t WHERE x = $1',
    ]) {
      expect(nameOf(sql), sql).toBeUndefined();
    }
    expect(
      nameOf("SELECT (extract(epoch FROM created_at) * 1000)::float8 FROM h WHERE id = $1"),
    ).toBeDefined();
    expect(nameOf("SELECT count(*) FROM h WHERE id = $1")).toBeDefined();
  });

  it("leaves statements marked as planned per call unnamed", () => {
    const nameOf = createStatementNames();
    expect(nameOf(`${PLANNED_PER_CALL} SELECT id FROM queue WHERE due <= $1 LIMIT 10`)).toBeUndefined();
    expect(nameOf(`SELECT id FROM queue WHERE due <= $1 LIMIT 10 ${PLANNED_PER_CALL}`)).toBeDefined();
  });

  it("names at most max texts; the rest run unnamed", () => {
    const nameOf = createStatementNames(2);
    expect(nameOf("SELECT 1 WHERE $1")).toBeDefined();
    expect(nameOf("SELECT 2 WHERE $1")).toBeDefined();
    expect(nameOf("SELECT 3 WHERE $1")).toBeUndefined();
    expect(nameOf("SELECT 1 WHERE $1")).toBeDefined();
  });
});
