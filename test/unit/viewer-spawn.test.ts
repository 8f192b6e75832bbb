/**
 * ViewerManager with real processes but no window: viewerCommand readers that are shell scripts
 * writing what they receive to files, so the FIFO protocol and the cleanup can be checked anywhere.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Emulator } from "../../src/term/emulator.ts";
import { ViewerManager, type ViewerCommand } from "../../src/viewer/manager.ts";
import {
  FifoWriter,
  MAX_BACKLOG_BYTES,
  createViewerDir,
  removeViewerDir,
  waitForReader,
} from "../../src/viewer/fifo.ts";
import { processAlive, until } from "../helpers.ts";
import { startOptions, testRegistry } from "../registry-helpers.ts";

const work = mkdtempSync(join(tmpdir(), "viewer-spawn-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const enc = new TextEncoder();
const read = (path: string) => (existsSync(path) ? readFileSync(path, "latin1") : "");

/** A "terminal" that records its title and everything it reads, then exits at EOF. */
function recorder(name: string): { cmd: ViewerCommand; titleFile: string; streamFile: string; pidFile: string } {
  const titleFile = join(work, `${name}.title`);
  const streamFile = join(work, `${name}.stream`);
  const pidFile = join(work, `${name}.pid`);
  const script = 'printf %s "$0" > "$2"; echo $$ > "$4"; exec cat "$1" > "$3"';
  return {
    cmd: { command: "bash", args: ["-c", script, "{title}", "{fifo}", titleFile, streamFile, pidFile] },
    titleFile,
    streamFile,
    pidFile,
  };
}

async function shell(registry: ReturnType<typeof testRegistry>, name?: string) {
  const session = await registry.start(startOptions("bash", ["--norc", "--noprofile"], { name, env: { PS1: "$ " } }));
  await until(() => session.emulator.text().includes("$"), "the prompt");
  return session;
}

