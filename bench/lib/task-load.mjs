/**
 * The requests of the tasks scenarios on one in-process system (systems/mcp-h3-tasks.mjs), each
 * checked: a plain `tools/call` of `echo`; a task-augmented call of `echo_task` (answered with a task
 * already `completed`) polled with `tasks/get` until it is; and `tasks/get` of finished tasks made
 * beforehand. Every function resolves false on an answer that is not the expected one (the scenario
 * counts them as failed responses; the runner voids the run).
 */
import { URL_MCP } from "./systems.mjs";
import {
  isEchoAnswer,
  modernEchoBody,
  modernEchoTaskBody,
  modernHeaders,
  modernTaskGetBody,
  readTaskAnswer,
} from "./protocol.mjs";

/** A poll loop that has not seen its task finish after this many `tasks/get` fails the call. */
const MAX_POLLS = 1_000;

const echoHeaders = modernHeaders();
const taskCallHeaders = modernHeaders("tools/call", "echo_task");
let nextId = 1;

/** The loads on `system` ({ fetch }). */
export function taskLoads(system) {
  const post = async (headers, body) => {
    const response = await system.fetch(new Request(URL_MCP, { method: "POST", headers, body }));
    return { status: response.status, text: await response.text() };
  };
  /** The `tasks/get` request of one task: its headers (Mcp-Name = its id) and body builder. */
  const getterOf = (taskId) => ({
    taskId,
    headers: modernHeaders("tasks/get", taskId),
    body: modernTaskGetBody(taskId),
  });
  const stats = { polls: 0, roundtrips: 0 };

  /** One task-augmented call: the task it created (its getter) and its status, or undefined on a wrong answer. */
  async function createTask() {
    const created = await post(taskCallHeaders, modernEchoTaskBody(nextId++));
    const task = readTaskAnswer(created.status, created.text);
    if (!task || !created.text.includes('"resultType":"task"')) return undefined;
    return { ...getterOf(task.taskId), status: task.status };
  }

  /** `tasks/get` of one task: what it answered (undefined: no task of that id in the answer). */
  async function get(getter) {
    const got = await post(getter.headers, getter.body(nextId++));
    const task = readTaskAnswer(got.status, got.text);
    return task && task.taskId === getter.taskId ? task : undefined;
  }

  let targets = [];
  let turn = 0;
  return {
    stats,
    createTask,
    get,
    async plainCall() {
      const { status, text } = await post(echoHeaders, modernEchoBody(nextId++));
      return status === 200 && isEchoAnswer(text);
    },
    /** A task-augmented call polled (`tasks/get`, no pause) until it is `completed` with the echo. */
    async roundtrip() {
      const created = await createTask();
      if (!created) return false;
      stats.roundtrips++;
      for (let poll = 0; poll < MAX_POLLS; poll++) {
        stats.polls++;
        const task = await get(created);
        if (!task) return false;
        if (task.status === "completed") return task.echoed;
        if (task.status !== "working") return false;
      }
      return false;
    },
    /** Makes `count` finished tasks for {@link taskGet} to read (throws when one is not finished). */
    async prepareTargets(count) {
      targets = [];
      for (let i = 0; i < count; i++) {
        const created = await createTask();
        const task = created && (await get(created));
        if (!task?.echoed) throw new Error(`a finished task to read was not made: ${JSON.stringify(task ?? created)}`);
        targets.push(created);
      }
    },
    /** `tasks/get` of one of the finished tasks, in turn: true when it is `completed` with the echo inline. */
    async taskGet() {
      const task = await get(targets[turn++ % targets.length]);
      return task?.echoed === true;
    },
  };
}
