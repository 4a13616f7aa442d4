/**
 * mcp-h3/redis: shared session, event and bus stores on one Redis, so several instances serve one
 * legacy session. Not built yet: this entry exists so the package shape is stable.
 */
export {};
