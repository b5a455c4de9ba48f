import { isUuid } from '@hearth/events';

/**
 * The user id of a per-user query request, lowercased; `invalid` builds the
 * query's own error when it holds no uuid. (A request that does not decode never
 * reaches the handler: serveQueries answers it.)
 */
export function userIdOfRequest(request: { userId: string }, invalid: (message: string) => Error): string {
  // JSON.stringify keeps the message on one line whatever the caller sent: the bus
  // carries a query's error in a header, which cannot hold a line break.
  if (!isUuid(request.userId)) throw invalid(`user_id must be a uuid, got ${JSON.stringify(request.userId.slice(0, 64))}`);
  return request.userId.toLowerCase();
}
