/**
 * Terminal fidelity through the MCP server (issue 4, items 1-5), on small Bun fixtures:
 * modes reporting, query replies, the kitty keyboard protocol, bracketed paste, mouse reports
 * and synchronized output. Every wait is on a condition (text on the screen or in the raw output).
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { inputUntil, sessionModes, useServer, waitText } from "../apps/helpers.ts";
import { BUN, fixture } from "../helpers.ts";
import { replayFrames } from "../../src/monitor/monitor.ts";

const hex = (s: string) => Buffer.from(s, "latin1").toString("hex");
const CSI = "\x1b[";

// test/setup.ts sets this too, but a preload's default only reaches the first test file of a run
setDefaultTimeout(30_000);
const h = useServer();

async function startFixture(file: string, args: string[] = [], size = { cols: 120, rows: 30 }): Promise<string> {
  const { sessionId } = await h.start({ command: BUN, args: [fixture(file), ...args], ...size });
  await waitText(h.c, sessionId, "READY");
  return sessionId;
}

/** Run a Bun script given inline (bun -e), for one-off fixtures. */
async function startInline(
  code: string,
  size = { cols: 120, rows: 30 },
): Promise<{ sessionId: string; info: Record<string, any> }> {
  return h.start({ command: BUN, args: ["-e", code], ...size });
}

describe("terminal modes are reported (item 1)", () => {
  const MODES_APP = String.raw`
    process.stdin.setRawMode(true);
    // alt screen first: kitty flags are kept per screen, so these belong to the alternate one
    process.stdout.write("\x1b[?1049h\x1b[?1h\x1b=\x1b[?2004h\x1b[?1002h\x1b[?1006h\x1b[?1004h\x1b[>5u");
    process.stdout.write("READY\r\n");
    process.stdin.on("data", (d) => {
      const k = d.toString();
      if (k === "s") process.stdout.write("\x1b[?2026hHELD\r\n");
      if (k === "r") process.stdout.write("\x1b[?2026lRELEASED\r\n");
      if (k === "l") process.stdout.write("\x1b[?1049lMAIN SCREEN\r\n");
      if (k === "q") process.exit(0);
    });
  `;

  test("start_session info carries modes; list_sessions shows what the app switched on", async () => {
    const { sessionId, info } = await startInline(MODES_APP);
    for (const key of [
      "applicationCursorKeys",
      "applicationKeypad",
      "bracketedPaste",
      "mouseTracking",
      "mouseEncoding",
      "kittyKeyboardFlags",
      "altScreen",
      "synchronizedOutput",
    ]) {
      expect(info.modes).toHaveProperty(key);
    }
    await waitText(h.c, sessionId, "READY");
    expect(await sessionModes(h.c, sessionId)).toMatchObject({
      applicationCursorKeys: true,
      applicationKeypad: true,
      bracketedPaste: true,
      mouseTracking: "drag",
      mouseEncoding: "sgr",
      kittyKeyboardFlags: 5,
      altScreen: true,
      synchronizedOutput: false,
      focusEvents: true,
    });

    // an update the app holds open shows as synchronizedOutput; the screen is still readable after the bound
    await inputUntil(h.c, "send_text", { sessionId, text: "s" }, "HELD");
    expect((await sessionModes(h.c, sessionId)).synchronizedOutput).toBe(true);
    await inputUntil(h.c, "send_text", { sessionId, text: "r" }, "RELEASED");
    expect((await sessionModes(h.c, sessionId)).synchronizedOutput).toBe(false);

    // back on the main screen: its own (empty) kitty stack applies
    await inputUntil(h.c, "send_text", { sessionId, text: "l" }, "MAIN SCREEN");
    expect(await sessionModes(h.c, sessionId)).toMatchObject({ altScreen: false, kittyKeyboardFlags: 0 });
  });
});

