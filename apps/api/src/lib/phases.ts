/**
 * How long each phase of one piece of work took (an upload request, a parse job), for one debug log
 * line at its end: where the time from upload to *uploaded* goes (issue 24;
 * `npm run bench -- server` with BENCH_SERVER=finvoice prints these lines). Measuring only: nothing
 * waits on it and nothing is logged below LOG_LEVEL=debug.
 */
export class PhaseClock {
  private readonly began = performance.now();
  private last = this.began;
  /** Milliseconds per phase, in the order the phases first ended (a repeated name adds up). */
  readonly phases: Record<string, number> = {};

  /** Ends the phase under way as `name`: the time since the previous lap (or the start). */
  lap(name: string): void {
    const now = performance.now();
    this.add(name, now - this.last);
    this.last = now;
  }

  /** Adds a duration measured elsewhere (e.g. by the parse child) under `name`. */
  add(name: string, ms: number): void {
    this.phases[name] = Math.round(((this.phases[name] ?? 0) + ms) * 10) / 10;
  }

  /** Milliseconds since the clock started. */
  get totalMs(): number {
    return Math.round((performance.now() - this.began) * 10) / 10;
  }

  /** The fields of the log line: the phases and the total. */
  fields(): { phases: Record<string, number>; totalMs: number } {
    return { phases: this.phases, totalMs: this.totalMs };
  }
}

/** Where a finished piece of work's phases are written (the server's logger at debug level). */
export type PhaseLog = (fields: Record<string, unknown>, message: string) => void;
