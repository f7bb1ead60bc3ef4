import { describe, expect, it } from "vitest";
import { isConnectionFailure, neverSent, reconnectDelayMs } from "./connection-failure.js";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isConnectionFailure", () => {
  it.each([
    ["57P01", "terminating connection due to administrator command"],
    ["57P02", "terminating connection because of crash of another server process"],
    ["57P03", "the database system is starting up"],
    ["08006", "connection failure"],
    ["08P01", "protocol violation"],
    ["53300", "sorry, too many clients already"],
    ["ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432"],
    ["ECONNRESET", "read ECONNRESET"],
    ["EPIPE", "write EPIPE"],
  ])("counts SQLSTATE/code %s", (code, message) => {
    expect(isConnectionFailure(withCode(code, message))).toBe(true);
  });

  it.each([
    "Connection terminated unexpectedly",
    "Connection terminated due to connection timeout",
    "timeout exceeded when trying to connect",
    "Client has encountered a connection error and is not queryable",
  ])("counts node-postgres' %s", (message) => {
    expect(isConnectionFailure(new Error(message))).toBe(true);
  });

  it("counts an AggregateError of refused addresses", () => {
    const error = new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")], "refused");
    expect(isConnectionFailure(error)).toBe(true);
  });

  it.each([
    ["23505", "duplicate key value violates unique constraint"],
    ["40001", "could not serialize access"],
    ["57014", "canceling statement due to statement timeout"],
    ["42P01", "relation does not exist"],
    ["P0001", "raised by a trigger"],
  ])("leaves statement errors alone: %s", (code, message) => {
    expect(isConnectionFailure(withCode(code, message))).toBe(false);
  });

  it("leaves non-errors and mixed aggregates alone", () => {
    expect(isConnectionFailure(undefined)).toBe(false);
    expect(isConnectionFailure("Connection terminated")).toBe(false);
    expect(isConnectionFailure(new AggregateError([withCode("ECONNREFUSED"), new Error("boom")]))).toBe(
      false,
    );
  });
});

describe("neverSent", () => {
  it("is true only when node-postgres refused to send", () => {
    expect(neverSent(new Error("Client has encountered a connection error and is not queryable"))).toBe(true);
    expect(neverSent(new Error("Connection terminated unexpectedly"))).toBe(false);
    expect(neverSent(withCode("57P01"))).toBe(false);
  });
});

describe("reconnectDelayMs", () => {
  it("doubles from 50 ms and stops at 1 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map(reconnectDelayMs)).toEqual([
      50, 100, 200, 400, 800, 1000, 1000, 1000,
    ]);
  });
});
