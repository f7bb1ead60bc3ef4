import { describe, expect, it } from "vitest";
import { buildTestNotificationBody } from "./test-notification.js";

describe("buildTestNotificationBody", () => {
  it("is a success notification marked as a test, with the given id and time", () => {
    const body = buildTestNotificationBody("evt_test_1", new Date("2025-01-02T03:04:05.678Z"));
    expect(body.toString("utf8")).toBe(
      '{"tx_id":"tx_test","status":"SUCCESS","amount":100.00,"fee":1.80,"percentage_fee":1.50,"fixed_fee":0.30,' +
        '"sender":{"name_first":"Test","name_last":"Sender","country":"US"},' +
        '"recipient":{"name_first":"Test","name_last":"Recipient","country":"BR"},' +
        '"event_id":"evt_test_1","event_type":"transaction.success","occurred_at":"2025-01-02T03:04:05.678Z",' +
        '"test":true}',
    );
  });
});