describe("queries are answered from the theme (item 1)", () => {
  // Asks OSC 10 (ST), OSC 11 (BEL), OSC 4;1 (ST), XTVERSION and the kitty flags, prints the
  // replies with ESC and BEL made visible; then pushes kitty flags 3 and asks again.
  const QUERY_APP = String.raw`
    process.stdin.setRawMode(true);
    const show = (s) => s.replaceAll("\x1b", "ESC").replaceAll("\x07", "BEL");
    const wants = [/\x1b\]10;[^\x07\x1b]*\x1b\\/, /\x1b\]11;[^\x07\x1b]*\x07/, /\x1b\]4;1;[^\x07\x1b]*\x1b\\/, /\x1bP>\|[^\x1b]*\x1b\\/, /\x1b\[\?\d+u/];
    let got = "";
    let stage = 0;
    process.stdout.write("\x1b]10;?\x1b\\\x1b]11;?\x07\x1b]4;1;?\x1b\\\x1b[>q\x1b[?u");
    process.stdin.on("data", (d) => {
      got += d.toString("latin1");
      if (stage === 0 && wants.every((re) => re.test(got))) {
        stage = 1;
        wants.forEach((re, i) => process.stdout.write("R" + i + " " + show(re.exec(got)[0]) + "\r\n"));
        got = "";
        process.stdout.write("\x1b[>3u\x1b[?u");
      } else if (stage === 1 && /\x1b\[\?\d+u/.test(got)) {
        process.stdout.write("K " + show(/\x1b\[\?\d+u/.exec(got)[0]) + "\r\nDONE\r\n");
        process.exit(0);
      }
    });
  `;

  test("OSC 10/11/4 colours, XTVERSION and CSI ? u get well-formed replies with the request's terminator", async () => {
    const { sessionId } = await startInline(QUERY_APP);
    const { screen } = await waitText(h.c, sessionId, "DONE");
    const lines = (screen.text as string).split("\n");
    const line = (prefix: string) => lines.find((l) => l.startsWith(prefix)) ?? "";
    const rgb = "rgb:[0-9a-f]{4}/[0-9a-f]{4}/[0-9a-f]{4}";
    expect(line("R0")).toMatch(new RegExp(`^R0 ESC\\]10;${rgb}ESC\\\\$`));
    expect(line("R1")).toMatch(new RegExp(`^R1 ESC\\]11;${rgb}BEL$`));
    expect(line("R2")).toMatch(new RegExp(`^R2 ESC\\]4;1;${rgb}ESC\\\\$`));
    expect(line("R3")).toMatch(/^R3 ESCP>\|tui-tester\([\w.-]+\)ESC\\$/);
    expect(line("R4")).toBe("R4 ESC[?0u");
    expect(line("K")).toBe("K ESC[?3u");
    // foreground and background are a theme's two distinct colours
    const colour = (l: string) => /rgb:[0-9a-f/]+/.exec(l)?.[0];
    expect(colour(line("R0"))).not.toBe(colour(line("R1")));
  });
});

describe("kitty keyboard protocol (item 2)", () => {
  test("with flags pushed, ctrl+shift+a / shift+enter / ctrl+i are CSI u; after the pop they are legacy again", async () => {
    const sessionId = await startFixture("kitty-app.ts");
    expect((await sessionModes(h.c, sessionId)).kittyKeyboardFlags).toBe(1);

    const cases: [string, string, string][] = [
      ["ctrl+shift+a", `${CSI}97;6u`, "\x01"],
      ["shift+enter", `${CSI}13;2u`, "\r"],
      ["ctrl+i", `${CSI}105;5u`, "\t"],
      ["Escape", `${CSI}27u`, "\x1b"],
    ];
    for (const [key, kitty] of cases) {
      const sent = await inputUntil(h.c, "send_keys", { sessionId, keys: key }, `KEY ${hex(kitty)}`);
      expect(sent.bytesSent).toBe(kitty.length);
    }
    // plain text stays text under flag 1; "p" makes the app pop its flags
    await inputUntil(h.c, "send_keys", { sessionId, keys: "p" }, "POPPED");
    expect((await sessionModes(h.c, sessionId)).kittyKeyboardFlags).toBe(0);
    for (const [key, , legacy] of cases) {
      const sent = await inputUntil(h.c, "send_keys", { sessionId, keys: key }, `^KEY ${hex(legacy)}$`, {
        regex: true,
        regexFlags: "m",
      });
      expect(sent.bytesSent).toBe(legacy.length);
    }
    const lines = (await h.c.ok("get_text", { sessionId })).text.split("\n");
    expect(lines.filter((l: string) => l.startsWith("KEY "))).toEqual([
      ...cases.map(([, kitty]) => `KEY ${hex(kitty)}`),
      "KEY 70",
      ...cases.map(([, , legacy]) => `KEY ${hex(legacy)}`),
    ]);
  });

  test("flags 8 (report all keys) turn plain letters and Enter into CSI u", async () => {
    const sessionId = await startFixture("kitty-app.ts", ["9"]);
    await inputUntil(h.c, "send_keys", { sessionId, keys: "a" }, `KEY ${hex(`${CSI}97u`)}`);
    await inputUntil(h.c, "send_keys", { sessionId, keys: "Enter" }, `KEY ${hex(`${CSI}13u`)}`);
  });
});

