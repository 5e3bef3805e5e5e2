/** Most items in one call by default, so that one script run holds Redis for a few milliseconds at most. */
const MOST_PER_CALL = 500;

/**
 * Gathers what is asked in one turn of the event loop into calls of `send` of up to `mostPerCall`
 * items each, which answers one reply per item, in order: what many callers ask at about the same
 * moment costs one round trip and one script run instead of one each.
 */
export function createTurnBatcher<Item, Reply>(send: (items: Item[]) => Promise<Reply[]>, mostPerCall = MOST_PER_CALL): (item: Item) => Promise<Reply> {
  let pending: { item: Item; resolve: (reply: Reply) => void; reject: (error: unknown) => void }[] = [];
  const flush = () => {
    const all = pending;
    pending = [];
    for (let start = 0; start < all.length; start += mostPerCall) {
      const batch = all.slice(start, start + mostPerCall);
      // Called from setImmediate: a throw here would be nobody's to catch, so it fails the batch instead.
      Promise.resolve()
        .then(() => send(batch.map((one) => one.item)))
        .then(
          (replies) => {
            batch.forEach((one, index) => {
              one.resolve(replies[index] as Reply);
            });
          },
          (error: unknown) => {
            for (const one of batch) one.reject(error);
          },
        );
    }
  };
  return (item) =>
    new Promise<Reply>((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ item, resolve, reject });
    });
}
