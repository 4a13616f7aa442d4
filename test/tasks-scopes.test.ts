/**
 * Task methods need what calling the task's tool needs (its scopes and its `enabled`), judged on the
 * request's own token, in both wires over real HTTP on h3 v2 and h3 v1 with the memory task store:
 * see test/helpers/task-scopes-suite.ts (test/tasks-scopes-redis.test.ts runs them on Redis).
 */
import { MemoryTaskStore } from "../src/_entries/tasks.ts";
import { HOSTS } from "./helpers/hosts.ts";
import { taskScopeSuites } from "./helpers/task-scopes-suite.ts";

for (const host of HOSTS) taskScopeSuites("memory", host, async () => new MemoryTaskStore());
