/**
 * The cost anatomy of the partner API: for each endpoint, what one request costs in calls between
 * services, SQL statements, database round trips and transactions, and outbox/bus messages. The whole
 * platform runs in-process on real PostgreSQL (startTestPlatform) with the counting decorators of
 * cost-counter.ts; requests go through the partner listener's fastify routes (inject), so every hook and
 * route runs as in production, in an async context the counters can attribute.
 *
 * Counts are of the steady state the bench measures: each endpoint is called once unmeasured first
 * (credentials cached, routes warm), then measured twice on fresh inputs; the two must agree or the
 * harness throws, so a figure here is a fact about the code, not about timing.
 */

import { basicAuthorization } from "@payouts/client";
import {
  RAIL_SIGNATURE_HEADER,
  RAIL_TIMESTAMP_HEADER,
  railCallbackSignature,
  railCallbackTimestamp,
} from "@payouts/platform/signing/rail-callback-signature";
import { LOOKUP_DESTINATION, QUOTE_AMOUNT_BRL, seedDistributed } from "../bench/bench-seed.js";
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { CostCounter, type CostCounts } from "./cost-counter.js";

export const ANATOMY_ENDPOINTS = [
  "previewQuotations",
  "lookupPaymentCode",
  "getQuotation",
  "executePayout",
  "executePayoutReplay",
  "railCallback",
  "listTransactions",
  "getTransaction",
  "getBalance",
  "listBalanceEntries",
] as const;

export type AnatomyEndpoint = (typeof ANATOMY_ENDPOINTS)[number];

export type Anatomy = Record<AnatomyEndpoint, CostCounts>;

interface PartnerRequest {
  readonly method: "GET" | "POST";
  readonly url: string;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

/** The request of each endpoint as the bench sends it, given a fresh input (a new transaction's id). */
type RequestFactory = (session: AnatomySession) => Promise<PartnerRequest>;

/** How each endpoint's request is built; the route label says which partner route it is. */
export const ANATOMY_ROUTES: Record<
  AnatomyEndpoint,
  { readonly route: string; readonly build: RequestFactory }
> = {
  previewQuotations: {
    route: "POST /previewQuotations",
    build: async () => ({
      method: "POST",
      url: "/previewQuotations",
      body: { amount: 100, currency: "USD" },
    }),
  },
  lookupPaymentCode: {
    route: "POST /lookupPaymentCode",
    build: async (s) => ({
      method: "POST",
      url: "/lookupPaymentCode",
      body: { customer_id: s.customerId, ...LOOKUP_DESTINATION },
    }),
  },
  getQuotation: {
    route: "POST /getQuotation",
    build: async (s) => ({
      method: "POST",
      url: "/getQuotation",
      body: { tx_id: await s.lookedUp(), amount: QUOTE_AMOUNT_BRL },
    }),
  },
  executePayout: {
    route: "POST /executePayout",
    build: async (s) => ({
      method: "POST",
      url: "/executePayout",
      body: { tx_id: await s.quoted() },
      headers: { "x-idempotency-key": `anatomy-${s.nextKey()}` },
    }),
  },
  executePayoutReplay: {
    route: "POST /executePayout (same key again)",
    build: async (s) => {
      const request = await ANATOMY_ROUTES.executePayout.build(s);
      await s.send(request);
      return request;
    },
  },
  railCallback: {
    route: "POST /callbacks/rail (SUCCESS)",
    build: async (s) => {
      // The sandbox rail never settles here (SANDBOX_AUTO_SETTLE_MS=0): the rail's verdict is this request.
      const body = { tx_id: await s.executed(), outcome: "SUCCESS", provider_reference: "anatomy" };
      const timestamp = railCallbackTimestamp(new Date());
      const secret = s.platform.runtime.gateway.deps.config.railCallbackSecret;
      return {
        method: "POST",
        url: "/callbacks/rail",
        body,
        headers: {
          [RAIL_TIMESTAMP_HEADER]: timestamp,
          [RAIL_SIGNATURE_HEADER]: railCallbackSignature(secret, timestamp, JSON.stringify(body)),
        },
      };
    },
  },
  listTransactions: {
    route: "GET /listTransactions?limit=20",
    build: async () => ({ method: "GET", url: "/listTransactions?limit=20" }),
  },
  getTransaction: {
    route: "GET /transactions/{tx_id}",
    build: async (s) => ({ method: "GET", url: `/transactions/${await s.quoted()}` }),
  },
  getBalance: {
    route: "GET /balance",
    build: async () => ({ method: "GET", url: "/balance" }),
  },
  listBalanceEntries: {
    route: "GET /balance/entries?limit=100",
    build: async () => ({ method: "GET", url: "/balance/entries?limit=100" }),
  },
};

export class AnatomySession {
  private keys = 0;

