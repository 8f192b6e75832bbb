/** Sessions on real processes: query replies, exit tail, exit info, stop escalation, limits. */
import { describe, expect, test } from "bun:test";
import type { TuiError } from "../../src/errors.ts";
import { waitForText } from "../../src/session/wait.ts";
import { BUN, fixture, processAlive, until } from "../helpers.ts";
import { seen, startOptions, testRegistry } from "../registry-helpers.ts";

const waitOpts = { timeoutMs: 10_000, pollIntervalMs: 50, matchScreen: true };

describe("session", () => {
  test("answers the app's terminal queries (DSR 6n cursor position, DA1) so it does not hang", async () => {
    await using registry = testRegistry();
    const session = await registry.start(startOptions(BUN, [fixture("query-terminal.ts")]));
    const result = await waitForText(session, { ...waitOpts, pattern: "CPR row=3 col=5 DA=" });
    expect(result.matched).toBe(true);
    expect((await session.whenExited()).exitCode).toBe(0);
  });

  test("the last bytes before exit reach the raw buffer and the screen; exit info follows them (20/20)", async () => {
    await using registry = testRegistry();
    for (let i = 0; i < 20; i++) {
      const session = await registry.start(startOptions("bash", ["-c", "seq 1 200000; echo END"]));
      const exit = await session.whenExited();
      expect(exit).toMatchObject({ exitCode: 0, signal: null });
      expect(new TextDecoder().decode(session.raw.tail(64))).toEndWith("200000\r\nEND\r\n");
      expect(session.emulator.text()).toContain("END");
    }
  }, 60_000);

  test("the raw ring counts bytes and keeps the newest 1 MiB by default; after exit a 64 KiB tail", async () => {
    await using registry = testRegistry();
    const session = await registry.start(startOptions("bash", ["-c", "seq 1 200000; read"]));
    const bytes = 1_288_895 + 200_000; /* \r added by the tty */
    await until(() => session.raw.total === bytes, "all of seq's output");
    expect(session.raw.size).toBe(1024 * 1024);
    session.write(new TextEncoder().encode("\r"));
    await session.whenExited();
    expect(session.raw.total).toBe(bytes + 2 /* the echoed \r\n */);
    expect(session.raw.size).toBe(64 * 1024);
    expect(new TextDecoder().decode(session.raw.tail(16))).toEndWith("200000\r\n\r\n");
  });

  test("output chunks handed to a listener stay intact after parsing (only unshared chunks are freed)", async () => {
    await using registry = testRegistry();
    const session = await registry.start(startOptions("bash", ["-c", "read; seq 1 100000"]));
    const kept: Uint8Array[] = [];
    session.onOutput((chunk) => kept.push(chunk));
    session.write(new TextEncoder().encode("\r"));
    await session.whenExited();
    const text = new TextDecoder().decode(Buffer.concat(kept));
    expect(text).toStartWith("\r\n1\r\n2\r\n");
    expect(text).toEndWith("99999\r\n100000\r\n");
    expect(session.emulator.text()).toContain("100000");
  });

  test("stop hangs up an interactive bash (it ignores SIGTERM, not SIGHUP): no escalation needed", async () => {
    await using registry = testRegistry({ killGraceMs: 20_000 });
    const session = await registry.start(
      startOptions("bash", ["--norc", "--noprofile", "-i"], { env: { PS1: "PROMPT$ " } }),
    );
    await seen(session, { ...waitOpts, pattern: "PROMPT$" });
    const stopped = await registry.stop(session.id);
    expect(stopped.signalsSent).toEqual(["SIGTERM", "SIGHUP"]);
    expect(stopped.escalated).toBe(false);
    expect(stopped.exit.signal).toBe("SIGHUP");
    await until(() => !processAlive(session.pid), "bash to be gone");
  });

  test("stop escalates to SIGKILL for a program that ignores SIGTERM and SIGHUP", async () => {
    await using registry = testRegistry({ killGraceMs: 300 });
    const session = await registry.start(
      startOptions("bash", ["-c", 'trap "" TERM HUP; echo READY; while :; do sleep 0.05; done']),
    );
    await seen(session, { ...waitOpts, pattern: "READY" });
    const stopped = await registry.stop(session.id);
    expect(stopped.signalsSent).toEqual(["SIGTERM", "SIGHUP", "SIGKILL"]);
    expect(stopped.exit.signal).toBe("SIGKILL");
    await until(() => !processAlive(session.pid), "bash to be gone");
  });

  test("stop also kills descendants that left the process group (setsid)", async () => {
    await using registry = testRegistry({ killGraceMs: 300 });
    const session = await registry.start(
      startOptions("bash", [
        "-c",
        "setsid bash -c 'trap \"\" TERM HUP; echo STRAY=$$; while :; do sleep 0.05; done' & wait",
      ]),
    );
    const seen = await waitForText(session, { ...waitOpts, pattern: "STRAY=(\\d+)", regex: true });
    const stray = Number((seen.match as string[])[1]);
    expect(processAlive(stray)).toBe(true);
    await registry.stop(session.id);
    await until(() => !processAlive(stray), "the setsid child to be gone", 5000);
  });

  test("stop kills the foreground job too, leaving no orphan", async () => {
    await using registry = testRegistry({ killGraceMs: 300 });
    const session = await registry.start(
      startOptions("bash", ["--norc", "--noprofile", "-c", "sleep 300 & echo CHILD=$!; wait"]),
    );
    const seen = await waitForText(session, { ...waitOpts, pattern: "CHILD=(\\d+)", regex: true });
    const child = Number((seen.match as string[])[1]);
    await registry.stop(session.id);
    await until(() => !processAlive(child), "the background sleep to be gone", 5000);
  });

  test("a stopped session keeps its exit info readable; input is refused with it", async () => {
    await using registry = testRegistry();
    const session = await registry.start(startOptions("bash", ["-c", "echo bye; exit 5"]));
    await session.whenExited();
    expect(registry.get(session.id).exit?.exitCode).toBe(5);
    expect(() => session.write(new Uint8Array([0x61]))).toThrow(/exit code 5/);
  });

  test("TUI_TESTER_MAX_SESSIONS is enforced with a clear error; exited sessions do not count", async () => {
    await using registry = testRegistry({ maxSessions: 2 });
    await registry.start(startOptions("sleep", ["30"]));
    const second = await registry.start(startOptions("sleep", ["30"]));
    await expect(registry.start(startOptions("sleep", ["30"]))).rejects.toThrow(/limit is 2/);
    await registry.stop(second.id);
    await registry.start(startOptions("sleep", ["30"]));
  });

  test("a missing command is an error at start time; unknown ids list the known ones", async () => {
    await using registry = testRegistry();
    await expect(registry.start(startOptions("no-such-cmd-xyz"))).rejects.toThrow(/not found on PATH/);
    const s = await registry.start(startOptions("sleep", ["30"], { name: "sleeper" }));
    const hintOf = (id: string) => {
      try {
        registry.get(id);
      } catch (error) {
        return (error as TuiError).hint ?? "";
      }
      return "";
    };
    expect(hintOf("tui-missing")).toContain(s.id);
    expect(hintOf("sleeper")).toBe(`"sleeper" is the name of session ${s.id}; pass that id as sessionId.`);
  });
});

describe("pruning exited sessions", () => {
  test("past maxExitedKept the oldest exited sessions go; the newest stay readable", async () => {
    await using registry = testRegistry({ maxExitedKept: 2 });
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const session = await registry.start(startOptions("sh", ["-c", `echo exited-${i}`]));
      ids.push(session.id);
      await session.whenExited();
    }
    // each exit prunes: of four exited sessions, the two newest are kept
    expect(registry.list().map((s) => s.id)).toEqual(ids.slice(2));
    for (const gone of ids.slice(0, 2)) expect(() => registry.get(gone)).toThrow(/not found/i);
    expect(registry.get(ids[3]!).state).toBe("exited");
  });
});
