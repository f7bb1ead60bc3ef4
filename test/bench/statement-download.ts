/**
 * A large daily statement end to end: a partner's day of N lines seeded into the ledger
 * (statement-day-seed.ts), then `GET /statements/daily/{date}?format=csv` on the running platform's partner
 * listener, read to the end. Reports lines per second over the request's wall time and the gateway
 * process's resident set before the download and at its peak during it (VmHWM after a reset, and VmRSS
 * sampled every 20 ms where the reset is not permitted).
 */
import { request } from "node:http";
import { basicAuthorization } from "@payouts/client";
import type { StatementDownloadResult } from "./bench-results.js";
import { seedWebhookPartner } from "./bench-seed.js";
import type { Credentials, PlatformEndpoints } from "./platform-api.js";
import { readPeakRssKb, readRssKb, resetPeakRss } from "./process-stats.js";
import { checkLedgerInvariants, seedStatementDay, waitForWatermark } from "./statement-day-seed.js";

/** Lines of the measured day; --quick downloads fewer. */
export const STATEMENT_DOWNLOAD_LINES = { full: 100_000, quick: 20_000 } as const;
/** Lines of the warm-up day (another partner), fetched first so code is loaded and compiled. */
const WARM_UP_LINES = 2_000;
const WATERMARK_TIMEOUT_MS = 60_000;
const RSS_SAMPLE_MS = 20;

export interface StatementDownloadTarget {
  readonly platform: PlatformEndpoints;
  /** The run's database, where the ledger's tables are. */
  readonly databaseUrl: string;
  /** The process serving the partner listener. */
  readonly gatewayPid: number;
  readonly log: (line: string) => void;
}

export async function measureStatementDownload(
  target: StatementDownloadTarget,
  lines: number,
): Promise<StatementDownloadResult> {
  const { platform, databaseUrl, log } = target;
  const warm = await seedPartnerDay(target, "Statement warm-up partner", WARM_UP_LINES);
  const measured = await seedPartnerDay(target, "Statement download partner", lines);
  log(`statement day seeded: ${lines} lines in ${measured.seedSeconds.toFixed(1)} s, ledger invariants hold`);
  await waitForWatermark(databaseUrl, measured.xid, WATERMARK_TIMEOUT_MS);
  await downloadCsv(platform, warm.credentials, warm.date, undefined);

  const rssBeforeKb = readRssKb(target.gatewayPid);
  const peakResettable = resetPeakRss(target.gatewayPid);
  const t0 = performance.now();
  const body = await downloadCsv(platform, measured.credentials, measured.date, target.gatewayPid).catch(
    (error: unknown) => ({ failure: (error as Error).message }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const hwm = peakResettable ? readPeakRssKb(target.gatewayPid) : undefined;
  if ("failure" in body) {
    return {
      lines,
      received: 0,
      bytes: 0,
      seconds,
      linesPerSecond: 0,
      seedSeconds: measured.seedSeconds,
      failure: body.failure,
      ...(rssBeforeKb !== undefined ? { rssBeforeMb: rssBeforeKb / 1024 } : {}),
      ...(hwm !== undefined ? { rssPeakMb: hwm / 1024 } : {}),
    };
  }
  const peakKb = Math.max(body.sampledPeakRssKb ?? 0, hwm ?? 0) || undefined;
  // The header row and the day's summary row come before the lines.
  const received = body.records - 2;
  return {
    lines,
    received,
    bytes: body.bytes,
    seconds,
    linesPerSecond: received / seconds,
    seedSeconds: measured.seedSeconds,
    ...(rssBeforeKb !== undefined ? { rssBeforeMb: rssBeforeKb / 1024 } : {}),
    ...(peakKb !== undefined ? { rssPeakMb: peakKb / 1024 } : {}),
  };
}

/** A partner with an app, and its day of `lines` lines, readable once `xid` is below the watermark. */
async function seedPartnerDay(target: StatementDownloadTarget, name: string, lines: number) {
  const partner = await seedWebhookPartner(target.platform, name);
  const day = await seedStatementDay(target.databaseUrl, partner.partnerId, lines);
  await checkLedgerInvariants(target.databaseUrl, partner.partnerId);
  await waitForWatermark(target.databaseUrl, day.xid, WATERMARK_TIMEOUT_MS);
  return { credentials: partner, date: day.date, xid: day.xid, seedSeconds: day.seconds };
}

interface DownloadedBody {
  readonly bytes: number;
  /** CSV records: CRLF-terminated rows (no field of these lines holds a line break). */
  readonly records: number;
  /** Highest VmRSS of `watchPid` sampled while the body was read. */
  readonly sampledPeakRssKb: number | undefined;
}

/** The day as CSV through the partner listener, read to its end; anything but a complete 200 throws. */
function downloadCsv(
  platform: PlatformEndpoints,
  credentials: Credentials,
  date: string,
  watchPid: number | undefined,
): Promise<DownloadedBody> {
  const url = new URL(`/statements/daily/${date}?format=csv`, platform.partnerUrl);
  let sampledPeakRssKb: number | undefined;
  const sample = () => {
    const kb = watchPid === undefined ? undefined : readRssKb(watchPid);
    if (kb !== undefined) sampledPeakRssKb = Math.max(sampledPeakRssKb ?? 0, kb);
  };
  const sampler = setInterval(sample, RSS_SAMPLE_MS);
  return new Promise<DownloadedBody>((resolve, reject) => {
    const req = request(
      url,
      { headers: { authorization: basicAuthorization(credentials.clientId, credentials.clientSecret) } },
      (res) => {
        if (res.statusCode !== 200) {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            text += chunk;
          });
          res.on("end", () => reject(new Error(`${url.pathname} answered ${res.statusCode}: ${text}`)));
          return;
        }
        let bytes = 0;
        let records = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) records += 1;
        });
        res.on("end", () => {
          sample();
          if (res.complete) resolve({ bytes, records, sampledPeakRssKb });
          else reject(new Error(`${url.pathname}: body cut short after ${bytes} bytes`));
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  }).finally(() => clearInterval(sampler));
}
