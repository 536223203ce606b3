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
