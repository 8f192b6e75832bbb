/** The web viewer's two bounds: MAX_TABS sockets per server, and MAX_BACKLOG unsent bytes per tab. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect, type TestClient } from "../e2e/client.ts";
import type { Session } from "../../src/session/session.ts";
import { MAX_BACKLOG, SessionMirror, type ServerMessage, type Sink } from "../../src/web/mirror.ts";
import { MAX_TABS } from "../../src/web/server.ts";
import { until } from "../helpers.ts";
import { openTab, type Tab } from "./ws-client.ts";

describe("MAX_TABS", () => {
  let c: TestClient;
  beforeAll(async () => {
    c = await connect({ env: { DISPLAY: "", WAYLAND_DISPLAY: "" } });
  });
  afterAll(async () => {
    await c[Symbol.asyncDispose]();
  });

  test(`tab ${MAX_TABS + 1} is refused while ${MAX_TABS} are open, and admitted once one closes`, async () => {
    const { url } = await c.ok("web_viewer", {});
    const tabs: Tab[] = [];
    for (let i = 0; i < MAX_TABS; i++) tabs.push(await openTab(url));
    await expect(openTab(url)).rejects.toThrow("refused");
    await tabs.pop()!.close();
    // the server learns of the close asynchronously: retry until admitted (bounded by the test timeout)
    let again: Tab | undefined;
    while (again === undefined) again = await openTab(url).catch(() => undefined);
    await again.next((m) => m.type === "sessions", "the session list in the new tab");
    await Promise.all([...tabs, again].map((t) => t.close()));
  });
});

/** A session with just what a mirror uses; output is pushed by the test. */
function fakeSession() {
  const outputs = new Set<(chunk: Uint8Array) => void>();
  const session = {
    id: "fake-1",
    cols: 80,
    rows: 24,
    onOutput: (listener: (chunk: Uint8Array) => void) => (outputs.add(listener), () => outputs.delete(listener)),
    onResize: () => () => {},
    onExit: () => () => {},
    modes: () => ({ mouseEncoding: "default" }),
    emulator: { flushed: async () => {}, serializeScreen: () => "SCREEN" },
  };
  const emit = (text: string) => {
    for (const listener of outputs) listener(new TextEncoder().encode(text));
  };
  return { session: session as unknown as Session, emit };
}

describe("MAX_BACKLOG", () => {
  test("a tab more than MAX_BACKLOG behind gets no more output, then one repaint once its socket drains", async () => {
    const { session, emit } = fakeSession();
    const sent: ServerMessage[] = [];
    let backlog = 0;
    const sink: Sink = { send: (m) => sent.push(m), backlog: () => backlog };
    const mirror = new SessionMirror(session, sink);
    await until(() => sent.some((m) => m.type === "repaint"), "the first repaint");

    emit("live 1");
    expect(sent.at(-1)).toEqual({ type: "output", id: "fake-1", data: "live 1" });

    backlog = MAX_BACKLOG + 1; // the browser stopped reading
    const before = sent.length;
    for (let i = 0; i < 100; i++) emit(`dropped ${i}`);
    expect(sent.length).toBe(before);

    backlog = MAX_BACKLOG / 2; // drained, but not far enough
    mirror.drained();
    emit("still dropped");
    expect(sent.length).toBe(before);

    backlog = 0;
    mirror.drained();
    await until(() => sent.length > before, "the catch-up repaint");
    expect(sent.slice(before).map((m) => m.type)).toEqual(["repaint"]);
    emit("live 2");
    expect(sent.at(-1)).toEqual({ type: "output", id: "fake-1", data: "live 2" });
    mirror.close();
  });
});
