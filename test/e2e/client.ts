/**
 * MCP clients for tests, both speaking the real protocol through the SDK's Client:
 * - `connect()`: the server in this process over the SDK's in-memory transport (createServer over a
 *   fresh ServerContext, as main.ts builds it): the tool tier, no process to spawn per file;
 * - `connectStdio()`: the real server process over stdio, as an MCP host runs it: the transport
 *   tier (shutdown, progress, protocol-level guards, the binaries).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { join } from "node:path";
import { tools } from "../../src/catalog.ts";
import { parseConfig } from "../../src/config.ts";
import { createServer } from "../../src/server.ts";
import { createServerContext } from "../../src/tools/context.ts";
import type { ToolDef } from "../../src/tools/define.ts";
import { runTests } from "../../src/cli/run-tests.ts";

export const SERVER_ENTRY = join(import.meta.dir, "..", "..", "src", "main.ts");

/** start_session arguments of a plain 80x24 bash with the prompt "$ " (no rc files), as most tests use it. */
export const PLAIN_BASH = {
  command: "bash",
  args: ["--norc", "--noprofile"],
  env: { PS1: "$ " },
  cols: 80,
  rows: 24,
};

export interface CallResult {
  isError: boolean;
  text: string;
  data: Record<string, any>;
}

export interface TestClient extends AsyncDisposable {
  client: Client;
  call(
    name: string,
    args?: Record<string, unknown>,
    options?: { signal?: AbortSignal; onprogress?: (p: unknown) => void; timeout?: number },
  ): Promise<CallResult>;
  /** Call and assert success; returns structuredContent. */
  ok(name: string, args?: Record<string, unknown>): Promise<Record<string, any>>;
}

export interface StdioTestClient extends TestClient {
  transport: StdioClientTransport;
}

function testClient<T extends Transport>(
  client: Client,
  transport: T,
  close: () => Promise<void>,
): TestClient & { transport: T } {
  const call: TestClient["call"] = async (name, args = {}, opts = {}) => {
    const result = await client.callTool({ name, arguments: args }, undefined, {
      signal: opts.signal,
      onprogress: opts.onprogress as never,
      timeout: opts.timeout ?? 60_000,
    });
    const content = result.content as { type: string; text: string }[];
    return {
      isError: result.isError === true,
      text: content[0]?.text ?? "",
      data: (result.structuredContent ?? {}) as Record<string, any>,
    };
  };
  return {
    client,
    transport,
    call,
    async ok(name, args) {
      const result = await call(name, args);
      if (result.isError) throw new Error(`${name} failed: ${result.text}`);
      return result.data;
    },
    [Symbol.asyncDispose]: close,
  };
}

/**
 * The in-memory transport hands a message over at once, in the sender's microtask; a pipe delivers it
 * in a later turn of the event loop. Without that hop, a test polling in a loop never lets the server's
 * timers and PTY reads run. setImmediate keeps the order of messages.
 */
function likeAPipe(transport: InMemoryTransport): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) =>
    new Promise((done, fail) => setImmediate(() => send(message, options).then(done, fail)));
}

/**
 * A server in this process with its own context. `env` and `cwd` are what the server process would
 * have been given: TUI_TESTER_* settings become its Config, the rest (DISPLAY...) is what its viewer
 * windows and browser see; sessions start in `cwd` and relative paths resolve against it. Sessions
 * inherit this process's environment. Disposing the client stops every session.
 */
export async function connect(
  options: { env?: Record<string, string>; cwd?: string; tools?: ToolDef[] } = {},
): Promise<TestClient> {
  // Tests read the typed results (structuredContent): structured unless a test asks for the text mode.
  const env = { ...process.env, TUI_TESTER_LOG: "silent", TUI_TESTER_OUTPUT: "structured", ...options.env };
  const context = createServerContext(parseConfig(env), { env, cwd: options.cwd, runTests });
  void context.output.path; // as main.ts does at start-up: the output directory exists before the first call
  const server = createServer(options.tools ?? tools, context);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  for (const side of [clientSide, serverSide]) likeAPipe(side);
  await server.connect(serverSide);
  const client = new Client({ name: "tui-tester-tests", version: "0.0.0" });
  await client.connect(clientSide);
  return testClient(client, clientSide, async () => {
    await client.close();
    await context.close();
    await server.close();
  });
}

/** The real server process (or `command`, e.g. a compiled binary) over stdio. */
export async function connectStdio(
  options: { command?: string; args?: string[]; env?: Record<string, string>; cwd?: string } = {},
): Promise<StdioTestClient> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const transport = new StdioClientTransport({
    command: options.command ?? process.execPath,
    args: options.args ?? [SERVER_ENTRY],
    env: { ...env, TUI_TESTER_LOG: "silent", TUI_TESTER_OUTPUT: "structured", ...options.env },
    cwd: options.cwd,
    stderr: "pipe",
  });
  const client = new Client({ name: "tui-tester-tests", version: "0.0.0" });
  await client.connect(transport);
  return testClient(client, transport, () => client.close());
}
