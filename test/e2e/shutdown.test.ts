/** The server kills every session when it goes away: stdin end, SIGTERM, SIGINT, SIGHUP. */
import { expect, test } from "bun:test";
import { processAlive, until } from "../helpers.ts";
import { connectStdio } from "./client.ts";

async function serverWithSessions() {
  const c = await connectStdio();
  const pids: number[] = [];
  for (let i = 0; i < 2; i++)
    pids.push((await c.ok("start_session", { command: "bash", args: ["--norc", "--noprofile", "-i"] })).info.pid);
  const serverPid = c.transport.pid!;
  return { c, pids, serverPid };
}

test("closing the client's stdin shuts the server down and kills its sessions (even bash ignoring SIGTERM)", async () => {
  const { c, pids, serverPid } = await serverWithSessions();
  await c.transport.close();
  await until(() => pids.every((pid) => !processAlive(pid)), "sessions to die", 10_000);
  await until(() => !processAlive(serverPid), "server to exit", 10_000);
});

for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
  test(`${signal} to the server kills its sessions`, async () => {
    const { c, pids, serverPid } = await serverWithSessions();
    process.kill(serverPid, signal);
    await until(() => !processAlive(serverPid), "server to exit", 10_000);
    expect(pids.every((pid) => !processAlive(pid))).toBe(true);
    await c.client.close().catch(() => undefined);
  });
}
