/**
 * A service's retention job set up from its environment: the loop settings every job has (interval and
 * batch size, under the service's own variable names) read with the service's rule settings, so all
 * problems are reported together, and the job built from them.
 */
import { type ConfigKey, type ConfigOf, loadConfig, parse } from "../config/env-config.js";
import type { Queryable } from "../database/database.js";
import type { Logger } from "../logging/logger.js";
import { createRetentionJob, type RetentionJob, type RetentionRule } from "./retention-job.js";

/** The variables naming a job's interval and batch size. */
export interface RetentionLoopNames {
  readonly intervalEnv: string;
  readonly batchSizeEnv: string;
}

/** What a service gives its retention job. */
export interface RetentionJobContext {
  readonly db: Queryable;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly logger: Logger;
  readonly now: () => Date;
}

function loopSpec(names: RetentionLoopNames) {
  return {
    intervalMs: {
      env: names.intervalEnv,
      doc: "interval of the retention job",
      parse: parse.positiveInt,
      default: 60 * 60 * 1000,
    },
    batchSize: {
      env: names.batchSizeEnv,
      doc: "rows deleted per statement by the retention job",
      parse: parse.positiveInt,
      default: 1000,
    },
  } as const;
}

/** The job `name`: its rules made from the settings `ruleSpec` declares, its loop from the variables `loop` names. */
export function createConfiguredRetentionJob<S extends Record<string, ConfigKey<unknown>>>(
  job: { readonly name: string; readonly loop: RetentionLoopNames; readonly ruleSpec: S },
  rules: (settings: ConfigOf<S>) => RetentionRule[],
  context: RetentionJobContext,
): RetentionJob {
  const loop = loopSpec(job.loop);
  // One read of both, so every problem is reported at once.
  const settings = loadConfig({ ...job.ruleSpec, ...loop }, context.env) as ConfigOf<S> &
    ConfigOf<typeof loop>;
  return createRetentionJob({
    name: job.name,
    db: context.db,
    rules: rules(settings),
    batchSize: settings.batchSize,
    intervalMs: settings.intervalMs,
    logger: context.logger,
    now: context.now,
  });
}
