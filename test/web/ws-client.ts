/** A minimal viewer-tab stand-in for tests: a WebSocket to the web viewer with message waits. */
import { until } from "../helpers.ts";

export interface Tab {
  ws: WebSocket;
  messages: any[];
  send(message: unknown): void;
  /** Resolves with the first message (seen so far or later) matching `predicate`. */
  next(predicate: (m: any) => boolean, what: string): Promise<any>;
  /** Take control of a session this tab has attached, and wait until the server grants it. */
  takeControl(sessionId: string): Promise<void>;
  close(): Promise<void>;
}

export function wsUrl(pageUrl: string, token?: string): string {
  const url = new URL(pageUrl);
  return `ws://${url.host}/ws?token=${token ?? url.searchParams.get("token")}`;
}

export async function openTab(pageUrl: string, options: { origin?: string; token?: string } = {}): Promise<Tab> {
  const origin = options.origin ?? new URL(pageUrl).origin;
  const ws = new WebSocket(wsUrl(pageUrl, options.token), { headers: { Origin: origin } } as never);
  const messages: any[] = [];
  ws.onmessage = (event) => messages.push(JSON.parse(String(event.data)));
  await new Promise<void>((resolve, reject) => {
    ws.onopen = () => resolve();
    ws.onerror = () => reject(new Error("WebSocket refused"));
    ws.onclose = () => reject(new Error("WebSocket refused"));
  });
  const next = async (predicate: (m: any) => boolean, what: string) => {
    let found: any;
    await until(() => (found = messages.find(predicate)) !== undefined, what);
    return found;
  };
  return {
    ws,
    messages,
    send: (message) => ws.send(JSON.stringify(message)),
    next,
    async takeControl(sessionId) {
      ws.send(JSON.stringify({ type: "take" }));
      await next(
        (m) => m.type === "sessions" && m.sessions.some((s: any) => s.id === sessionId && s.control === "you"),
        "control granted",
      );
    },
    async close() {
      if (ws.readyState === WebSocket.CLOSED) return;
      const closed = new Promise((resolve) => ws.addEventListener("close", resolve));
      ws.close();
      await closed;
    },
  };
}