describe("viewerCommand", () => {
  const pwned = `/tmp/pwned-${process.pid}`;
  const hostileNames = [
    `x"; do shell script "touch ${pwned}`,
    `$(touch ${pwned})`,
    `'; touch ${pwned}; '`,
    `\`touch ${pwned}\`; {fifo}`,
  ];
  test.each(hostileNames)("hostile session name %p reaches the viewer verbatim and runs nothing", async (name) => {
    await using registry = testRegistry();
    const session = await shell(registry, name);
    session.write(enc.encode("echo early-marker\r"));
    await until(() => session.emulator.text().includes("early-marker\n"), "early output");
    const rec = recorder("hostile");
    const viewers = new ViewerManager({ env: process.env });
    const status = await viewers.open(session, rec.cmd);
    expect(status).toEqual({
      requested: true,
      open: true,
      terminal: "bash",
      fifo: expect.stringMatching(/screen\.fifo$/),
    });
    expect(statSync(dirname(status.fifo!)).mode & 0o777).toBe(0o700);
    expect(statSync(status.fifo!).isFIFO()).toBe(true);
    await until(() => read(rec.titleFile) !== "", "the title file");
    expect(read(rec.titleFile)).toBe(`tui-tester: ${name}`);
    // late attach: the redraw carries what was on screen before the viewer existed
    await until(() => read(rec.streamFile).includes("early-marker"), "the initial redraw");
    expect(read(rec.streamFile).startsWith("\x18\x1bc")).toBe(true);
    session.write(enc.encode("echo live-$((6*7))\r"));
    await until(() => read(rec.streamFile).includes("live-42"), "streamed output");
    const readerPid = Number(read(rec.pidFile));
    await registry.stop(session.id, "SIGKILL");
    await until(() => !existsSync(dirname(status.fifo!)), "viewer dir removal");
    await until(() => !processAlive(readerPid), "the reader to exit");
    expect(existsSync(pwned)).toBe(false);
  });

  test("a resize sends the window resize and a fresh redraw", async () => {
    await using registry = testRegistry();
    const session = await shell(registry);
    const rec = recorder("resize");
    const viewers = new ViewerManager({ env: process.env });
    expect((await viewers.open(session, rec.cmd)).open).toBe(true);
    await until(() => read(rec.streamFile).includes("\x1b[8;24;80t"), "initial size");
    session.resize(100, 30);
    await until(() => read(rec.streamFile).includes("\x1b[8;30;100t"), "resize request");
    expect(read(rec.streamFile).split("\x18\x1bc").length).toBe(3); // attach + resize redraws
    await viewers.closeAll();
    expect(session.running).toBe(true); // closing a viewer leaves the session alone
  });

  test("replaying what a late viewer got, across a resize of an animating TUI, reproduces the screen", async () => {
    await using registry = testRegistry();
    const session = await registry.start(
      startOptions(process.execPath, [join(import.meta.dir, "../../scripts/demo-tui.ts")]),
    );
    await until(() => session.emulator.text().includes("tick 5"), "a few animation frames");
    const rec = recorder("replay");
    const viewers = new ViewerManager({ env: process.env });
    expect((await viewers.open(session, rec.cmd)).open).toBe(true);
    session.write(enc.encode("\x1bOB "));
    session.resize(100, 30);
    await until(() => session.emulator.text().includes("100x30"), "the redraw at the new size");
    await Bun.sleep(300); // more frames streamed after the resize repaint
    await registry.stop(session.id, "SIGKILL");
    await until(() => !existsSync(rec.pidFile) || !processAlive(Number(read(rec.pidFile))), "the reader to finish");
    const replay = new Emulator({ cols: 100, rows: 30, reply: () => undefined });
    replay.write(readFileSync(rec.streamFile));
    await replay.flushed();
    expect(replay.text()).toBe(session.emulator.text());
    expect(replay.text()).toContain("> [x] filesystem");
    replay.dispose();
  });

  test("the human closing the window (EPIPE) detaches the viewer, not the session", async () => {
    await using registry = testRegistry();
    const session = await shell(registry);
    const viewers = new ViewerManager({ env: process.env });
    const status = await viewers.open(session, {
      command: "bash",
      args: ["-c", 'head -c 1 "$0" >/dev/null', "{fifo}"],
    });
    expect(status.open).toBe(true);
    for (let i = 0; i < 20 && existsSync(status.fifo!); i++) {
      session.write(enc.encode("echo more output\r"));
      await Bun.sleep(50);
    }
    await until(() => !existsSync(dirname(status.fifo!)), "detach and cleanup");
    session.write(enc.encode("echo still-alive\r"));
    await until(() => session.emulator.text().includes("still-alive\n"), "the session to carry on");
    // a second open after a detach works
    const again = await viewers.open(session, recorder("again").cmd);
    expect(again.open).toBe(true);
    await viewers.closeAll();
    expect(existsSync(dirname(again.fifo!))).toBe(false);
  });

  test("a viewer that never opens the pipe times out without blocking the event loop", async () => {
    await using registry = testRegistry();
    const session = await shell(registry);
    const pidFile = join(work, "never.pid");
    const viewers = new ViewerManager({ env: process.env, attachTimeoutMs: 600 });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 20);
    const started = performance.now();
    const status = await viewers.open(session, {
      command: "bash",
      args: ["-c", 'echo $$ > "$0"; exec sleep 30', pidFile],
    });
    clearInterval(timer);
    expect(status.open).toBe(false);
    expect(status.reason).toBe("bash started but did not open the viewer pipe within 600 ms");
    expect(performance.now() - started).toBeLessThan(5000);
    expect(ticks).toBeGreaterThan(10); // timers kept firing while we waited
    await until(() => !processAlive(Number(read(pidFile))), "the stuck viewer to be killed");
    expect(session.running).toBe(true);
  });

  test("failures are reported, never thrown", async () => {
    await using registry = testRegistry();
    const session = await shell(registry);
    const viewers = new ViewerManager({ env: process.env });
    expect(await viewers.open(session, { command: "bash", args: ["-c", "echo boom >&2; exit 3"] })).toEqual({
      requested: true,
      open: false,
      reason: "bash exited with code 3: boom",
    });
    expect(await viewers.open(session, { command: "no-such-viewer-xyz", args: [] })).toEqual({
      requested: true,
      open: false,
      reason: 'viewerCommand.command "no-such-viewer-xyz" not found on PATH',
    });
    expect(await new ViewerManager({ platform: "linux", env: { PATH: process.env.PATH } }).open(session)).toEqual({
      requested: true,
      open: false,
      reason: "no display (DISPLAY/WAYLAND_DISPLAY unset)",
    });
    expect(await new ViewerManager({ platform: "win32", env: {} }).open(session)).toEqual({
      requested: true,
      open: false,
      reason: "viewer windows are not supported on win32",
    });
    expect(await new ViewerManager({ platform: "linux", env: { DISPLAY: ":0", PATH: work } }).open(session)).toEqual({
      requested: true,
      open: false,
      reason: "no terminal emulator found on PATH (tried x-terminal-emulator, gnome-terminal, konsole, xterm)",
    });
    await registry.stop(session.id, "SIGKILL");
    expect(await viewers.open(session, recorder("late").cmd)).toEqual({
      requested: true,
      open: false,
      reason: `session ${session.id} has already exited`,
    });
  });
});

