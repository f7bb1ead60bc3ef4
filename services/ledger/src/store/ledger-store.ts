/**
 * SQL of the double-entry book: accounts, movements and entries. Balances are kept by the database
 * (trigger on entries) and checked by it (sign constraints; every movement sums to zero at commit).
 */
import type { Queryable } from "@payouts/platform/database/database";
import { Dec, toDecimalString } from "@payouts/platform/money/decimal";
import { ACCOUNT_KINDS, type AccountKind, type Movement } from "../domain/posting-rules.js";
import { Statement } from "./statement.js";

/** Opens a partner's accounts on first use. */
export async function ensureAccounts(q: Queryable, partnerId: string): Promise<void> {
  await q.query(
    `INSERT INTO ledger.accounts (partner_id, kind)
     SELECT $1, kind FROM unnest($2::text[]) AS kind
     ON CONFLICT (partner_id, kind) DO NOTHING`,
    [partnerId, [...ACCOUNT_KINDS]],
  );
}

/**
 * The partner's spendable balance, row-locked until the caller's transaction ends. Every movement of a
 * partner takes this lock before writing entries, so checks against the balance cannot race.
 */
export async function lockBalance(q: Queryable, partnerId: string): Promise<Dec> {
  const res = await q.query<{ balance: string }>(
    `SELECT balance FROM ledger.accounts WHERE partner_id = $1 AND kind = 'balance' FOR UPDATE`,
    [partnerId],
  );
  return new Dec(res.rows[0]?.balance ?? "0");
}

export async function balanceOf(
  q: Queryable,
  partnerId: string,
  kind: AccountKind = "balance",
): Promise<Dec> {
  const res = await q.query<{ balance: string }>(
    `SELECT balance FROM ledger.accounts WHERE partner_id = $1 AND kind = $2`,
    [partnerId, kind],
  );
  return new Dec(res.rows[0]?.balance ?? "0");
}

export interface MovementRecord {
  readonly movementId: string;
  readonly partnerId: string;
  readonly txId: string | undefined;
  /** The batch a reserve, batch_payout or release movement belongs to. */
  readonly batchId?: string | undefined;
  readonly reference: string;
  readonly movement: Movement;
  readonly at: Date;
}

/** The movement and its entries, as two parts of `st` (the entries' trigger keeps the balances). */
export function addMovement(st: Statement, m: MovementRecord): void {
  const v = (value: unknown) => st.p(value);
  const movementId = v(m.movementId);
  const partnerId = v(m.partnerId);
  const at = v(m.at);
  st.with(
    "movement_new",
    `INSERT INTO ledger.movements (movement_id, partner_id, kind, tx_id, batch_id, reference, created_at)
     VALUES (${movementId}, ${partnerId}, ${v(m.movement.kind)}, ${v(m.txId ?? null)}, ${v(m.batchId ?? null)},
       ${v(m.reference)}, ${at})`,
  );
  st.with(
    "entries_new",
    `INSERT INTO ledger.entries (movement_id, partner_id, kind, amount, created_at)
     SELECT ${movementId}, ${partnerId}, p.kind, p.amount::numeric, ${at}
       FROM unnest(${v(m.movement.postings.map((p) => p.account))}::text[],
                   ${v(m.movement.postings.map((p) => toDecimalString(p.amount)))}::text[])
            WITH ORDINALITY AS p(kind, amount, ord)
      ORDER BY p.ord`,
  );
}

/** The movement and its entries in one statement; the caller holds the partner's balance lock. */
export async function postMovement(q: Queryable, m: MovementRecord): Promise<void> {
  const st = new Statement();
  addMovement(st, m);
  await st.run(q, "SELECT 1");
}
