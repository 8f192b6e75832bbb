/**
 * The web viewer over plain HTTP and WebSocket (no browser): token, Host and Origin checks, the
 * session list, live output with a repaint on attach and resize, takeover and its notice.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect, type TestClient } from "../e2e/client.ts";
import { BUN, fixture } from "../helpers.ts";
import { readCast } from "../record/cast.ts";
import { openTab } from "./ws-client.ts";

let c: TestClient;
beforeAll(async () => {
  c = await connect({ env: { DISPLAY: "", WAYLAND_DISPLAY: "" } });
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
});

async function echoKeys(): Promise<string> {
  const { sessionId } = await c.ok("start_session", { command: BUN, args: [fixture("echo-keys.ts")], name: "echo" });
  await c.ok("wait_for_text", { sessionId, pattern: "READY" });
  return sessionId;
}

describe("web viewer access", () => {
  test("web_viewer returns one loopback URL with a token; the page and assets need that token", async () => {
    const { url } = await c.ok("web_viewer", {});
    const page = new URL(url);
    expect(page.hostname).toBe("127.0.0.1");
    expect(page.searchParams.get("token")).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await c.ok("web_viewer", {})).url).toBe(url);
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(ok.headers.get("referrer-policy")).toBe("no-referrer");
    const html = await ok.text();
    expect(html).toContain(`/xterm.js?token=${page.searchParams.get("token")}`);
    const xterm = await fetch(`${page.origin}/xterm.js?token=${page.searchParams.get("token")}`);
    expect(xterm.status).toBe(200);
    expect(await xterm.text()).toContain("Terminal");
    for (const bad of [
      `${page.origin}/`,
      `${page.origin}/?token=wrong`,
      `${page.origin}/xterm.js`,
      `${page.origin}/?token=${page.searchParams.get("token")}x`,
    ]) {
      expect((await fetch(bad)).status).toBe(403);
    }
  });

  test("a foreign Host header (DNS rebinding) is refused even with the token", async () => {
    const { url } = await c.ok("web_viewer", {});
    const response = await fetch(url, { headers: { Host: "evil.example" } });
    expect(response.status).toBe(403);
  });

  test("the WebSocket needs the token and this server's Origin", async () => {
    const { url } = await c.ok("web_viewer", {});
    await expect(openTab(url, { token: "wrong" })).rejects.toThrow("refused");
    await expect(openTab(url, { origin: "http://evil.example" })).rejects.toThrow("refused");
    await expect(openTab(url, { origin: "null" })).rejects.toThrow("refused");
    const tab = await openTab(url);
    await tab.next((m) => m.type === "sessions", "the session list");
    await tab.close();
  });

  test("web_viewer with an unknown session is an error", async () => {
    const result = await c.call("web_viewer", { sessionId: "nope" });
    expect(result.isError).toBe(true);
    expect(result.data.error.code).toBe("SESSION_NOT_FOUND");
  });
});

describe("web viewer sessions", () => {
  test('start_session visible: "web" without a display returns the URL; the tab gets a repaint, live output and resizes', async () => {
    const reply = await c.call("start_session", { command: BUN, args: [fixture("echo-keys.ts")], visible: "web" });
    const started = reply.data;
    const sessionId = started.sessionId;
    // The model reads the text: the URL it is told to pass on must be there, not only in structuredContent.
    expect(reply.text.split("\n")[0]).toContain(started.info.viewer.url);
    expect(started.info.viewer).toMatchObject({ requested: true, open: false });
    expect(started.info.viewer.reason).toContain("no display");
    expect(started.info.viewer.url).toContain(`#${sessionId}`);
    await c.ok("wait_for_text", { sessionId, pattern: "READY" });
    const tab = await openTab(started.info.viewer.url);
    const list = await tab.next((m) => m.type === "sessions", "the session list");
    expect(list.sessions.find((s: any) => s.id === sessionId)).toMatchObject({
      state: "running",
      cols: 80,
      rows: 24,
      control: "agent",
    });
    tab.send({ type: "attach", id: sessionId });
    const repaint = await tab.next((m) => m.type === "repaint", "the first repaint");
    expect(repaint).toMatchObject({ id: sessionId, cols: 80, rows: 24 });
    expect(repaint.data).toContain("READY");
    await c.ok("send_text", { sessionId, text: "z", waitFor: { pattern: "KEY 7a" } });
    await tab.next((m) => m.type === "output" && m.data.includes("KEY 7a"), "live output");
    await c.ok("resize", { sessionId, cols: 100, rows: 30 });
    await tab.next((m) => m.type === "repaint" && m.cols === 100 && m.rows === 30, "a repaint at the new size");
    await c.ok("send_text", { sessionId, text: "q" });
    await tab.next((m) => m.type === "exit" && m.id === sessionId, "the exit");
    await tab.next(
      (m) => m.type === "sessions" && m.sessions.some((s: any) => s.id === sessionId && s.state === "exited"),
      "the session marked exited",
    );
    await tab.close();
  });

  test("takeover: agent input refused with HUMAN_IN_CONTROL, reads work, human keys reach the program, release brings a notice", async () => {
    const sessionId = await echoKeys();
    const { url } = await c.ok("web_viewer", { sessionId });
    const tab = await openTab(url);
    const other = await openTab(url);
    tab.send({ type: "attach", id: sessionId });
    other.send({ type: "attach", id: sessionId });
    await tab.next((m) => m.type === "repaint", "repaint");
    // input before taking control is refused
    tab.send({ type: "input", data: "x" });
    await tab.next((m) => m.type === "error" && m.message.includes("take control"), "refusal without control");
    await tab.takeControl(sessionId);
    await other.next(
      (m) => m.type === "sessions" && m.sessions.some((s: any) => s.id === sessionId && s.control === "another viewer"),
      "the other tab sees it taken",
    );
    other.send({ type: "take" });
    await other.next((m) => m.type === "error" && m.message.includes("another viewer"), "second taker refused");

    const listed = (await c.ok("list_sessions")).sessions.find((s: any) => s.sessionId === sessionId);
    expect(listed.humanInControl).toBe(true);
    const refused = await c.call("send_keys", { sessionId, keys: "a" });
    expect(refused.isError).toBe(true);
    expect(refused.data.error.code).toBe("HUMAN_IN_CONTROL");
    expect(refused.data.error.hint).toContain("Release");
    const scripted = await c.call("run_script", { sessionId, steps: [{ type: "send_text", text: "a" }] });
    expect(scripted.text).toContain("HUMAN_IN_CONTROL");
    // Only the human may resize while holding control.
    const resized = await c.call("resize", { sessionId, cols: 100, rows: 30 });
    expect(resized.data.error?.code).toBe("HUMAN_IN_CONTROL");
    const size = (await c.ok("list_sessions")).sessions.find((s: any) => s.sessionId === sessionId);
    expect([size.cols, size.rows]).toEqual([80, 24]);

    tab.send({ type: "input", data: "hi" });
    await c.ok("wait_for_text", { sessionId, pattern: "KEY 6869", timeoutMs: 10_000, errorOnTimeout: true });
    expect((await c.ok("get_text", { sessionId })).text).toContain("KEY 6869");

    tab.send({ type: "release" });
    await tab.next(
      (m) => m.type === "sessions" && m.sessions.some((s: any) => s.id === sessionId && s.control === "agent"),
      "control released",
    );
    const after = await c.call("send_text", { sessionId, text: "b", waitFor: { pattern: "KEY 62" } });
    expect(after.isError).toBe(false);
    expect(after.data.humanInput).toMatchObject({ bytes: 2, writes: 1 });
    expect(after.text).toContain("a human typed 2 bytes");
    // One line, no literal "\n" between the note and the tool's own summary.
    expect(after.text.split("\n")[0]).toMatch(/the screen may have changed\. \S/);
    expect(after.text).not.toContain("\\n");
    // reported once
    const again = await c.ok("send_text", { sessionId, text: "c", waitFor: { pattern: "KEY 63" } });
    expect(again.humanInput).toBeUndefined();
    await other.close();
    await tab.close();
  });

  test("a recording with includeInput gets the human's keys as input events", async () => {
    const sessionId = await echoKeys();
    const { path } = await c.ok("start_recording", { sessionId, includeInput: true });
    const { url } = await c.ok("web_viewer", { sessionId });
    const tab = await openTab(url);
    tab.send({ type: "attach", id: sessionId });
    await tab.takeControl(sessionId);
    tab.send({ type: "input", data: "é" });
    await c.ok("wait_for_text", { sessionId, pattern: "KEY c3a9", errorOnTimeout: true });
    await tab.close();
    await c.ok("stop_recording", { sessionId });
    const { events } = readCast(path);
    expect(events.filter(([, code]) => code === "i").map(([, , d]) => d)).toEqual(["é"]);
  });

  test("closing the tab hands control back", async () => {
    const sessionId = await echoKeys();
    const { url } = await c.ok("web_viewer", { sessionId });
    const tab = await openTab(url);
    tab.send({ type: "attach", id: sessionId });
    await tab.takeControl(sessionId);
    expect((await c.call("send_text", { sessionId, text: "x" })).data.error.code).toBe("HUMAN_IN_CONTROL");
    await tab.close();
    let result = await c.call("send_text", { sessionId, text: "y", waitFor: { pattern: "KEY 79" } });
    for (let i = 0; i < 100 && result.data.error?.code === "HUMAN_IN_CONTROL"; i++) {
      await c.ok("wait_for_idle", { sessionId, idleMs: 20, timeoutMs: 100 });
      result = await c.call("send_text", { sessionId, text: "y", waitFor: { pattern: "KEY 79" } });
    }
    expect(result.isError).toBe(false);
    expect(result.data.humanInput).toBeUndefined(); // nothing was typed
  });

  test("the human may resize only while holding control", async () => {
    const sessionId = await echoKeys();
    const { url } = await c.ok("web_viewer", { sessionId });
    const tab = await openTab(url);
    tab.send({ type: "attach", id: sessionId });
    await tab.next((m) => m.type === "repaint", "repaint");
    tab.send({ type: "resize", cols: 50, rows: 10 });
    await tab.next((m) => m.type === "error", "resize refused");
    tab.send({ type: "take" });
    tab.send({ type: "resize", cols: 50, rows: 10 });
    await tab.next((m) => m.type === "repaint" && m.cols === 50 && m.rows === 10, "repaint at 50x10");
    const info = (await c.ok("list_sessions")).sessions.find((s: any) => s.sessionId === sessionId);
    expect([info.cols, info.rows]).toEqual([50, 10]);
    await tab.close();
  });
});
