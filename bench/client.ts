/** The bench's MCP client: the real server process over stdio, started as an MCP host would start it. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { join } from "node:path";
import { processEnv } from "./helpers.ts";

export const SERVER_ENTRY = join(import.meta.dir, "..", "src", "main.ts");

export interface CallResult {
  isError: boolean;
  text: string;
  data: Record<string, any>;
}

export interface BenchClient {
  client: Client;
  transport: StdioClientTransport;
  /** The server's pid (the process StdioClientTransport spawned). */
  pid: number;
  call(name: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<CallResult>;
  /** Call and throw unless the tool succeeded; returns structuredContent. */
  ok(name: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<Record<string, any>>;
  close(): Promise<void>;
}

export async function connect(env: Record<string, string> = {}, flags: string[] = []): Promise<BenchClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...flags, SERVER_ENTRY],
    // The benches read the typed results: structured unless a bench measures the text mode.
    env: processEnv({ TUI_TESTER_LOG: "silent", TUI_TESTER_OUTPUT: "structured", ...env }),
    stderr: "pipe",
  });
  const client = new Client({ name: "tui-tester-bench", version: "0.0.0" });
  await client.connect(transport);
  const pid = transport.pid;
  if (pid === null) throw new Error("StdioClientTransport reports no server pid");
  const call: BenchClient["call"] = async (name, args = {}, timeoutMs = 120_000) => {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs });
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
    pid,
    call,
    async ok(name, args, timeoutMs) {
      const result = await call(name, args, timeoutMs);
      if (result.isError) throw new Error(`${name} failed: ${result.text}`);
      return result.data;
    },
    async close() {
      await client.close();
    },
  };
}
