/** The one file that imports the MCP SDK server: tools/list and tools/call -> dispatch. */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { ServerContext } from "./tools/context.ts";
import type { ToolDef } from "./tools/define.ts";
import { dispatch } from "./tools/dispatch.ts";
import { inputJsonSchema, listedAnnotations, listedOutputSchemas } from "./tools/json-schema.ts";
import { LineLimitedStdioTransport } from "./stdio-transport.ts";

/** A call running longer than this gets progress notifications (when the client sent a progressToken). */
const PROGRESS_INTERVAL_MS = 1000;
/** Quiet time after the last tool call before the garbage of a burst of calls is collected. */
const IDLE_COLLECT_MS = 500;

/**
 * tools/list: each tool's name, title, description, schemas and hints. An outputSchema (output shapes
 * described once) only in structured mode: a client such as opencode refuses a result without the
 * structuredContent its tool declared. Shared input fields point at the `catalog` tool that describes
 * them, whichever tools are offered.
 */
export function listTools(tools: ToolDef[], output: ServerContext["config"]["output"], catalog: ToolDef[] = tools) {
  const outputs = output === "structured" ? listedOutputSchemas(tools) : undefined;
  return tools.map((tool) => ({
    name: tool.name,
    title: tool.annotations.title,
    description: tool.description,
    inputSchema: inputJsonSchema(tool, catalog),
    ...(outputs ? { outputSchema: outputs.get(tool.name)! } : {}),
    annotations: listedAnnotations(tool),
  }));
}

/**
 * The tools this server offers: TUI_TESTER_TOOLS (all, core or names) less TUI_TESTER_TOOLS_DENY, in
 * catalog order. Names were checked at start-up (config.ts settingProblems); run_script keeps every
 * step type whatever is offered, since its steps are not calls of the listed tools.
 */
export function offeredTools(all: ToolDef[], config: Pick<ServerContext["config"], "tools" | "toolsDeny">): ToolDef[] {
  const allow = config.tools;
  return all.filter((tool) => (allow === "all" || allow.includes(tool.name)) && !config.toolsDeny.includes(tool.name));
}

export function createServer(catalog: ToolDef[], context: ServerContext): Server {
  const tools = offeredTools(catalog, context.config);
  let ajv: AjvJsonSchemaValidator | undefined;
  /**
   * Every reply leaves garbage (screens, diffs, JSON), and JavaScriptCore grows the heap rather than
   * collect it while the server is busy: after 32 sessions each answered two echoes, RSS stood ~20 MiB
   * above what the sessions hold. One full collection once calls have stopped for half a second returns it;
   * it costs a few ms once per burst, nothing while idle, and never runs between calls of a burst.
   */
  let idleCollect: ReturnType<typeof setTimeout> | undefined;
  const collectWhenIdle = () => {
    clearTimeout(idleCollect);
    idleCollect = setTimeout(() => Bun.gc(true), IDLE_COLLECT_MS);
    idleCollect.unref();
  };
  const server = new Server(
    { name: "tui-tester", version: context.config.version },
    {
      capabilities: { tools: {} },
      instructions:
        "Drive terminal apps: start_session (visible: true lets the human watch), then " +
        "send_keys/send_text with waitFor, read with snapshot/get_text, and use " +
        "run_script for multi-step flows with no round trips. stop_session when done.",
      // The SDK builds an Ajv instance up front, only for elicitation, which this server never
      // sends; built on first use instead, it stays off the start-up path that initialize waits on.
      jsonSchemaValidator: { getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema) },
    },
  );
  // Converted on the first tools/list rather than before initialize can be answered.
  let listed: object[] | undefined;
  const byName = new Map(tools.map((tool) => [tool.name, tool]));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (listed ??= listTools(tools, context.config.output, catalog)),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      const off = catalog.some((t) => t.name === request.params.name)
        ? " It is turned off here (TUI_TESTER_TOOLS, TUI_TESTER_TOOLS_DENY)."
        : "";
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool "${request.params.name}".${off} Tools: ${[...byName.keys()].join(", ")}.`,
      );
    }
    const progressToken = request.params._meta?.progressToken;
    let ticker: ReturnType<typeof setInterval> | undefined;
    let report: ((message: string) => void) | undefined;
    if (progressToken !== undefined) {
      const started = performance.now();
      let progress = 0;
      // progress must increase with every notification: the ticker and the tool's own reports share one count
      report = (message) => {
        progress++;
        void extra
          .sendNotification({ method: "notifications/progress", params: { progressToken, progress, message } })
          .catch(() => undefined);
      };
      ticker = setInterval(
        () => report!(`${tool.name} running for ${Math.round(performance.now() - started)} ms`),
        PROGRESS_INTERVAL_MS,
      );
    }
    try {
      return await dispatch(tool, request.params.arguments, {
        ...context,
        signal: extra.signal,
        ...(report ? { progress: report } : {}),
      });
    } finally {
      clearInterval(ticker);
      collectWhenIdle();
    }
  });
  return server;
}

/**
 * Serve on stdin/stdout. Nothing else in the program writes to stdout. Not the SDK's
 * StdioServerTransport: an oversized request line must be refused rather than end the server,
 * and writes share one drain listener (src/stdio-transport.ts).
 */
export function serveStdio(server: Server): Promise<void> {
  return server.connect(new LineLimitedStdioTransport());
}
