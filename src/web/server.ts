/**
 * The web viewer: one Bun.serve on 127.0.0.1 (a random port unless TUI_TESTER_WEB_PORT), serving
 * the viewer page, its bundled xterm.js, and a WebSocket per tab. Security model:
 * - bound to the loopback interface only;
 * - every request (page, assets, WebSocket) needs the server's random 192-bit token;
 * - the Host header must name the loopback address and port (defeats DNS rebinding);
 * - the WebSocket upgrade needs an Origin of this server (another site's page cannot connect,
 *   even with the token), and the page forbids framing and sends no Referer.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { basename } from "node:path";
import type { Server, ServerWebSocket } from "bun";
import { TuiError } from "../errors.ts";
import { sessionRecordings } from "../record/recorder.ts";
import type { SessionRegistry } from "../session/registry.ts";
import type { Session } from "../session/session.ts";
import { MAX_COLS, MAX_ROWS } from "../term/size.ts";
import { log } from "../util/log.ts";
import { PAGE_ASSETS, pageHtml } from "./assets.ts";
import { MAX_BACKLOG, type ServerMessage, SessionMirror } from "./mirror.ts";
import type { TakeoverRegistry } from "./takeover.ts";

/** How often open tabs get the session list (new sessions, states, sizes, who has control). */
const LIST_INTERVAL_MS = 500;
/** The largest message a tab may send (a big paste). */
const MAX_MESSAGE_BYTES = 1024 * 1024;
/** Recordings larger than this are not served for playback (the page would hold them whole). */
const MAX_PLAYBACK_BYTES = 64 * 1024 * 1024;
/** Open tabs at once; more are refused. */
export const MAX_TABS = 32;

interface Tab {
  mirror: SessionMirror | undefined;
  lastList: string;
}

type Socket = ServerWebSocket<Tab>;

type ClientMessage =
  | { type: "attach"; id: string }
  | { type: "take" }
  | { type: "release" }
  | { type: "input"; data: string; binary?: boolean }
  | { type: "resize"; cols: number; rows: number };

