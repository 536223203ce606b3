/**
 * Queue message shapes: what services enqueue in a request and what the consumers in src/queue/
 * read. Plain types at the bottom of the import graph, so producers and consumers share them.
 */

/** A push message as the queue carries it: the consumer looks up the users' tokens. */
export interface PushMessage {
  userId: string;
  notificationId: string;
  titulo: string;
  mensagem: string;
  dados: Record<string, unknown>;
}
