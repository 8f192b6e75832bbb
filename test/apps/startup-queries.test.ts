/**
 * An app that queries the terminal at start-up and waits for the answers, as editors and prompts
 * do to pick a light or dark theme (OSC 11 background colour) and to identify the terminal (DA1).
 * Unanswered, it would sit for its whole 5 s timeout and then print TIMEOUT.
 */
import { expect, test } from "bun:test";
import { describeApp, exitInfo, useServer, waitText } from "./helpers.ts";

const PROBE = String.raw`
import os, re, select, sys, termios, time, tty
fd = sys.stdin.fileno()
saved = termios.tcgetattr(fd)
tty.setraw(fd)
started = time.monotonic()
os.write(1, b"\x1b]11;?\x1b\\\x1b[c")
buf = b""
bg = da = None
deadline = started + 5
while (bg is None or da is None) and time.monotonic() < deadline:
    ready, _, _ = select.select([fd], [], [], max(0, deadline - time.monotonic()))
    if not ready:
        break
    buf += os.read(fd, 1024)
    m = re.search(rb"\x1b\]11;(rgb:[0-9a-fA-F]+/[0-9a-fA-F]+/[0-9a-fA-F]+)(\x1b\\|\x07)", buf)
    if m: bg = m.group(1).decode()
    m = re.search(rb"\x1b\[\?([0-9;]+)c", buf)
    if m: da = m.group(1).decode()
termios.tcsetattr(fd, termios.TCSADRAIN, saved)
ms = int((time.monotonic() - started) * 1000)
if bg is None or da is None:
    print("TIMEOUT after %d ms, got %r" % (ms, buf))
    sys.exit(3)
print("BG=%s" % bg)
print("DA=%s" % da)
print("MS=%d" % ms)
`;

describeApp(
  "python3",
  () => {
    const h = useServer();

    test("a start-up OSC 11 + DA1 probe gets both answers at once instead of timing out", async () => {
      const { sessionId } = await h.start({ command: "python3", args: ["-c", PROBE], cols: 80, rows: 24 });
      const seen = await waitText(h.c, sessionId, "^(MS=\\d+|TIMEOUT.*)$", {
        regex: true,
        regexFlags: "m",
        timeoutMs: 8000,
      });
      const text: string = seen.screen.text;
      expect(text).not.toContain("TIMEOUT");
      expect(text).toMatch(/^BG=rgb:[0-9a-f]{4}\/[0-9a-f]{4}\/[0-9a-f]{4}$/m);
      expect(text).toMatch(/^DA=\d+(;\d+)*$/m);
      // answered right away, far inside the 5 s the probe would otherwise wait
      expect(Number(/^MS=(\d+)$/m.exec(text)?.[1])).toBeLessThan(2000);
      expect((await exitInfo(h.c, sessionId)).exitCode).toBe(0);
    });
  },
  "terminal queries at start-up (python3 probe)",
);
