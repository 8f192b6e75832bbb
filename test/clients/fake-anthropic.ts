/**
 * A fake Anthropic Messages API (streaming and not) for Claude Code, opencode and Copilot CLI. Each
 * main-loop request is answered with the script's next tool call; the tool_result the client sends
 * back in its following request is delivered to the script. Side requests (titles, summaries: no
 * tui-tester tool offered) get a short text.
 */
import { type FakeApi, readParts, type RecordedRequest, serveFake, sse } from "./fake-api.ts";
import { offeredName, type ToolScript } from "./script.ts";

type Turn = { kind: "tool"; id: string; name: string; input: Record<string, unknown> } | { kind: "text"; text: string };

export function startFakeAnthropic(script: ToolScript): FakeApi {
  let issued: { id: string; name: string; internal: boolean } | null = null;
  let searched: string | null = null;
  let n = 0;

  const toolResult = (messages: any[], id: string) => {
    for (const m of messages.toReversed())
      if (Array.isArray(m.content))
        for (const b of m.content) if (b.type === "tool_result" && b.tool_use_id === id) return b;
    return undefined;
  };

  async function turn(body: any): Promise<Turn> {
    const names: string[] = (body.tools ?? []).map((t: any) => t.name);
    const canSearch = names.includes("ToolSearch");
    if (!names.some((name) => /tui[-_]tester/.test(name)) && !canSearch) return { kind: "text", text: "ok" };
    if (issued) {
      const result = toolResult(body.messages ?? [], issued.id);
      if (result) {
        if (!issued.internal) {
          const { text, images } = readParts(result.content);
          script.deliver({ tool: issued.name, text, images, isError: result.is_error });
        }
        issued = null;
      }
    }
    for (;;) {
      const step = await script.next();
      if (!step) return { kind: "text", text: "DONE: all steps ran." };
      const name = offeredName(names, step.tool);
      const id = `toolu_${++n}`;
      if (name) {
        issued = { id, name, internal: false };
        return { kind: "tool", id, name, input: step.args };
      }
      // Deferred tools (newer Claude Code): load the schema with ToolSearch first, as a model would.
      if (canSearch && searched !== step.tool) {
        searched = step.tool;
        issued = { id, name: "ToolSearch", internal: true };
        return { kind: "tool", id, name: "ToolSearch", input: { query: `select:mcp__tui-tester__${step.tool}` } };
      }
      issued = null;
      script.reject(new Error(`the client offers no tool for ${step.tool}; it offers: ${names.join(", ")}`));
    }
  }

  function stream(model: string, t: Turn): Response {
    const id = `msg_${++n}`;
    const usage = { input_tokens: 100, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    const message = { id, type: "message", role: "assistant", model, content: [], stop_reason: null, usage };
    const events: [string, unknown][] = [["message_start", { type: "message_start", message }]];
    const block =
      t.kind === "tool" ? { type: "tool_use", id: t.id, name: t.name, input: {} } : { type: "text", text: "" };
    events.push(["content_block_start", { type: "content_block_start", index: 0, content_block: block }]);
    const delta =
      t.kind === "tool"
        ? { type: "input_json_delta", partial_json: JSON.stringify(t.input) }
        : { type: "text_delta", text: t.text };
    events.push(["content_block_delta", { type: "content_block_delta", index: 0, delta }]);
    events.push(["content_block_stop", { type: "content_block_stop", index: 0 }]);
    const stop = t.kind === "tool" ? "tool_use" : "end_turn";
    events.push([
      "message_delta",
      { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 20 } },
    ]);
    events.push(["message_stop", { type: "message_stop" }]);
    return sse(events);
  }

  function whole(model: string, t: Turn): Response {
    const content =
      t.kind === "tool"
        ? [{ type: "tool_use", id: t.id, name: t.name, input: t.input }]
        : [{ type: "text", text: t.text }];
    const stop = t.kind === "tool" ? "tool_use" : "end_turn";
    return Response.json({
      id: `msg_${++n}`,
      type: "message",
      role: "assistant",
      model,
      content,
      stop_reason: stop,
      stop_sequence: null,
      usage: { input_tokens: 100, output_tokens: 20 },
    });
  }

  return serveFake(script, async (req: RecordedRequest) => {
    const { path, body } = req;
    if (path.endsWith("/messages/count_tokens"))
      return Response.json({ input_tokens: Math.ceil(JSON.stringify(body).length / 4) });
    if (path.endsWith("/messages") && req.method === "POST") {
      const t = await turn(body);
      const model = body?.model ?? "claude-fake";
      return body?.stream ? stream(model, t) : whole(model, t);
    }
    if (path.endsWith("/models"))
      return Response.json({
        data: [{ id: "claude-sonnet-4-5", type: "model", display_name: "fake" }],
        has_more: false,
      });
    return null;
  });
}
