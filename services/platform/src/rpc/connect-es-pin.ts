/**
 * The connect-es release that the platform's own Connect unary server (connect-unary-handler.ts) and
 * client (http1-unary-client.ts) follow. `@connectrpc/connect` and `@connectrpc/connect-node` are pinned
 * to exactly this version in every package.json, not a range, because these two modules:
 * - re-implement connect's unary handler and transport, and must answer and read exactly as the
 *   connect-node code beside them does (the listener hands it every other request: HTTP/2, JSON, GET,
 *   compressed bodies);
 * - call connect's protocol helpers (`@connectrpc/connect/protocol-connect`, `/protocol`) and build its
 *   `HandlerContext`, `UnaryRequest` and router specs by hand: parts whose behaviour and shape can change
 *   in a minor release.
 * To upgrade: change every pin and this constant together (connect-es-pin.test.ts checks they agree),
 * read connect-es's changes to its Connect protocol code, then run the Connect conformance suite
 * (`npm run conformance`) and test/transport/connect-differential.test.ts; an intended difference found
 * there is listed in that test with its reason.
 */
export const CONNECT_ES_VERSION = "2.1.1";
