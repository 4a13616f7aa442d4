/**
 * The exact per-check totals of every conformance run (0.2.0-alpha.12 against the fixture), per
 * scenario and status. A change here is a change of what the suite sees: a check that turns into
 * WARNING, SKIPPED or INFO, a scenario that stops running, or a new one. Update it only with the
 * reason in the commit message.
 */
import type { ExpectedRun, StatusCounts } from "./judge.ts";

/** `--requirements 2025-11-25`: 30 scored scenarios, and the 3 not scored that this project requires too. */
export const LEGACY_2025_11_25: ExpectedRun = {
  scenarios: {
    "completion-complete": { SUCCESS: 2 },
    "dns-rebinding-protection": { SUCCESS: 2 },
    "elicitation-sep1034-defaults": { SUCCESS: 6 },
    "elicitation-sep1330-enums": { SUCCESS: 6 },
    "json-schema-2020-12": { SUCCESS: 8 },
    "logging-set-level": { SUCCESS: 2 },
    ping: { SUCCESS: 2 },
    "prompts-get-embedded-resource": { SUCCESS: 2 },
    "prompts-get-simple": { SUCCESS: 2 },
    "prompts-get-with-args": { SUCCESS: 2 },
    "prompts-get-with-image": { SUCCESS: 2 },
    "prompts-list": { SUCCESS: 2 },
    "resources-list": { SUCCESS: 2 },
    "resources-read-binary": { SUCCESS: 2 },
    "resources-read-text": { SUCCESS: 2 },
    "resources-subscribe": { SUCCESS: 2 },
    "resources-templates-read": { SUCCESS: 2 },
    "resources-unsubscribe": { SUCCESS: 2 },
    "server-initialize": { SUCCESS: 3 },
    "server-session-lifecycle": { SUCCESS: 3 },
    "server-sse-multiple-streams": { SUCCESS: 1, INFO: 1 },
    "server-sse-polling": { SUCCESS: 3, INFO: 7 },
    "tools-call-audio": { SUCCESS: 2 },
    "tools-call-elicitation": { SUCCESS: 2 },
    "tools-call-embedded-resource": { SUCCESS: 2 },
    "tools-call-error": { SUCCESS: 2 },
    "tools-call-image": { SUCCESS: 2 },
    "tools-call-mixed-content": { SUCCESS: 2 },
    "tools-call-sampling": { SUCCESS: 2 },
    "tools-call-simple-text": { SUCCESS: 2 },
    "tools-call-with-logging": { SUCCESS: 2 },
    "tools-call-with-progress": { SUCCESS: 2 },
    "tools-list": { SUCCESS: 3 },
  },
  notScored: {
    "server-session-lifecycle": "added-after-release",
    "json-schema-2020-12": "pending",
    "server-sse-polling": "pending",
  },
};

/**
 * `--requirements 2026-07-28`: 37 scored scenarios, 3 pending ones, and the 10 of the tasks extension
 * (`mcp-h3/tasks`, plugged into the fixture): every check of theirs passes; the suite skips
 * `tasks-status-notifications` itself (its harness awaits a rewrite against `subscriptions/listen`).
 */
export const MODERN_2026_07_28: ExpectedRun = {
  scenarios: {
    caching: { SUCCESS: 8 },
    "completion-complete": { SUCCESS: 2 },
    "dns-rebinding-protection": { SUCCESS: 2 },
    "http-custom-header-server-validation": { SUCCESS: 10 },
    "http-header-validation": { SUCCESS: 14 },
    "input-required-result-basic-elicitation": { SUCCESS: 3 },
    "input-required-result-basic-list-roots": { SUCCESS: 3 },
    "input-required-result-basic-sampling": { SUCCESS: 3 },
    "input-required-result-capability-check": { SUCCESS: 2 },
    "input-required-result-ignore-extra-params": { SUCCESS: 2 },
    "input-required-result-missing-input-response": { SUCCESS: 2 },
    "input-required-result-multi-round": { SUCCESS: 4 },
    "input-required-result-multiple-input-requests": { SUCCESS: 3 },
    "input-required-result-non-tool-request": { SUCCESS: 3 },
    "input-required-result-request-state": { SUCCESS: 3 },
    "input-required-result-result-type": { SUCCESS: 2 },
    "input-required-result-tampered-state": { SUCCESS: 2 },
    "input-required-result-unsupported-methods": { SUCCESS: 2 },
    "input-required-result-validate-input": { SUCCESS: 3 },
    "json-schema-2020-12": { SUCCESS: 8 },
    "prompts-get-embedded-resource": { SUCCESS: 2 },
    "prompts-get-simple": { SUCCESS: 2 },
    "prompts-get-with-args": { SUCCESS: 2 },
    "prompts-get-with-image": { SUCCESS: 2 },
    "prompts-list": { SUCCESS: 2 },
    "resources-list": { SUCCESS: 2 },
    "resources-read-binary": { SUCCESS: 2 },
    "resources-read-text": { SUCCESS: 2 },
    "resources-templates-read": { SUCCESS: 2 },
    "sep-2164-resource-not-found": { SUCCESS: 4 },
    "server-sse-multiple-streams": { SUCCESS: 1, INFO: 1 },
    "server-stateless": { SUCCESS: 30 },
    "tasks-capability-negotiation": { SUCCESS: 5 },
    "tasks-dispatch-and-envelope": { SUCCESS: 9 },
    "tasks-lifecycle": { SUCCESS: 9 },
    "tasks-mrtr-composition": { SUCCESS: 2 },
    "tasks-mrtr-input": { SUCCESS: 4 },
    "tasks-request-headers": { SUCCESS: 5 },
    "tasks-request-state-removal": { SUCCESS: 3 },
    "tasks-required-task-error": { SUCCESS: 3 },
    "tasks-status-notifications": { SKIPPED: 1 },
    "tasks-wire-fields": { SUCCESS: 4 },
    "tools-call-audio": { SUCCESS: 2 },
    "tools-call-embedded-resource": { SUCCESS: 2 },
    "tools-call-error": { SUCCESS: 2 },
    "tools-call-image": { SUCCESS: 2 },
    "tools-call-mixed-content": { SUCCESS: 2 },
    "tools-call-simple-text": { SUCCESS: 2 },
    "tools-call-with-progress": { SUCCESS: 2 },
    "tools-list": { SUCCESS: 4 },
  },
  notScored: {
    "tasks-lifecycle": "extension",
    "tasks-capability-negotiation": "extension",
    "tasks-wire-fields": "extension",
    "tasks-request-state-removal": "extension",
    "tasks-mrtr-input": "extension",
    "tasks-request-headers": "extension",
    "tasks-dispatch-and-envelope": "extension",
    "tasks-status-notifications": "extension",
    "tasks-required-task-error": "extension",
    "tasks-mrtr-composition": "extension",
    "json-schema-2020-12": "pending",
    "http-header-validation": "pending",
    "http-custom-header-server-validation": "pending",
  },
};

