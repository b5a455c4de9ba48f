import { isUuid } from '@hearth/events';

/**
 * The user id of a per-user query request, lowercased: `decode` reads the bytes,
 * `invalid` builds the query's own error when they do not decode or hold no uuid.
 */
export function userIdOfRequest(
  request: Uint8Array,
  decode: (bytes: Uint8Array) => { userId: string },
  invalid: (message: string, options?: { cause?: unknown }) => Error,
  what: string,
): string {
  let userId: string;
  try {
    ({ userId } = decode(request));
  } catch (err) {
    throw invalid(`${what} does not decode`, { cause: err });
  }
  // JSON.stringify keeps the message on one line whatever the caller sent: the bus
  // carries a query's error in a header, which cannot hold a line break.
  if (!isUuid(userId)) throw invalid(`user_id must be a uuid, got ${JSON.stringify(userId.slice(0, 64))}`);
  return userId.toLowerCase();
}
