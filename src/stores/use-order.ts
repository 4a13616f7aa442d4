/**
 * Entries in order of last use: the front is the least recently used, the back the most recently
 * used. A Map keeps insertion order, so an entry is moved to the back by deleting and inserting it
 * again; the entry already at the back is not moved. That skip pays: a session used over and over
 * (a client making calls) cost a delete and an insert per request, about 5% of the legacy
 * in-process benchmark's time.
 */
export interface Used {
  lastUsed: number;
}

export class UseOrder<T extends Used> {
  readonly entries = new Map<string, T>();
  /** The id at the back, when known (undefined after the back entry is removed). */
  #back: string | undefined;

  get size(): number {
    return this.entries.size;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  get(id: string): T | undefined {
    return this.entries.get(id);
  }

  /** Puts `entry` at the back, in place of any entry with the same id. */
  add(id: string, entry: T): void {
    this.entries.delete(id);
    this.entries.set(id, entry);
    this.#back = id;
  }

  delete(id: string): boolean {
    if (id === this.#back) this.#back = undefined;
    return this.entries.delete(id);
  }

  /** Marks an entry as used at `now`: it goes to the back, unless it is there already. */
  touch(id: string, entry: T, now: number): void {
    entry.lastUsed = now;
    if (id !== this.#back) this.add(id, entry);
  }
}
