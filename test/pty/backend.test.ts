/** The PTY adapters against real processes: each bun-pty quirk the adapter hides has a test here. */
import { describe, expect, test } from "bun:test";
import { resolveCommand, selectBackend, type PtyBackend, type PtyExit, type PtyProcess } from "../../src/pty/index.ts";
import { bunTerminalAvailable } from "../../src/pty/bun-terminal.ts";
import { BUN, fixture, until } from "../helpers.ts";

async function run(backend: PtyBackend, file: string, args: string[], env: Record<string, string> = {}) {
  const chunks: Uint8Array[] = [];
  const proc = await backend.spawn({
    file,
    args,
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? "", TERM: "xterm-256color", ...env },
    cols: 80,
    rows: 24,
  });
  const exited = new Promise<PtyExit>((resolve) => proc.onExit(resolve));
  proc.onData((c) => {
    chunks.push(c);
    proc.consumed(c.length);
  });
  const text = () => Buffer.concat(chunks).toString("utf8");
  const bytes = () => Buffer.concat(chunks);
  return { proc, exited, text, bytes };
}

const backends = ["bun-terminal", "bun-pty"].filter((name) => name !== "bun-terminal" || bunTerminalAvailable());
const bash = resolveCommand("bash", process.cwd(), { PATH: process.env.PATH ?? "" });

for (const name of backends) {
  describe(`pty backend ${name}`, () => {
    const load = () => selectBackend(name);

    test("reports the real exit code", async () => {
      const { exited } = await run(await load(), bash, ["-c", "exit 3"]);
      expect(await exited).toEqual({ exitCode: 3, signal: null });
    });

    test("delivers a real signal and reports it by name, never a fake exit 0", async () => {
      const { proc, exited, text } = await run(await load(), bash, ["-c", "echo started; exec sleep 30"]);
      await until(() => text().includes("started"), "child start");
      expect(proc.signal("SIGTERM")).toBe(true);
      expect(await exited).toEqual({ exitCode: null, signal: "SIGTERM" });
    });

    test("sets TERM in the child from the environment", async () => {
      const { exited, text } = await run(await load(), bash, ["-c", "echo TERM=$TERM"], { TERM: "screen-256color" });
      await exited;
      expect(text()).toContain("TERM=screen-256color");
    });

    test("keeps the last bytes a child writes before it exits (20 of 20 runs)", async () => {
      for (let i = 0; i < 20; i++) {
        const { exited, text } = await run(await load(), bash, ["-c", "seq 1 200000; echo END"]);
        expect(await exited).toEqual({ exitCode: 0, signal: null });
        expect(text().trimEnd().endsWith("200000\r\nEND")).toBe(true);
      }
    }, 60_000);

    test("writes UTF-8 input exactly", async () => {
      const { proc, text } = await run(await load(), BUN, [fixture("echo-keys.ts")]);
      await until(() => text().includes("READY"), "fixture ready");
      proc.write(new TextEncoder().encode("é"));
      await until(() => text().includes("KEY c3a9"), "é echoed as c3 a9");
      proc.close();
    });
  });
}

describe("raw bytes 0x80-0xff outside UTF-8", () => {
  test.skipIf(!bunTerminalAvailable())("reach the child exactly on bun-terminal", async () => {
    const { proc, text } = await run(await selectBackend("bun-terminal"), BUN, [fixture("echo-keys.ts")]);
    await until(() => text().includes("READY"), "fixture ready");
    proc.write(Uint8Array.of(0x80, 0xff, 0xe9));
    await until(() => text().includes("KEY 80ffe9"), "raw bytes echoed");
    proc.close();
  });

  test("are refused with a clear error on bun-pty, not altered", async () => {
    const { proc, text } = await run(await selectBackend("bun-pty"), BUN, [fixture("echo-keys.ts")]);
    await until(() => text().includes("READY"), "fixture ready");
    expect(() => proc.write(Uint8Array.of(0x80, 0xff))).toThrow(/valid UTF-8/);
    proc.close();
  });
});

describe("resolveCommand", () => {
  test("a missing command fails at start time with a hint", () => {
    expect(() =>
      resolveCommand("definitely-not-a-command-xyz", process.cwd(), { PATH: process.env.PATH ?? "" }),
    ).toThrow(/not found on PATH/);
  });
  test("a missing cwd fails with a hint", () => {
    expect(() => resolveCommand("bash", "/no/such/dir", { PATH: process.env.PATH ?? "" })).toThrow(/does not exist/);
  });
});

export type { PtyProcess };
