/** A set of listeners for one event: add returns the unsubscribe, emit calls each in the order added. */
export class Listeners<Args extends unknown[]> {
  private readonly set = new Set<(...args: Args) => void>();

  add(listener: (...args: Args) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }

  emit(...args: Args): void {
    for (const listener of this.set) listener(...args);
  }

  get size(): number {
    return this.set.size;
  }
}
