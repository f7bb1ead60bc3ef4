import { ensureConsoleBuilt } from "../../../gateway/console/scripts/ensure-built.js";

/** Global setup of the console project: the admin listener serves the built app, so build it if it is stale. */
export default function setup(): void {
  if (ensureConsoleBuilt() === "failed") throw new Error("the operator console did not build (see above)");
}
