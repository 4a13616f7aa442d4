/**
 * What happens outside any request and so cannot be answered to a client: the kinds the engine
 * counts (http/incidents.ts) and reports to `onIncident`.
 */

/** The kinds of incident the engine counts. */
export type IncidentKind =
  /** A client disconnected before its request body was read in full. */
  | "client_aborted"
  /** Background work of the engine failed (a store or bus call nobody awaits). */
  | "background_failure"
  /** An SSE stream was closed because its client did not read (`maxStreamBufferBytes`). */
  | "slow_reader_closed"
  /** A hook or a user callback threw. */
  | "callback_failure";

/** Counts by kind, as `handler.incidents` shows them. */
export type IncidentCounts = Readonly<Record<IncidentKind, number>>;
