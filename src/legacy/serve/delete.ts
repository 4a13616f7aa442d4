/** Legacy DELETE: ends the session; later requests with its id get 404. */
import type { Inbound } from "../../http/inbound.ts";
import { emptyReply, type Reply } from "../../http/reply.ts";
import type { LegacyServices } from "../services.ts";
import { checkSession, noSessionsReply } from "./session-check.ts";
import { answeringStoreFailure } from "../state/store-failure.ts";
import type { Caller } from "../../auth/gate.ts";
import { refuse } from "../../http/refusal.ts";

export async function serveLegacyDelete(
  services: LegacyServices,
  inbound: Inbound,
  caller: Caller | undefined,
): Promise<Reply> {
  const sessions = services.sessions;
  if (!sessions) return noSessionsReply();
  return answeringStoreFailure(null, async () => {
    const checked = await checkSession(sessions, inbound, caller);
    if (!checked.ok) return refuse(null, checked.refusal);
    await sessions.end(checked.session!.id, checked.session!.principal);
    return emptyReply(200);
  });
}
