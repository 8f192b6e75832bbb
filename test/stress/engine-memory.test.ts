/** What a session may hold: input a program never reads is capped; an exited session keeps a few KiB. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { bytesRead } from "../../src/pty/index.ts";
import { INPUT_CAP_BYTES } from "../../src/session/input-cap.ts";
import { until } from "../helpers.ts";
import { seen, startOptions, testRegistry } from "../registry-helpers.ts";

const waitOpts = { timeoutMs: 20_000, pollIntervalMs: 50, matchScreen: true };
const linux = process.platform === "linux";

describe("input to a program", () => {
  test.skipIf(!linux)(
    "that never reads is refused past the cap with INPUT_BLOCKED (Linux: reads are seen in /proc/<pid>/io)",
    async () => {
      await using registry = testRegistry();
      const session = await registry.start(startOptions("sleep", ["300"]));
      // Started for good: exec'd and asleep. While it loads, the dynamic loader's reads move the read
      // counter the cap watches (a loaded machine made the first write come that early).
      await until(() => {
        const stat = readFileSync(`/proc/${session.pid}/stat`, "latin1");
        return stat.includes("(sleep) S");
      }, "sleep to be asleep");
      const half = new Uint8Array(INPUT_CAP_BYTES / 2).fill(0x61);
      session.write(half);
      session.write(half);
      let error: unknown;
      try {
        session.write(half);
      } catch (e) {
        error = e;
      }
      expect(error).toMatchObject({ code: "INPUT_BLOCKED" });
      expect(String((error as Error).message)).toContain("not reading its input");
      expect(() => session.write(new Uint8Array(1))).toThrow(/not reading/);
    },
  );

  test.skipIf(!linux)(
    "that reads takes input well past the cap",
    async () => {
      await using registry = testRegistry();
      const session = await registry.start(
        startOptions("bash", ["-c", "stty raw -echo; echo READY; exec cat > /dev/null"]),
      );
      await seen(session, { ...waitOpts, pattern: "READY" });
      const half = new Uint8Array(INPUT_CAP_BYTES / 2).fill(0x61);
      const start = bytesRead([session.pid])!;
      for (let i = 1; i <= 8; i++) {
        session.write(half);
        await until(() => bytesRead([session.pid])! - start >= i * half.length, `cat to read ${i} writes`);
      }
      expect(session.running).toBe(true);
    },
    60_000,
  );
});

describe("exited sessions", () => {
  test("release the emulator and the big raw ring; reads still answer from the kept final screen", async () => {
    await using registry = testRegistry();
    const session = await registry.start(
      startOptions(
        "bash",
        [
          "-c",
          "seq 1 20000 | sed 's/$/ xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx/'; printf '\\033[1;31mLAST\\033[0m\\n'",
        ],
        { cols: 300, rows: 50 },
      ),
    );
    await session.whenExited();
    expect(session.keptBytes).not.toBeNull();
    expect(session.keptBytes!).toBeLessThan(1024 * 1024);
    expect(session.raw.total).toBeGreaterThan(2_000_000);
    expect(session.raw.size).toBe(64 * 1024);
    await session.emulator.flushed();
    const text = session.emulator.text();
    expect(text).toContain("20000 xxx");
    expect(text).toContain("LAST");
    const snap = await session.emulator.settledSnapshot({ format: "text", includeScrollback: true });
    expect(snap.cols).toBe(300);
    expect(snap.rows).toBe(50);
    expect(snap.scrollback?.totalLines ?? 0).toBeGreaterThan(50);
  }, 60_000);

  test("64 kept sessions cost a few MiB at most", async () => {
    await using registry = testRegistry();
    const sessions = await Promise.all(
      Array.from({ length: 64 }, (_, i) => registry.start(startOptions("bash", ["-c", `seq 1 3000; echo DONE-${i}`]))),
    );
    await Promise.all(sessions.map((s) => s.whenExited()));
    const total = sessions.reduce((sum, s) => sum + (s.keptBytes ?? Number.POSITIVE_INFINITY), 0);
    expect(total).toBeLessThan(8 * 1024 * 1024);
    expect(sessions.every((s, i) => s.emulator.text().includes(`DONE-${i}`))).toBe(true);
  }, 60_000);
});