describe("paste (item 3)", () => {
  const text = "hello\nworld";

  test("bracketed when the app enabled mode 2004: the app receives ESC[200~ text ESC[201~", async () => {
    const sessionId = await startFixture("paste-app.ts", ["--bracketed"]);
    const expected = `IN ${hex(`\x1b[200~${text}\x1b[201~`)}`;
    expect(expected).toStartWith("IN 1b5b3230307e");
    expect(expected).toEndWith("1b5b3230317e");
    const pasted = await inputUntil(h.c, "paste", { sessionId, text }, `^${expected}$`, {
      regex: true,
      regexFlags: "m",
    });
    expect(pasted).toMatchObject({ bracketed: true, bytesSent: 12 + text.length, sanitized: false });
  });

  test("an embedded end marker is dropped so the paste cannot end early", async () => {
    const sessionId = await startFixture("paste-app.ts", ["--bracketed"]);
    const pasted = await inputUntil(
      h.c,
      "paste",
      { sessionId, text: "a\x1b[201~b" },
      `^IN ${hex("\x1b[200~ab\x1b[201~")}$`,
      { regex: true, regexFlags: "m" },
    );
    expect(pasted).toMatchObject({ bracketed: true, sanitized: true });
  });

  test("plain when the app did not enable it, and the result says so", async () => {
    const sessionId = await startFixture("paste-app.ts");
    const pasted = await inputUntil(h.c, "paste", { sessionId, text }, `^IN ${hex(text)}$`, {
      regex: true,
      regexFlags: "m",
    });
    expect(pasted).toMatchObject({ bracketed: false, bytesSent: text.length });
    expect(pasted.screen.after.text).not.toContain("1b5b323030");
  });
});

describe("mouse (item 4)", () => {
  // "CLICK ME" starts at row 5 col 10; the tool aims at a match's middle: col 10 + 3 = 13 -> x 14, y 6
  const CLICK = { x: 14, y: 6 };
  // "DROP HERE" at row 12 col 40, middle col 44 -> x 45, y 13
  const DROP = { x: 45, y: 13 };

  const events = async (sessionId: string): Promise<string[]> =>
    ((await h.c.ok("get_text", { sessionId })).text as string).split("\n").filter((l) => /^(EV|KEY) /.test(l));

  test("click on text sends an SGR press and release at the 1-based cell", async () => {
    const sessionId = await startFixture("mouse-app.ts", ["1000,1006"]);
    expect(await sessionModes(h.c, sessionId)).toMatchObject({ mouseTracking: "vt200", mouseEncoding: "sgr" });
    const clicked = await inputUntil(h.c, "mouse", { sessionId, action: "click", text: "CLICK ME" }, "EV 2 ");
    expect(clicked).toMatchObject({
      at: { row: 5, col: 13 },
      events: ["press", "release"],
      tracking: "vt200",
      encoding: "sgr",
    });
    expect(await events(sessionId)).toEqual([`EV 1 0;${CLICK.x};${CLICK.y} M`, `EV 2 0;${CLICK.x};${CLICK.y} m`]);
  });

  test("right click with ctrl at a row/col, wheel up and down", async () => {
    const sessionId = await startFixture("mouse-app.ts", ["1000,1006"]);
    await inputUntil(
      h.c,
      "mouse",
      { sessionId, action: "click", button: "right", ctrl: true, row: 2, col: 7 },
      "EV 2 ",
    );
    await inputUntil(h.c, "mouse", { sessionId, action: "wheel_up", row: 3, col: 0 }, "EV 3 ");
    await inputUntil(h.c, "mouse", { sessionId, action: "wheel_down", row: 3, col: 0 }, "EV 4 ");
    expect(await events(sessionId)).toEqual(["EV 1 18;8;3 M", "EV 2 18;8;3 m", "EV 3 64;1;4 M", "EV 4 65;1;4 M"]);
  });

  test("drag in button-event mode (1002): press, motion with the button held, release at the end", async () => {
    const sessionId = await startFixture("mouse-app.ts", ["1002,1006"]);
    const dragged = await inputUntil(
      h.c,
      "mouse",
      { sessionId, action: "drag", text: "CLICK ME", toText: "DROP HERE" },
      "EV 3 ",
    );
    expect(dragged).toMatchObject({
      events: ["press", "motion", "release"],
      tracking: "drag",
      to: { row: 12, col: 44 },
    });
    expect(await events(sessionId)).toEqual([
      `EV 1 0;${CLICK.x};${CLICK.y} M`,
      `EV 2 32;${DROP.x};${DROP.y} M`,
      `EV 3 0;${DROP.x};${DROP.y} m`,
    ]);
  });

  test("move is reported in any-event mode (1003) and refused in normal mode (1000)", async () => {
    const any = await startFixture("mouse-app.ts", ["1003,1006"]);
    await inputUntil(h.c, "mouse", { sessionId: any, action: "move", row: 0, col: 1 }, "EV 1 ");
    expect(await events(any)).toEqual(["EV 1 35;2;1 M"]);

    const normal = await startFixture("mouse-app.ts", ["1000,1006"]);
    const refused = await h.c.call("mouse", { sessionId: normal, action: "move", row: 0, col: 1 });
    expect(refused.isError).toBe(true);
    expect(refused.data.error.code).toBe("MOUSE_NOT_ENABLED");
  });

  test("default (X11) encoding when the app asked for no extended encoding", async () => {
    const sessionId = await startFixture("mouse-app.ts", ["1000"]);
    expect(await sessionModes(h.c, sessionId)).toMatchObject({ mouseTracking: "vt200", mouseEncoding: "default" });
    // ESC [ M Cb Cx Cy with 32 added; the legacy release is button 3
    const press = `\x1b[M${String.fromCharCode(32, 32 + CLICK.x, 32 + CLICK.y)}`;
    const release = `\x1b[M${String.fromCharCode(35, 32 + CLICK.x, 32 + CLICK.y)}`;
    await inputUntil(h.c, "mouse", { sessionId, action: "click", text: "CLICK ME" }, `${hex(release)}$`, {
      regex: true,
      regexFlags: "m",
    });
    expect((await events(sessionId)).map((l) => l.slice(4)).join("")).toBe(hex(press + release));
  });

  test("without mouse tracking: MOUSE_NOT_ENABLED and nothing reaches the app", async () => {
    const sessionId = await startFixture("mouse-app.ts", ["none"]);
    expect((await sessionModes(h.c, sessionId)).mouseTracking).toBe("none");
    const refused = await h.c.call("mouse", { sessionId, action: "click", text: "CLICK ME" });
    expect(refused.isError).toBe(true);
    expect(refused.data.error.code).toBe("MOUSE_NOT_ENABLED");
    // the next input is the first thing the app sees
    await inputUntil(h.c, "send_text", { sessionId, text: "z" }, "KEY 7a");
    expect(await events(sessionId)).toEqual(["KEY 7a"]);
  });
});

describe("synchronized output (item 5)", () => {
  /** Rows 0-9 say "TOP n" and rows 10-19 "BOTTOM n"; a consistent screen has one n. */
  const frameNumbers = (text: string): Set<string> => {
    const numbers = new Set<string>();
    for (const m of text.matchAll(/^(?:TOP|BOTTOM) (\d+)$/gm)) numbers.add(m[1]!);
    return numbers;
  };
  const expectWholeFrame = (text: string, n?: number) => {
    const numbers = frameNumbers(text);
    expect(numbers.size, `half-drawn frame observed:\n${text}`).toBe(1);
    expect(text.split("\n").filter((l) => /^(TOP|BOTTOM) \d+$/.test(l))).toHaveLength(20);
    if (n !== undefined) expect([...numbers]).toEqual([String(n)]);
  };

  test("while a frame is held open, snapshot, get_text and waits show the previous or the finished frame, never half", async () => {
    const sessionId = await startFixture("sync-app.ts", ["600"]);
    await h.c.ok("send_text", { sessionId, text: "n", captureScreen: false });
    // the raw output shows the first half has arrived: the update is open now, for 600 ms
    await h.c.ok("wait_for_text", { sessionId, pattern: "TOP 1", matchScreen: false, errorOnTimeout: true });
    const t0 = performance.now();
    const snap = await h.c.ok("snapshot", { sessionId });
    expect(performance.now() - t0).toBeGreaterThan(50); // it waited for the release
    expectWholeFrame(snap.text, 1);
    expect(snap.text).toContain("DRAWN 1");

    // a screen wait does not match on the half frame either: when "TOP 2" matches, BOTTOM is 2 too
    const waited = await inputUntil(h.c, "send_text", { sessionId, text: "n" }, "TOP 2");
    expectWholeFrame(waited.screen.after.text, 2);
    expect(waited.screen.before.text).toContain("DRAWN 1");
    const text = await h.c.ok("get_text", { sessionId });
    expectWholeFrame(text.text, 2);
  });

  test("a monitor and concurrent reads over several held frames never see a half-drawn one", async () => {
    const sessionId = await startFixture("sync-app.ts", ["150", "4"]);
    const { monitorId } = await h.c.ok("start_monitor", { sessionId, intervalMs: 10 });
    await h.c.ok("send_text", { sessionId, text: "a", captureScreen: false });
    const reads: string[] = [];
    let done = false;
    const reader = (async () => {
      while (!done) reads.push((await h.c.ok("get_text", { sessionId })).text);
    })();
    await waitText(h.c, sessionId, "DRAWN 4");
    done = true;
    await reader;
    const report = await h.c.ok("stop_monitor", { monitorId });
    const seen = new Set<string>();
    // frames after the first are row diffs; replay them to get each frame's screen
    for (const text of replayFrames(report.frames)) {
      expectWholeFrame(text);
      for (const n of frameNumbers(text)) seen.add(n);
    }
    for (const read of reads) expectWholeFrame(read);
    // each finished frame stays on screen through the next frame's 150 ms hold: the monitor sees them all
    expect([...seen].sort()).toEqual(["0", "1", "2", "3", "4"]);
    expect(reads.length).toBeGreaterThan(0);
  });

  test("an update that is never released is still readable after the ~1 s bound", async () => {
    const sessionId = await startFixture("sync-app.ts");
    const t0 = performance.now();
    const waited = await inputUntil(h.c, "send_text", { sessionId, text: "h" }, "STUCK");
    const elapsed = performance.now() - t0;
    expect(elapsed).toBeGreaterThan(800);
    expect(elapsed).toBeLessThan(4000);
    expect(waited.screen.after.text).toContain("STUCK");
    expect((await sessionModes(h.c, sessionId)).synchronizedOutput).toBe(true);
    // past the bound, reads return at once
    const t1 = performance.now();
    expect((await h.c.ok("snapshot", { sessionId })).text).toContain("STUCK");
    expect(performance.now() - t1).toBeLessThan(800);
  });
});
