/**
 * What happens outside any request and so cannot be answered to a client: a background task that
 * failed (a store write after the reply, a bus publish), a client that went away mid-body. Each is
 * counted; failures are also reported, so none is lost and none ends the process.
 */

import type { IncidentCounts, IncidentKind } from "../types/incidents.ts";

/** Counts incidents and reports them to `onIncident` (default: failures to `console.warn`). */
export class Incidents {
  readonly #counts: Record<IncidentKind, number> = {
    client_aborted: 0,
    background_failure: 0,
    slow_reader_closed: 0,
    callback_failure: 0,
  };
  readonly #report: (kind: IncidentKind, error?: unknown) => void;

  constructor(report: ((kind: IncidentKind, error?: unknown) => void) | undefined) {
    this.#report = report ?? reportToConsole;
  }

  /** Counts one incident and reports it; a reporter that throws is ignored. */
  record(kind: IncidentKind, error?: unknown): void {
    this.#counts[kind]++;
    try {
      this.#report(kind, error);
    } catch {
      // The reporter is the last resort: nothing is left to tell.
    }
  }

  /**
   * Gives a promise nobody awaits an owner: a rejection is recorded as `kind`, never left unhandled.
   *
   * @example
   * incidents.own(store.dropStream(sessionId, streamId));
   */
  own(work: Promise<unknown>, kind: IncidentKind = "background_failure"): void {
    work.catch((error: unknown) => this.record(kind, error));
  }

  /** A snapshot of the counts. */
  get counts(): IncidentCounts {
    return { ...this.#counts };
  }
}

function reportToConsole(kind: IncidentKind, error?: unknown): void {
  if (kind === "client_aborted" || kind === "slow_reader_closed") return;
  console.warn(`mcp-h3: ${kind}:`, error);
}
