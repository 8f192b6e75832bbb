/** An MCP client over stdio against the real server process, as an MCP host would run it. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { join } from "node:path";

export const SERVER_ENTRY = join(import.meta.dir, "..", "..", "src", "main.ts");

export interface CallResult {
  isError: boolean;
  text: string;
  data: Record<string, any>;
}

export interface TestClient extends AsyncDisposable {
  client: Client;
  transport: StdioClientTransport;
  call(name: string, args?: Record<string, unknown>, options?: { signal?: AbortSignal; onprogress?: (p: unknown) => void; timeout?: number }): Promise<CallResult>;
  /** Call and assert success; returns structuredContent. */
  ok(name: string, args?: Record<string, unknown>): Promise<Record<string, any>>;
}

export async function connect(options: { command?: string; args?: string[]; env?: Record<string, string>; cwd?: string } = {}): Promise<TestClient> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const transport = new StdioClientTransport({
    command: options.command ?? process.execPath,
    args: options.args ?? [SERVER_ENTRY],
    env: { ...env, TUI_TESTER_LOG: "silent", ...options.env },
    cwd: options.cwd,
    stderr: "pipe",
  });
  const client = new Client({ name: "tui-tester-tests", version: "0.0.0" });
  await client.connect(transport);
  const call: TestClient["call"] = async (name, args = {}, opts = {}) => {
    const result = await client.callTool({ name, arguments: args }, undefined, { signal: opts.signal, onprogress: opts.onprogress as never, timeout: opts.timeout ?? 60_000 });
    const content = result.content as { type: string; text: string }[];
    return { isError: result.isError === true, text: content[0]?.text ?? "", data: (result.structuredContent ?? {}) as Record<string, any> };
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
    async [Symbol.asyncDispose]() {
      await client.close();
    },
  };
}
