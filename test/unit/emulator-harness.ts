/** Emulators for unit tests, fed strings without a PTY and disposed after each test. */
import { afterEach } from "bun:test";
import { Emulator, type EmulatorOptions } from "../../src/term/emulator.ts";

/** Call once per test file, at top level: registers the afterEach that disposes what it made. */
export function useEmulators() {
  const open: Emulator[] = [];
  afterEach(() => {
    for (const e of open.splice(0)) e.dispose();
  });
  return function makeEmulator(options: Partial<Omit<EmulatorOptions, "reply">> = {}) {
    const replies: string[] = [];
    const emulator = new Emulator({ cols: 20, rows: 5, ...options, reply: (d) => replies.push(d) });
    open.push(emulator);
    /** Write, and resolve once the parser has taken it. */
    const feed = async (data: string | Uint8Array) => {
      emulator.write(data);
      await emulator.flushed();
    };
    /** Feed and return what the terminal answered to exactly this input. */
    const ask = async (data: string | Uint8Array) => {
      replies.length = 0;
      await feed(data);
      return replies.join("");
    };
    return { emulator, replies, feed, ask };
  };
}
