/**
 * Keeps at most `max` (+1 for the last) evenly spaced points of a stream of unknown length: every
 * stride-th point is kept; when the kept points exceed `max`, every other one is dropped and the stride
 * doubles. Deterministic, O(max) memory. The last point added is always included by `values()`.
 */

export class Decimator<T> {
  private kept: T[] = [];
  private stride = 1;
  private seen = 0;
  private last: T | undefined;
  private lastKept = false;

  constructor(private readonly max: number) {}

  add(point: T): void {
    this.last = point;
    this.lastKept = this.seen % this.stride === 0;
    if (this.lastKept) this.kept.push(point);
    this.seen++;
    if (this.kept.length > this.max) {
      this.kept = this.kept.filter((_, i) => i % 2 === 0);
      this.stride *= 2;
      this.lastKept = this.lastKept && (this.seen - 1) % this.stride === 0;
    }
  }

  values(): T[] {
    return this.last !== undefined && !this.lastKept ? [...this.kept, this.last] : [...this.kept];
  }
}