export class WebViewer {
  private readonly token = randomBytes(24).toString("base64url");
  private server: Server<Tab> | undefined;
  private readonly tabs = new Set<Socket>();
  private listTimer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly sessions: SessionRegistry,
    private readonly takeovers: TakeoverRegistry,
    /** 0: a free port (TUI_TESTER_WEB_PORT). */
    private readonly port = 0,
  ) {}

  /** Start on first use; returns the page URL, optionally opening one session. */
  url(sessionId?: string): string {
    const server = this.start();
    return (
      `http://127.0.0.1:${server.port}/?token=${this.token}` + `${sessionId ? `#${encodeURIComponent(sessionId)}` : ""}`
    );
  }

  get origin(): string | undefined {
    return this.server ? `http://127.0.0.1:${this.server.port}` : undefined;
  }

  stop(): void {
    clearInterval(this.listTimer);
    this.listTimer = undefined;
    for (const ws of this.tabs) ws.close(1001, "server shutting down");
    this.server?.stop(true);
    this.server = undefined;
  }

  private start(): Server<Tab> {
    if (this.server) return this.server;
    try {
      this.server = Bun.serve<Tab>({
        hostname: "127.0.0.1",
        port: this.port,
        fetch: (request, server) => this.fetch(request, server),
        websocket: {
          maxPayloadLength: MAX_MESSAGE_BYTES,
          backpressureLimit: MAX_BACKLOG * 2,
          open: (ws) => this.opened(ws),
          message: (ws, message) => this.message(ws, message),
          drain: (ws) => ws.data.mirror?.drained(),
          close: (ws) => this.closed(ws),
        },
      });
    } catch (error) {
      throw new TuiError(
        "INVALID_ARGUMENT",
        `The web viewer could not listen on 127.0.0.1:${this.port}: ` +
          `${error instanceof Error ? error.message : String(error)}`,
        "Set TUI_TESTER_WEB_PORT to a free port, or leave it unset for a random one.",
      );
    }
    log(`web viewer on http://127.0.0.1:${this.server.port}/`);
    return this.server;
  }

  private allowedHosts(): string[] {
    const port = this.server?.port;
    return [`127.0.0.1:${port}`, `localhost:${port}`];
  }

  private tokenOk(url: URL): boolean {
    const given = Buffer.from(url.searchParams.get("token") ?? "");
    const wanted = Buffer.from(this.token);
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  }

  private fetch(request: Request, server: Server<Tab>): Response | undefined {
    const url = new URL(request.url);
    if (!this.allowedHosts().includes(request.headers.get("host") ?? "")) return forbidden("Host not allowed");
    if (!this.tokenOk(url)) return forbidden("missing or wrong token; open the URL the web_viewer tool returned");
    if (url.pathname === "/ws") {
      const origin = request.headers.get("origin") ?? "";
      if (!this.allowedHosts().some((host) => origin === `http://${host}`))
        return forbidden("cross-origin WebSocket refused");
      if (this.tabs.size >= MAX_TABS)
        return new Response(`Too many viewer tabs (${MAX_TABS}); close one.`, { status: 503 });
      return server.upgrade(request, { data: { mirror: undefined, lastList: "" } })
        ? undefined
        : new Response("WebSocket upgrade failed", { status: 400 });
    }
    if (request.method !== "GET") return new Response("Method not allowed", { status: 405 });
    // asciinema-player compiles its terminal from WebAssembly it carries as a data: URL (wasm-unsafe-eval,
    // connect-src data:).
    const connect = [...this.allowedHosts().map((h) => `ws://${h}`), "'self'", "data:"].join(" ");
    const csp =
      `default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' ` +
      `'unsafe-inline'; font-src 'self' data:; img-src 'self' data:; connect-src ` +
      `${connect}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
    const headers = {
      "Content-Security-Policy": csp,
      "X-Frame-Options": "DENY",
      "Referrer-Policy": "no-referrer",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    };
    if (url.pathname === "/")
      return new Response(pageHtml(this.token), {
        headers: { ...headers, "Content-Type": "text/html; charset=utf-8" },
      });
    if (url.pathname === "/recording") return this.recording(url, headers);
    const asset = PAGE_ASSETS[url.pathname];
    if (asset) return new Response(Bun.file(asset.file), { headers: { ...headers, "Content-Type": asset.type } });
    return new Response("Not found", { status: 404, headers });
  }

  /** One recording of one of this server's sessions (by session id and index, never by path). */
  private recording(url: URL, headers: Record<string, string>): Response {
    const session = this.find(url.searchParams.get("session") ?? "");
    const stats = session ? sessionRecordings(session)[Number(url.searchParams.get("n"))] : undefined;
    if (!stats) return new Response("No such recording", { status: 404, headers });
    const file = Bun.file(stats.path);
    if (file.size > MAX_PLAYBACK_BYTES)
      return new Response(`The recording is over ${MAX_PLAYBACK_BYTES >> 20} MiB; play ${stats.path} with asciinema`, {
        status: 413,
        headers,
      });
    return new Response(file, { headers: { ...headers, "Content-Type": "application/x-asciicast" } });
  }

  private opened(ws: Socket): void {
    this.tabs.add(ws);
    this.sendList(ws);
    this.listTimer ??= setInterval(() => {
      for (const tab of this.tabs) this.sendList(tab);
    }, LIST_INTERVAL_MS);
  }

  private closed(ws: Socket): void {
    this.tabs.delete(ws);
    ws.data.mirror?.close();
    // Closing the tab hands control back.
    this.takeovers.releaseAll(ws);
    if (this.tabs.size === 0) {
      clearInterval(this.listTimer);
      this.listTimer = undefined;
    }
  }

  private message(ws: Socket, raw: string | Buffer): void {
    let message: ClientMessage;
    try {
      message = JSON.parse(String(raw)) as ClientMessage;
    } catch {
      return send(ws, { type: "error", message: "messages are JSON" });
    }
    const session = ws.data.mirror?.session;
    switch (message.type) {
      case "attach": {
        const target = this.find(String(message.id));
        if (!target) return send(ws, { type: "error", message: `no session ${String(message.id).slice(0, 100)}` });
        if (session && session !== target) this.takeovers.release(session, ws);
        ws.data.mirror?.close();
        ws.data.mirror = new SessionMirror(target, { send: (m) => send(ws, m), backlog: () => ws.getBufferedAmount() });
        return this.sendList(ws);
      }
      case "take":
        if (session && !this.takeovers.take(session, ws))
          send(ws, {
            type: "error",
            message: session.running ? "another viewer has control" : "the session has exited",
          });
        return this.sendList(ws);
      case "release":
        if (session) this.takeovers.release(session, ws);
        return this.sendList(ws);
      case "input": {
        if (!session || typeof message.data !== "string") return;
        // xterm.js hands mouse reports in the X10 encoding as a "binary" string: one char per byte.
        const bytes = message.binary ? Buffer.from(message.data, "latin1") : Buffer.from(message.data, "utf8");
        if (!this.takeovers.input(session, ws, bytes)) send(ws, { type: "error", message: "take control first" });
        return;
      }
      case "resize": {
        const { cols, rows } = message;
        if (!session || this.takeovers.holder(session) !== ws || !session.running)
          return send(ws, { type: "error", message: "take control first" });
        if (
          Number.isInteger(cols) &&
          Number.isInteger(rows) &&
          cols >= 2 &&
          cols <= MAX_COLS &&
          rows >= 2 &&
          rows <= MAX_ROWS
        )
          session.resize(cols, rows, "human");
        return;
      }
      default:
        return send(ws, { type: "error", message: "unknown message type" });
    }
  }

  private find(id: string): Session | undefined {
    return this.sessions.list().find((s) => s.id === id);
  }

  private sendList(ws: Socket): void {
    const sessions = this.sessions.list().map((s) => {
      const holder = this.takeovers.holder(s);
      return {
        id: s.id,
        name: s.name ?? null,
        command: [s.config.command, ...s.config.args].join(" ").slice(0, 200),
        state: s.state,
        cols: s.cols,
        rows: s.rows,
        exitCode: s.exit?.exitCode ?? null,
        signal: s.exit?.signal ?? null,
        control: holder === undefined ? "agent" : holder === ws ? "you" : "another viewer",
        recordings: sessionRecordings(s).map((r, n) => ({ n, name: basename(r.path), closed: r.closed })),
      };
    });
    const list = JSON.stringify({ type: "sessions", attached: ws.data.mirror?.session.id ?? null, sessions });
    if (list === ws.data.lastList) return;
    ws.data.lastList = list;
    ws.send(list);
  }
}

function send(ws: Socket, message: ServerMessage | { type: "error"; message: string }): void {
  ws.send(JSON.stringify(message));
}

function forbidden(why: string): Response {
  return new Response(`Forbidden: ${why}.`, { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
