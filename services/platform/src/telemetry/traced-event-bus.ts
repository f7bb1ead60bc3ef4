/**
 * Trace context across the event bus, by hand (the kafkajs instrumentation would parent every publish on
 * the relay's polling loop, not on the request that wrote the event). Publishing: one PRODUCER span per
 * message, child of the trace context the message already carries (the ledger stores the request's
 * `traceparent` with each outbox row), whose own context replaces it in the headers. Consuming: one
 * CONSUMER span per message, child of that producer span, active while the handler runs (a batch
 * handler gets each message with its consumer span's context in `traceparent` instead).
 */
import { context, type Span, SpanKind, trace } from "@opentelemetry/api";
import {
  type EventBus,
  type EventMessage,
  type SubscribeOptions,
  TRANSACTION_EVENTS_TOPIC,
} from "../events/event-bus.js";
import { contextFromHeaders, injectTraceContext, inSpan, markFailed, TRACER_NAME } from "./trace-context.js";

export function traceEventBus(bus: EventBus): EventBus {
  return {
    publish: (messages) => publishTraced(bus, messages),
    subscribe: (options: SubscribeOptions) => {
      const attributes = (message: EventMessage) => ({
        ...messageAttributes(message),
        "messaging.operation.type": "process",
        "messaging.consumer.group.name": options.groupId,
      });
      const { handler, batchHandler } = options;
      if (batchHandler) {
        return bus.subscribe({
          ...options,
          batchHandler: (messages) => processBatchTraced(messages, attributes, batchHandler),
        });
      }
      return bus.subscribe({
        ...options,
        handler: (message) =>
          inSpan(
            `${message.topic} process`,
            {
              kind: SpanKind.CONSUMER,
              parent: contextFromHeaders(message.headers),
              attributes: attributes(message),
            },
            () => handler(message),
          ),
      });
    },
    close: () => bus.close(),
  };
}

/**
 * A batch: one CONSUMER span per message (child of its producer span), open while the batch handler runs;
 * each message reaches the handler with its own consumer span's context as `traceparent`, so what the
 * handler stores per message continues that message's trace.
 */
async function processBatchTraced(
  messages: readonly EventMessage[],
  attributes: (message: EventMessage) => Record<string, string>,
  batchHandler: (messages: readonly EventMessage[]) => Promise<void>,
): Promise<void> {
  const tracer = trace.getTracer(TRACER_NAME);
  const spans = messages.map((message) =>
    tracer.startSpan(
      `${message.topic} process`,
      { kind: SpanKind.CONSUMER, attributes: attributes(message) },
      contextFromHeaders(message.headers),
    ),
  );
  const traced = messages.map((message, i) => withSpanContext(message, spans[i]!));
  try {
    await batchHandler(traced);
  } catch (error) {
    for (const span of spans) markFailed(span, error);
    throw error;
  } finally {
    for (const span of spans) span.end();
  }
}

/** `message` with its trace headers replaced by `span`'s context. */
function withSpanContext(message: EventMessage, span: Span): EventMessage {
  const headers: Record<string, string> = { ...message.headers };
  delete headers.traceparent;
  delete headers.tracestate;
  injectTraceContext(trace.setSpan(context.active(), span), headers);
  return { ...message, headers };
}

async function publishTraced(bus: EventBus, messages: readonly EventMessage[]): Promise<void> {
  const tracer = trace.getTracer(TRACER_NAME);
  const spans = messages.map((message) => {
    const hasContext = message.headers.traceparent !== undefined;
    const parent = hasContext ? contextFromHeaders(message.headers) : context.active();
    return tracer.startSpan(
      `${message.topic} publish`,
      {
        kind: SpanKind.PRODUCER,
        attributes: { ...messageAttributes(message), "messaging.operation.type": "send" },
      },
      parent,
    );
  });
  const traced = messages.map((message, i) => withSpanContext(message, spans[i]!));
  try {
    await bus.publish(traced);
  } catch (error) {
    for (const span of spans) markFailed(span, error);
    throw error;
  } finally {
    for (const span of spans) span.end();
  }
}

function messageAttributes(message: EventMessage): Record<string, string> {
  return {
    "messaging.system": "kafka",
    "messaging.destination.name": message.topic,
    "messaging.kafka.message.key": message.key,
    ...(message.headers["event-id"] ? { "messaging.message.id": message.headers["event-id"] } : {}),
    ...(message.headers["event-type"] ? { event_type: message.headers["event-type"] } : {}),
    // Transaction events are keyed by the transaction they announce.
    ...(message.topic === TRANSACTION_EVENTS_TOPIC ? { tx_id: message.key } : {}),
  };
}
