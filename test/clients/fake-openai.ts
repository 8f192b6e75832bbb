/**
 * A fake OpenAI Responses API (streaming) for Codex CLI. Each main-loop request is answered with the
 * script's next tool call; the function_call_output Codex sends back is delivered to the script.
 * Codex defers MCP tools behind its client-side tool_search: a step whose tool is not loaded yet is
 * preceded by one search for it, as a model would do.
 */
import { type FakeApi, readParts, type RecordedRequest, serveFake, sse } from "./fake-api.ts";
import { offeredName, type ToolScript } from "./script.ts";

type Turn =
  | { kind: "tool"; name: string; namespace?: string; input: Record<string, unknown> }
  | { kind: "search"; query: string }
  | { kind: "text"; text: string };

interface Offered {
  /** namespace + name, e.g. mcp__tui_tester__send_text */
  full: string;
  name: string;
  namespace?: string;
}

/** Every function tool in the request, top-level or inside namespaces, offered or loaded by a search. */
function offered(body: any): Offered[] {
  const loaded = (body.input ?? []).filter((i: any) => i.type === "tool_search_output").flatMap((i: any) => i.tools);
  const out: Offered[] = [];
  for (const t of [...(body.tools ?? []), ...loaded]) {
    if (t?.type === "namespace" && Array.isArray(t.tools))
      for (const x of t.tools)
        out.push({ full: `${t.name.replace(/_*$/, "")}__${x.name}`, name: x.name, namespace: t.name });
    else if (typeof t?.name === "string") out.push({ full: t.name, name: t.name });
  }
  return out;
}

/** Searches for one tool before the step fails: Codex lists the server's tools once it has started. */
const MAX_SEARCHES = 300;

export function startFakeOpenAI(script: ToolScript): FakeApi {
  let issued: { callId: string; name: string; internal: boolean } | null = null;
  // Searches for the step in flight. Codex may start the MCP server after its first request, so a search
  // that found nothing is repeated (each one is a client round trip), up to MAX_SEARCHES.
  let searches = 0;
  let n = 0;

  async function turn(body: any): Promise<Turn> {
    const tools = offered(body);
    const canSearch = (body.tools ?? []).some((t: any) => t.type === "tool_search");
    if (!tools.some((t) => /tui[-_]tester/.test(t.full)) && !canSearch) return { kind: "text", text: "ok" };
    const items: any[] = body.input ?? [];
    if (issued) {
      const callId = issued.callId;
      const out = items.find((i) => i.call_id === callId && /_output$/.test(i.type));
      if (out) {
        if (!issued.internal) script.deliver({ tool: issued.name, ...readParts(out.output), isError: undefined });
        issued = null;
      }
    }
    for (;;) {
      const step = await script.next();
      if (!step) return { kind: "text", text: "DONE: all steps ran." };
      const full = offeredName(
        tools.map((t) => t.full),
        step.tool,
      );
      const hit = tools.find((t) => t.full === full);
      const callId = `call_${++n}`;
      if (hit) {
        searches = 0;
        issued = { callId, name: hit.full, internal: false };
        return { kind: "tool", name: hit.name, namespace: hit.namespace, input: step.args };
      }
      if (canSearch && searches < MAX_SEARCHES) {
        searches++;
        issued = { callId, name: "tool_search", internal: true };
        return { kind: "search", query: `tui tester ${step.tool.replaceAll("_", " ")} ${step.tool}` };
      }
      issued = null;
      searches = 0;
      script.reject(
        new Error(`Codex offers no tool for ${step.tool}; it offers: ${tools.map((t) => t.full).join(", ")}`),
      );
    }
  }

  function respond(body: any, t: Turn): Response {
    const id = `resp_${++n}`;
    const callId = issued?.callId ?? `call_${n}`;
    const base = { id, object: "response", created_at: Math.floor(Date.now() / 1000), model: body.model ?? "gpt-fake" };
    const events: [string, unknown][] = [
      ["response.created", { type: "response.created", response: { ...base, status: "in_progress", output: [] } }],
    ];
    let item: Record<string, unknown>;
    if (t.kind === "search") {
      item = {
        type: "tool_search_call",
        id: `tsc_${n}`,
        call_id: callId,
        status: "completed",
        execution: "client",
        arguments: { query: t.query, limit: 5 },
      };
    } else if (t.kind === "tool") {
      const args = JSON.stringify(t.input);
      item = {
        type: "function_call",
        id: `fc_${n}`,
        call_id: callId,
        name: t.name,
        arguments: args,
        status: "completed",
      };
      if (t.namespace) item.namespace = t.namespace;
    } else {
      const content = [{ type: "output_text", text: t.text, annotations: [] }];
      item = { type: "message", id: `msg_${n}`, role: "assistant", status: "completed", content };
    }
    events.push(["response.output_item.added", { type: "response.output_item.added", output_index: 0, item }]);
    events.push(["response.output_item.done", { type: "response.output_item.done", output_index: 0, item }]);
    const usage = {
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 120,
    };
    events.push([
      "response.completed",
      { type: "response.completed", response: { ...base, status: "completed", output: [item], usage } },
    ]);
    return sse(events);
  }

  return serveFake(script, async (req: RecordedRequest) => {
    if (req.path.endsWith("/responses") && req.method === "POST") return respond(req.body, await turn(req.body));
    if (req.path.endsWith("/models"))
      return Response.json({ object: "list", data: [{ id: "gpt-5", object: "model", owned_by: "fake" }], models: [] });
    return null;
  });
}