describe("FifoWriter", () => {
  test("a reader that stops reading never blocks writes; the backlog is capped", async () => {
    const dir = createViewerDir();
    const reader = Bun.spawn(["bash", "-c", 'exec 3<"$0"; sleep 30', dir.fifo], {
      stdio: ["ignore", "ignore", "ignore"],
    });
    try {
      const opened = await waitForReader(dir.fifo, performance.now() + 5000, () => undefined);
      if (!("fd" in opened)) throw new Error(opened.failed);
      let overflows = 0;
      const writer = new FifoWriter(
        opened.fd,
        (e) => {
          throw e;
        },
        () => overflows++,
      );
      const chunk = new Uint8Array(256 * 1024).fill(65);
      const started = performance.now();
      for (let i = 0; i < 40; i++) writer.write(chunk); // 10 MiB into a 64 KiB pipe nobody drains
      expect(performance.now() - started).toBeLessThan(1000);
      expect(overflows).toBeGreaterThan(0);
      expect(writer.backlog).toBeLessThanOrEqual(MAX_BACKLOG_BYTES);
      writer.close();
    } finally {
      reader.kill("SIGKILL");
      removeViewerDir(dir);
    }
    expect(existsSync(dir.dir)).toBe(false);
  });

  test("the reader script passes bytes through and removes its directory after EOF", async () => {
    const dir = createViewerDir();
    const reader = Bun.spawn(["/bin/sh", dir.reader], { stdio: ["ignore", "pipe", "ignore"] });
    const opened = await waitForReader(dir.fifo, performance.now() + 5000, () => undefined);
    if (!("fd" in opened)) throw new Error(opened.failed);
    const writer = new FifoWriter(
      opened.fd,
      (e) => {
        throw e;
      },
      () => undefined,
    );
    writer.write("raw\nbytes\x1b[1m");
    await writer.drain(1000);
    writer.close(); // the server going away, however it went
    expect(await new Response(reader.stdout).text()).toBe("raw\nbytes\x1b[1m");
    await reader.exited;
    expect(existsSync(dir.dir)).toBe(false);
  });

  test("removing the dir releases a reader still blocked opening the FIFO", async () => {
    const dir = createViewerDir();
    const reader = Bun.spawn(["cat", dir.fifo], { stdio: ["ignore", "ignore", "ignore"] });
    await Bun.sleep(100);
    removeViewerDir(dir);
    expect(await Promise.race([reader.exited, Bun.sleep(3000).then(() => "stuck")])).toBe(0);
  });
});
