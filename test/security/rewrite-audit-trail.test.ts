/**
 * Attack: rewrite the admin audit trail after the fact — change what a record says, delete a record,
 * empty the table, or move the chain head back over the tail — holding the gateway's own database
 * credentials (a compromised gateway process, or a bug in it).
 *
 * On real PostgreSQL, `migrate` (run as the platform runs it) creates the gateway's role with SELECT and
 * INSERT only on gateway.audit_records: connected as that role, the gateway still appends to the chain,
 * and every UPDATE, DELETE or TRUNCATE of a record is refused for lack of privilege. Even the schema's
 * owner, who has every privilege, is refused by the append-only triggers, and the chain head moves only
 * onto the next record, so a removed tail cannot be hidden by moving the head back.
 */
import { appendAuditRecord, verifyAuditChain } from "@payouts/gateway/internal/audit/audit-store";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { describe, expect, it } from "vitest";
import { attempt, useMigratedRoles } from "../support/migrated-roles.js";

const roles = useMigratedRoles();
const { connect } = roles;

describe("the admin audit trail", () => {
  it("cannot be rewritten with the gateway's credentials, nor by the schema's owner", async () => {
    const gatewayUrl = roles.urls.GATEWAY_DATABASE_URL ?? "";
    // The gateway appends as it does for every admin request, with its own role.
    const db = createPgDatabase({ connectionString: gatewayUrl, maxConnections: 2 });
    try {
      for (const status of [201, 403, 201]) {
        await appendAuditRecord(db, {
          phase: "finished",
          startedSequence: null,
          at: new Date().toISOString(),
          actorId: "op_mallory",
          actorName: "mallory",
          actorKind: "operator",
          actorRole: "finance",
          attemptedUser: null,
          sourceAddress: "10.0.0.9",
          userAgent: null,
          requestId: `req_${status}`,
          method: "POST",
          route: "/admin/partners/:partner_id/balance/credits",
          targetIds: { partner_id: "ptr_victim" },
          body: '{"amount_usd":"1000000","reference":"x"}',
          status,
          errorCode: status === 403 ? "FORBIDDEN" : null,
        });
      }
    } finally {
      await db.close();
    }
    const gateway = await connect(gatewayUrl);
    const before = (await gateway.query("SELECT * FROM gateway.audit_records ORDER BY sequence")).rows;
    expect(before).toHaveLength(3);

    const rewrites = {
      editBody: `UPDATE gateway.audit_records SET body = '{"amount_usd":"1","reference":"x"}' WHERE sequence = 1`,
      hideActor: "UPDATE gateway.audit_records SET actor_id = 'op_someone_else'",
      dropRecord: "DELETE FROM gateway.audit_records WHERE sequence = 2",
      dropAll: "DELETE FROM gateway.audit_records",
      truncate: "TRUNCATE gateway.audit_records",
    };
    for (const [name, sql] of Object.entries(rewrites)) {
      expect(await attempt(gateway, sql), name).toMatch(/^permission denied for table audit_records$/);
    }
    // The owner (the migration role) holds every privilege: the triggers refuse it.
    const owner = await connect(roles.ownerUrl);
    for (const [name, sql] of Object.entries(rewrites)) {
      expect(await attempt(owner, sql), name).toBe("audit_records is append-only");
    }
    // The head cannot be moved back to hide a tail, nor forward onto a record that is not there, nor
    // can a record be planted out of sequence.
    for (const client of [gateway, owner]) {
      expect(await attempt(client, "UPDATE gateway.audit_chain_head SET sequence = 1")).toMatch(
        /moves only onto the next record/,
      );
      expect(await attempt(client, "DELETE FROM gateway.audit_chain_head")).toMatch(
        /^(permission denied for table audit_chain_head|audit_chain_head is append-only)$/,
      );
      expect(
        await attempt(
          client,
          `INSERT INTO gateway.audit_records (sequence, phase, at, source_address, request_id, method, route,
             target_ids, status, prev_hash, hash)
           VALUES (2, 'finished', now(), 'x', 'r', 'POST', '/x', '{}', 200, repeat('0', 64), repeat('1', 64))`,
        ),
      ).toMatch(/(does not extend the chain head|duplicate key)/);
    }

    expect((await gateway.query("SELECT * FROM gateway.audit_records ORDER BY sequence")).rows).toEqual(
      before,
    );
    const verdict = await verifyAuditChain({
      query: (sql, params) => gateway.query(sql, params as unknown[]) as never,
      exec: async (sql) => {
        await gateway.query(sql);
      },
    });
    expect(verdict).toEqual({ ok: true, verifiedThrough: 3, headSequence: 3 });
  });
});
