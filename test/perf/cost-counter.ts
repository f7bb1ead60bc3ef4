/**
 * Counting decorators for the cost anatomy: a Database wrapper, an EventBus wrapper and a Connect
 * interceptor that add to the counts of the request whose async context made the call. Work started
 * outside a measured request (migrations, the outbox relay, pollers, webhook workers) has no counts in
 * its context and is not attributed to any request.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Interceptor } from "@connectrpc/connect";
import type { Database, Queryable } from "@payouts/platform/database/database";
import type { EventBus } from "@payouts/platform/events/event-bus";

/** What one request cost. */
export interface CostCounts {
  /** Calls between services, by "Service/method" (the gateway's calls included). */
  readonly rpcs: Record<string, number>;
  /** Statements the code sent (query and exec), BEGIN/COMMIT not included. */
  sqlStatements: number;
  /** The same statements by who sent them: a service role or "gateway". */
  readonly sqlBy: Record<string, number>;
  /** Each statement in the order sent, as "sender: SQL" on one line, with BEGIN/COMMIT/ROLLBACK. */
  readonly sql: string[];
  /**
   * Database round trips: each statement is one (node-postgres sends one statement per round trip and
   * waits for its answer), and each transaction adds two (BEGIN, then COMMIT or ROLLBACK).
   */
  roundTrips: number;
  transactions: number;
  /** Rows written to an outbox table: each is relayed as one bus (Kafka) message. */
  outboxMessages: number;
  /** Messages published on the bus directly from the request. */
  busMessages: number;
}

export function emptyCounts(): CostCounts {
  return {
    rpcs: {},
    sqlStatements: 0,
    sqlBy: {},
    sql: [],
    roundTrips: 0,
    transactions: 0,
    outboxMessages: 0,
    busMessages: 0,
  };
}

export function totalRpcs(counts: CostCounts): number {
  return Object.values(counts.rpcs).reduce((a, b) => a + b, 0);
}

/** An INSERT into an outbox table, alone or as one part of a write set (`WITH … AS (INSERT …)`). */
const OUTBOX_INSERT = /\bINSERT\s+INTO\s+[\w."]*outbox\b/gi;

export class CostCounter {
  private readonly storage = new AsyncLocalStorage<CostCounts>();

  /** Runs `fn` and returns what every call made from its async context cost. */
  async measure<T>(fn: () => Promise<T>): Promise<{ result: T; counts: CostCounts }> {
    const counts = emptyCounts();
    const result = await this.storage.run(counts, fn);
    return { result, counts };
  }

  private statement(user: string, sql: string): void {
    const counts = this.storage.getStore();
    if (!counts) return;
    counts.sqlStatements++;
    counts.sqlBy[user] = (counts.sqlBy[user] ?? 0) + 1;
    counts.sql.push(`${user}: ${sql.replace(/\s+/g, " ").trim()}`);
    counts.roundTrips++;
    // Every outbox INSERT here writes one row (one event per status change).
    counts.outboxMessages += sql.match(OUTBOX_INSERT)?.length ?? 0;
  }

  private counted(q: Queryable, user: string): Queryable {
    return {
      query: (sql, params) => {
        this.statement(user, sql);
        return q.query(sql, params);
      },
      exec: (sql) => {
        this.statement(user, sql);
        return q.exec(sql);
      },
    };
  }

  /** The database as `user` sees it; every call passes through unchanged. */
  database(db: Database, user: string): Database {
    const counted = this.counted(db, user);
    return {
      kind: db.kind,
      query: counted.query,
      exec: counted.exec,
      transaction: (fn, options) => {
        const counts = this.storage.getStore();
        return db.transaction(async (tx) => {
          // Counted per attempt: a transaction retried after a lost connection costs twice.
          if (!counts) return fn(this.counted(tx, user));
          counts.transactions++;
          counts.roundTrips += 2;
          counts.sql.push(`${user}: BEGIN`);
          try {
            const result = await fn(this.counted(tx, user));
            counts.sql.push(`${user}: COMMIT`);
            return result;
          } catch (error) {
            counts.sql.push(`${user}: ROLLBACK`);
            throw error;
          }
        }, options);
      },
      close: () => db.close(),
    };
  }

  bus(bus: EventBus): EventBus {
    return {
      publish: (messages) => {
        const counts = this.storage.getStore();
        if (counts) counts.busMessages += messages.length;
        return bus.publish(messages);
      },
      subscribe: (options) => bus.subscribe(options),
      close: () => bus.close(),
    };
  }

  /** Counts each call between services by method, in the caller's context. */
  readonly rpcInterceptor: Interceptor = (next) => async (req) => {
    const counts = this.storage.getStore();
    if (counts) {
      const name = `${req.service.typeName.split(".").pop()}/${req.method.name}`;
      counts.rpcs[name] = (counts.rpcs[name] ?? 0) + 1;
    }
    return next(req);
  };
}
