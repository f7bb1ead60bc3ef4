// Preloaded into the topology's processes by `npm run bench -- --profile` (NODE_OPTIONS=--import ...,
// since Node 20 refuses --cpu-prof there): a V8 CPU profile of each service role, written to
// $BENCH_PROFILE_DIR/<role>.cpuprofile when the process exits (the services exit on SIGTERM).
// Other node processes (the start script's health probes, migrate) are left alone.
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";
import { join } from "node:path";

const dir = process.env.BENCH_PROFILE_DIR;
const role = process.argv[1]?.endsWith("cli.js") ? process.argv[2] : undefined;

if (dir && role && role !== "migrate") {
  const session = new Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.start");
  // The in-thread inspector session answers synchronously, so this works in an exit handler.
  process.on("exit", () => {
    session.post("Profiler.stop", (error, result) => {
      if (!error) writeFileSync(join(dir, `${role}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
