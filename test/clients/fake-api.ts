/**
 * What the fake model APIs share: an HTTP server on 127.0.0.1 (a free port) that records every
 * request body it gets and hands model turns to a dialect (Anthropic Messages, OpenAI Responses).
 */
import type { Server } from "bun";
import type { ToolScript } from "./script.ts";

export interface RecordedRequest {
  method: string;
  path: string;
  body: any;
}

/** At most this many requests are kept; a client that loops past it is failed, not followed forever. */
export const MAX_RECORDED = 2000;

export interface FakeApi {
  /** Base URL without a path, e.g. http://127.0.0.1:41234. */
  url: string;
  requests: RecordedRequest[];
  stop(): Promise<void>;
}

/** A dialect answers one request; `null` means "not mine" (the server answers 404). */
export type Handler = (req: RecordedRequest) => Promise<Response | null>;

export function serveFake(script: ToolScript, handle: Handler): FakeApi {
  const requests: RecordedRequest[] = [];
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const raw = req.method === "POST" ? await req.text() : "";
      let body: any = raw;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {}
      const entry = { method: req.method, path: url.pathname, body };
      if (requests.length >= MAX_RECORDED) {
        script.fail(new Error(`the client sent more than ${MAX_RECORDED} requests`));
        return Response.json({ error: { message: "fake: request limit" } }, { status: 429 });
      }
      requests.push(entry);
      try {
        return (
          (await handle(entry)) ??
          Response.json({ error: { type: "not_found_error", message: "fake: no such endpoint" } }, { status: 404 })
        );
      } catch (error) {
        script.fail(error instanceof Error ? error : new Error(String(error)));
        return Response.json({ error: { type: "api_error", message: String(error) } }, { status: 500 });
      }
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    async stop() {
      await server.stop(true);
    },
  };
}

/** Server-sent events in the `event:` / `data:` form both APIs stream. */
export function sse(events: [string, unknown][]): Response {
  const body = events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join("");
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

/** The text parts and image count of a tool result's content, whatever block names the API uses. */
export function readParts(content: unknown): { text: string; images: number } {
  if (typeof content === "string") return { text: content, images: 0 };
  if (!Array.isArray(content)) return { text: "", images: 0 };
  const texts: string[] = [];
  let images = 0;
  for (const part of content) {
    if (typeof part?.text === "string") texts.push(part.text);
    else if (/image/.test(String(part?.type))) images++;
  }
  return { text: texts.join("\n"), images };
}
