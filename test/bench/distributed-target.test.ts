import { describe, expect, it } from "vitest";
import { parseKeyValues } from "./distributed-target.js";

describe("parseKeyValues", () => {
  it("reads the KEY=value lines start-distributed.sh prints and ignores anything else", () => {
    const out =
      "PARTNER_URL=http://127.0.0.1:38080\nnoise line\nADMIN_TOKEN=abc=def\n\n  STATE_DIR=/tmp/x  \n";
    expect(parseKeyValues(out)).toEqual({
      PARTNER_URL: "http://127.0.0.1:38080",
      ADMIN_TOKEN: "abc=def",
      STATE_DIR: "/tmp/x",
    });
  });
});