/** `--suite all --spec-version 2026-07-28`: every scenario of the revision, pending ones included (no extensions). */
export const ALL_2026_07_28: ExpectedRun = {
  scenarios: {
    caching: { SUCCESS: 8 },
    "completion-complete": { SUCCESS: 2 },
    "dns-rebinding-protection": { SUCCESS: 2 },
    "http-custom-header-server-validation": { SUCCESS: 10 },
    "http-header-validation": { SUCCESS: 14 },
    "input-required-result-basic-elicitation": { SUCCESS: 3 },
    "input-required-result-basic-list-roots": { SUCCESS: 3 },
    "input-required-result-basic-sampling": { SUCCESS: 3 },
    "input-required-result-capability-check": { SUCCESS: 2 },
    "input-required-result-ignore-extra-params": { SUCCESS: 2 },
    "input-required-result-missing-input-response": { SUCCESS: 2 },
    "input-required-result-multi-round": { SUCCESS: 4 },
    "input-required-result-multiple-input-requests": { SUCCESS: 3 },
    "input-required-result-non-tool-request": { SUCCESS: 3 },
    "input-required-result-request-state": { SUCCESS: 3 },
    "input-required-result-result-type": { SUCCESS: 2 },
    "input-required-result-tampered-state": { SUCCESS: 2 },
    "input-required-result-unsupported-methods": { SUCCESS: 2 },
    "input-required-result-validate-input": { SUCCESS: 3 },
    "json-schema-2020-12": { SUCCESS: 8 },
    "prompts-get-embedded-resource": { SUCCESS: 2 },
    "prompts-get-simple": { SUCCESS: 2 },
    "prompts-get-with-args": { SUCCESS: 2 },
    "prompts-get-with-image": { SUCCESS: 2 },
    "prompts-list": { SUCCESS: 2 },
    "resources-list": { SUCCESS: 2 },
    "resources-read-binary": { SUCCESS: 2 },
    "resources-read-text": { SUCCESS: 2 },
    "resources-templates-read": { SUCCESS: 2 },
    "sep-2164-resource-not-found": { SUCCESS: 4 },
    "server-sse-multiple-streams": { SUCCESS: 1, INFO: 1 },
    "server-stateless": { SUCCESS: 30 },
    "tools-call-audio": { SUCCESS: 2 },
    "tools-call-embedded-resource": { SUCCESS: 2 },
    "tools-call-error": { SUCCESS: 2 },
    "tools-call-image": { SUCCESS: 2 },
    "tools-call-mixed-content": { SUCCESS: 2 },
    "tools-call-simple-text": { SUCCESS: 2 },
    "tools-call-with-progress": { SUCCESS: 2 },
    "tools-list": { SUCCESS: 4 },
  },
  notScored: {},
};

/**
 * The skills extension's scenarios (SEP-2640, `--scenario sep-2640-skills-*`), against the
 * fixture's skills (fixture-skills.ts), in each era. Modern (the suite's default client, 2026-07-28):
 * every check a SUCCESS. Legacy (`--spec-version 2025-11-25 --force`): the same, but the suite
 * itself skips the two cache-attribute checks, which it defines only from 2026-07-28.
 */
export const SKILLS_MODERN: Record<string, StatusCounts> = {
  "sep-2640-skills-enumeration": { SUCCESS: 32 },
  "sep-2640-skills-manifest": { SUCCESS: 6 },
  "sep-2640-skills-directory": { SUCCESS: 7 },
};
export const SKILLS_LEGACY: Record<string, StatusCounts> = {
  "sep-2640-skills-enumeration": { SUCCESS: 30, SKIPPED: 2 },
  "sep-2640-skills-manifest": { SUCCESS: 6 },
  "sep-2640-skills-directory": { SUCCESS: 7 },
};
