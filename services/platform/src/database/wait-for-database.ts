import type { Logger } from "../logging/logger.js";
import type { Database } from "./database.js";
import { DatabaseUnavailableError } from "./database-unavailable.js";

/**
 * Resolves once the database answers, waiting (1 s, growing to 5 s between tries) while it is unavailable,
 * so a process started while PostgreSQL restarts comes up with it instead of exiting. Any other error
 * (bad credentials, unknown database) is thrown at once: waiting would not fix it.
 */
export async function waitForDatabase(db: Database, logger: Logger): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.query("SELECT 1");
      if (attempt > 1) logger.info({ attempt }, "database available");
      return;
    } catch (error) {
      if (!(error instanceof DatabaseUnavailableError)) throw error;
      logger.warn({ err: error, attempt }, "database unavailable; waiting for it before starting");
      await new Promise((resolve) => setTimeout(resolve, Math.min(1_000 * attempt, 5_000)));
    }
  }
}