  private constructor(
    readonly platform: TestPlatform,
    readonly counter: CostCounter,
    readonly authorization: string,
    readonly customerId: string,
  ) {}

  /** The platform on a fresh database, seeded as the bench seeds it (rates, corridors, funded partner). */
  static async start(options: { databaseServerUrl?: string } = {}): Promise<AnatomySession> {
    const counter = new CostCounter();
    const platform = await startTestPlatform({
      ...options,
      instrument: {
        database: (db, user) => counter.database(db, user),
        bus: (bus) => counter.bus(bus),
        rpcInterceptors: [counter.rpcInterceptor],
      },
    });
    try {
      const tenant = await seedDistributed({
        partnerUrl: platform.baseUrl,
        adminUrl: platform.adminUrl,
        adminToken: ADMIN_TOKEN,
      });
      return new AnatomySession(
        platform,
        counter,
        basicAuthorization(tenant.clientId, tenant.clientSecret),
        tenant.customerId,
      );
    } catch (error) {
      await platform.close();
      throw error;
    }
  }

  nextKey(): number {
    return ++this.keys;
  }

  /** Sends one partner request through the routes and insists on a 2xx answer. */
  async send(request: PartnerRequest): Promise<unknown> {
    const res = await this.platform.runtime.gateway.partnerApp.inject({
      method: request.method,
      url: request.url,
      headers: {
        authorization: this.authorization,
        ...(request.body === undefined ? {} : { "content-type": "application/json" }),
        ...request.headers,
      },
      ...(request.body === undefined ? {} : { payload: JSON.stringify(request.body) }),
    });
    if (res.statusCode < 200 || res.statusCode > 299) {
      throw new Error(`${request.method} ${request.url} answered ${res.statusCode}: ${res.body}`);
    }
    return res.json();
  }

  /** A new PENDING transaction (unmeasured). */
  async lookedUp(): Promise<string> {
    const answer = (await this.send(await ANATOMY_ROUTES.lookupPaymentCode.build(this))) as { tx_id: string };
    return answer.tx_id;
  }

  /** A new quoted transaction (unmeasured). */
  async quoted(): Promise<string> {
    const answer = (await this.send(await ANATOMY_ROUTES.getQuotation.build(this))) as { tx_id: string };
    return answer.tx_id;
  }

  /** A new transaction paid and submitted to the rail (unmeasured). */
  async executed(): Promise<string> {
    const answer = (await this.send(await ANATOMY_ROUTES.executePayout.build(this))) as { tx_id: string };
    return answer.tx_id;
  }

  /** What one request of `endpoint` costs, in the steady state; throws if two measurements disagree. */
  async measure(endpoint: AnatomyEndpoint): Promise<CostCounts> {
    const { build } = ANATOMY_ROUTES[endpoint];
    await this.send(await build(this));
    const runs: CostCounts[] = [];
    for (let i = 0; i < 2; i++) {
      const request = await build(this);
      runs.push((await this.counter.measure(() => this.send(request))).counts);
    }
    const [first, second] = runs as [CostCounts, CostCounts];
    // Statements sent concurrently may interleave differently; the same set is the same cost.
    const key = (c: CostCounts) => JSON.stringify({ ...normalized(c), sql: [...c.sql].sort() });
    if (key(first) !== key(second)) {
      throw new Error(
        `${endpoint}: two identical requests cost differently:\n${JSON.stringify(first)}\n${JSON.stringify(second)}`,
      );
    }
    return first;
  }

  async measureAll(): Promise<Anatomy> {
    const anatomy = {} as Anatomy;
    for (const endpoint of ANATOMY_ENDPOINTS) anatomy[endpoint] = await this.measure(endpoint);
    return anatomy;
  }

  close(): Promise<void> {
    return this.platform.close();
  }
}

/** Counts with RPC methods and SQL users in a stable order, for comparison and printing. */
export function normalized(counts: CostCounts): CostCounts {
  return { ...counts, rpcs: sortedKeys(counts.rpcs), sqlBy: sortedKeys(counts.sqlBy) };
}

export function sortedKeys(record: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
