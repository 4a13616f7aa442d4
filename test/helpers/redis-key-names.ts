/**
 * The names of the keys `mcp-h3/redis` writes, as the scale-out guide lists them, for tests that
 * look at Redis itself. Written out here rather than imported, so a change of layout fails the
 * tests that pin it. The braces are Redis Cluster hash tags: one slot per session, principal, task,
 * owner, and one for each index over all of them.
 */
export function redisKeyNames(prefix: string) {
  return {
    session: (id: string) => `${prefix}{session:${id}}`,
    subscriptions: (id: string) => `${prefix}{session:${id}}:subscriptions`,
    sessionIndex: `${prefix}{sessions}`,
    pendingIndex: `${prefix}{sessions}:pending`,
    principalSessions: (principal: string) => `${prefix}{principal:${principal}}:sessions`,
    task: (id: string) => `${prefix}{task:${id}}`,
    tasksByExpiry: `${prefix}{tasks}:by-expiry`,
    ownerTasks: (owner: string) => `${prefix}{owner:${owner}}:tasks`,
    ownerTasksByExpiry: (owner: string) => `${prefix}{owner:${owner}}:tasks-by-expiry`,
    taskChannel: (id: string) => `${prefix}task:${id}`,
  };
}
