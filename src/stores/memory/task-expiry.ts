/**
 * The tasks of {@link MemoryTaskStore} by when they expire: a binary min-heap, so the next task to
 * expire is found in O(1) and taken out in O(log n). Tasks leave the memory store by expiry only,
 * so every task has exactly one place in it.
 */

export interface Expiring {
  readonly expiresAt: number;
}

export class ExpiryHeap<T extends Expiring> {
  readonly #items: T[] = [];

  get size(): number {
    return this.#items.length;
  }

  /** The next to expire, without taking it out. */
  peek(): T | undefined {
    return this.#items[0];
  }

  push(item: T): void {
    const items = this.#items;
    let index = items.push(item) - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (items[parent]!.expiresAt <= item.expiresAt) break;
      items[index] = items[parent]!;
      index = parent;
    }
    items[index] = item;
  }

  /** Takes out and answers the next to expire. */
  pop(): T | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && items[right]!.expiresAt < items[left]!.expiresAt ? right : left;
      if (items[child]!.expiresAt >= last.expiresAt) break;
      items[index] = items[child]!;
      index = child;
    }
    items[index] = last;
    return top;
  }

  clear(): void {
    this.#items.length = 0;
  }
}
