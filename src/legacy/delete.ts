/** Legacy DELETE: ends the session; later requests with its id get 404. */
import type { Inbound } from "../inbound.ts";
import { SESSION_ERROR_CODE } from "../protocol/errors.ts";
import { emptyReply, errorReply, type Reply } from "../reply.ts";
import type { Services } from "../services.ts";
import { checkSession } from "./session-check.ts";

export async function serveLegacyDelete(services: Services, inbound: Inbound): Promise<Reply> {
  const sessions = services.sessions;
  if (!sessions)
    return errorReply(405, null, SESSION_ERROR_CODE, "Method Not Allowed: this server has no sessions", undefined, {
      allow: "POST",
    });
  const checked = await checkSession(sessions, inbound, null);
  if (!checked.ok) return checked.reply;
  await sessions.end(checked.session!.id);
  return emptyReply(200);
}
