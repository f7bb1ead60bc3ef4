import { describe, expect, it } from "vitest";
import type { ReceivedNotification } from "./audit.js";
import {
  type EventTiming,
  measureResumption,
  type ResumptionMark,
  resumptionProblems,
} from "./resumption.js";

const MARK: ResumptionMark = {
  fault: "kill -9 webhooks",
  from: "kill -9",
  at: 10_000,
  limits: { newEventsMs: 10_000, storedMs: 5_000 },
};

const accepted = (eventId: string, receivedAt: number): ReceivedNotification => ({
  sequence: receivedAt,
  partnerId: "ptr_a",
  kind: "success",
  txId: `tx_${eventId}`,
  eventId,
  eventType: "transaction.success",
  bodyStatus: "SUCCESS",
  bodyDigest: `digest-${eventId}`,
  serviceSignatureValid: true,
  standardSignatureValid: true,
  answer: 200,
  receivedAt,
});

const EVENTS: EventTiming[] = [
  // Stored before the kill, delivered before it and again (a redelivery) after it.
  { eventId: "e_old", publishedAt: 8_000, storedAt: 8_100 },
  // Stored before the kill, refused then, delivered after it.
  { eventId: "e_stored", publishedAt: 9_000, storedAt: 9_100 },
  // Published before the kill, stored by the replacement: neither kind.
  { eventId: "e_unread", publishedAt: 9_900, storedAt: 13_000 },
  // Published after the kill.
  { eventId: "e_new", publishedAt: 11_000, storedAt: 16_000 },
  { eventId: "e_newer", publishedAt: 12_000, storedAt: 17_000 },
];

describe("measureResumption", () => {
  it("times the first delivery after the mark of an event published after it and of a row stored before it", () => {
    const r = measureResumption(
      MARK,
      [
        accepted("e_old", 9_500),
        accepted("e_unread", 13_500),
        accepted("e_newer", 17_200),
        accepted("e_new", 16_500),
        accepted("e_stored", 14_200),
        accepted("e_old", 14_000),
      ],
      EVENTS,
    );
    expect(r).toMatchObject({ fault: MARK.fault, newEventsMs: 6_500, storedMs: 4_000 });
    expect(resumptionProblems(r)).toEqual([]);
  });

  it("leaves a measure undefined when nothing of its kind arrived after the mark", () => {
    const r = measureResumption(MARK, [accepted("e_stored", 9_950), accepted("e_unread", 13_500)], EVENTS);
    expect(r.newEventsMs).toBeUndefined();
    expect(r.storedMs).toBeUndefined();
    expect(resumptionProblems(r).map((p) => p.detail)).toEqual([
      "no event published after the fault was delivered after the kill -9",
      "no delivery stored before the fault was delivered after the kill -9",
    ]);
  });

  it("reports a limit missed by a millisecond, and does not hold a measure without a limit", () => {
    const r = measureResumption(MARK, [accepted("e_new", 20_001), accepted("e_stored", 15_001)], EVENTS);
    expect(resumptionProblems(r)).toEqual([
      {
        fault: MARK.fault,
        detail: "event published after the fault: first delivered 10.0 s after the kill -9, limit 10.0 s",
      },
      {
        fault: MARK.fault,
        detail: "delivery stored before the fault: first delivered 5.0 s after the kill -9, limit 5.0 s",
      },
    ]);
    const brokerOnly = { ...MARK, limits: { newEventsMs: 20_000 } };
    expect(resumptionProblems(measureResumption(brokerOnly, [accepted("e_new", 20_001)], EVENTS))).toEqual(
      [],
    );
  });
});
