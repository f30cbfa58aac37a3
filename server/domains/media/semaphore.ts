/**
 * At most `limit` holders at once; the rest wait in arrival order. Image
 * decoding takes tens of megabytes a photo for a moment, so uploads take
 * turns and memory stays bounded however many arrive together.
 */
export type Semaphore = { run<T>(task: () => Promise<T>): Promise<T>; readonly waiting: number };

export function createSemaphore(limit: number): Semaphore {
  let active = 0;
  const queue: Array<() => void> = [];
  // A finished holder hands its place straight to the next in line, so no newcomer slips in between.
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else active -= 1;
  };
  return {
    get waiting() {
      return queue.length;
    },
    async run(task) {
      if (active < limit) active += 1;
      else await new Promise<void>((resolve) => queue.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
