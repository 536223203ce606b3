/**
 * getQueueResult lists retried messages without their delay: this records each message's
 * `retry({ delaySeconds })` on the way, by message id, for the consumer tests (push, e-mail).
 */
export function recordRetryDelays(batch: MessageBatch<unknown>) {
  const delays: Record<string, number | undefined> = {};
  for (const m of batch.messages) {
    const retry = m.retry.bind(m);
    Object.defineProperty(m, 'retry', {
      value: (o?: QueueRetryOptions) => ((delays[m.id] = o?.delaySeconds), retry(o)),
    });
  }
  return delays;
}

/** A producer binding that keeps every `sendBatch` call's messages (`sent`, one array per call), for the producer tests. */
export function capturingQueue<T>() {
  const sent: { body: T }[][] = [];
  const queue = { sendBatch: async (msgs: { body: T }[]) => void sent.push(msgs) } as unknown as Queue<T>;
  return { queue, sent };
}
