/**
 * A TCP relay to one port that a test can cut, as a network fault between one client and its
 * server: `cut()` drops every relayed connection and refuses new ones until `mend()`. Put in front
 * of Redis, it takes one connection of an instance away while Redis and the others stay up.
 */
import { connect, createServer, type AddressInfo, type Socket } from "node:net";

export interface TcpCut {
  /** The relay's port on 127.0.0.1. */
  port: number;
  /** Drops every open connection, and refuses new ones. */
  cut(): void;
  /** Relays new connections again. */
  mend(): void;
  close(): Promise<void>;
}

/** Relays 127.0.0.1:<port of its own> to 127.0.0.1:`targetPort`. */
export async function startTcpCut(targetPort: number): Promise<TcpCut> {
  let broken = false;
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    // A reset by the other side is the fault itself, not an error of the test.
    socket.on("error", () => socket.destroy());
  };
  const server = createServer((client) => {
    track(client);
    if (broken) return void client.destroy();
    const upstream = connect(targetPort, "127.0.0.1");
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.once("close", () => upstream.destroy());
    upstream.once("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      broken = true;
      for (const socket of sockets) socket.destroy();
    },
    mend() {
      broken = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
