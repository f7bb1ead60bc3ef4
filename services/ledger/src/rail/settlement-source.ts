/**
 * Where reconciliation reads a rail's settlement records: payouts.rail.v1.RailService/ListSettlementRecords,
 * every page of one UTC day.
 */
import { createClient, type Transport } from "@connectrpc/connect";
import { RailService } from "@payouts/proto/payouts/rail/v1/rail_pb";
import type { RailRecord } from "../domain/reconciliation-matching.js";

export interface SettlementSource {
  /** The rail's name, as runs and breaks record it. */
  readonly rail: string;
  /** Every record of the UTC day `day` (YYYY-MM-DD), duplicates included. */
  recordsOf(day: string): Promise<RailRecord[]>;
}

/** A day larger than this many pages is refused rather than read without end. */
const MAX_PAGES = 1000;

export function createRailServiceSettlementSource(
  rail: string,
  transport: Transport,
  timeoutMs: number,
): SettlementSource {
  const client = createClient(RailService, transport);
  return {
    rail,
    async recordsOf(day) {
      const records: RailRecord[] = [];
      let cursor = "";
      for (let page = 0; page < MAX_PAGES; page++) {
        const res = await client.listSettlementRecords({ date: day, limit: 1000, cursor }, { timeoutMs });
        for (const r of res.records) {
          records.push({
            railReference: r.railReference,
            txId: r.txId,
            amount: r.amount,
            currency: r.currency,
            status: r.status,
          });
        }
        if (!res.nextCursor) return records;
        cursor = res.nextCursor;
      }
      throw new Error(`the rail's records of ${day} exceed ${MAX_PAGES} pages`);
    },
  };
}
