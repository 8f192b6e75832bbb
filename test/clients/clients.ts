/**
 * Real MCP clients (Claude Code, Codex CLI, opencode, Copilot CLI) run headless against a fake model
 * API on 127.0.0.1, each with tui-tester (`bun src/main.ts`) as its only MCP server. The client gets a
 * throwaway HOME, a minimal environment and a dead proxy (127.0.0.1:9) for everything but 127.0.0.1,
 * so nothing leaves the machine. Clients come from npm into TUI_TESTER_CLIENTS_DIR (see INSTALL).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeAnthropic } from "./fake-anthropic.ts";
import type { FakeApi } from "./fake-api.ts";
import { startFakeOpenAI } from "./fake-openai.ts";
import { type Delivered, ToolScript } from "./script.ts";

export const CLIENTS_DIR = process.env.TUI_TESTER_CLIENTS_DIR || join(process.env.TMPDIR || "/tmp", "clients");
export const INSTALL = `npm install --prefix ${CLIENTS_DIR} @anthropic-ai/claude-code @openai/codex opencode-ai @github/copilot`;
const SERVER_ENTRY = join(import.meta.dir, "..", "..", "src", "main.ts");

export type ClientName = "claude" | "codex" | "opencode" | "copilot";

interface Setup {
  args: string[];
  env: Record<string, string>;
}

interface ClientSpec {
  label: string;
  api: "anthropic" | "openai";
  /** Write the client's config under `home` (cwd is home/work) and say how to run it. */
  setup(home: string, api: string, server: McpServer): Setup;
}

interface McpServer {
  command: string;
  args: string[];
  env: Record<string, string>;
}

const PROMPT = "Drive the terminal as scripted.";

export const CLIENTS: Record<ClientName, ClientSpec> = {
  claude: {
    label: "Claude Code",
    api: "anthropic",
    setup(home, api, server) {
      const config = join(home, "mcp.json");
      writeFileSync(config, JSON.stringify({ mcpServers: { "tui-tester": server } }));
      return {
        args: ["-p", PROMPT, "--mcp-config", config, "--strict-mcp-config", "--dangerously-skip-permissions"].concat([
          "--model",
          "claude-sonnet-4-5",
          "--output-format",
          "json",
        ]),
        env: {
          ANTHROPIC_BASE_URL: api,
          ANTHROPIC_API_KEY: "sk-ant-fake",
          IS_SANDBOX: "1",
          // Connect the MCP servers before the first model request (print mode may not wait otherwise).
          MCP_CONNECTION_NONBLOCKING: "0",
          MCP_TIMEOUT: "60000",
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          DISABLE_TELEMETRY: "1",
          DISABLE_AUTOUPDATER: "1",
          DISABLE_ERROR_REPORTING: "1",
        },
      };
    },
  },
  codex: {
    label: "Codex CLI",
    api: "openai",
    setup(home, api, server) {
      const codexHome = join(home, ".codex");
      mkdirSync(codexHome, { recursive: true });
      const env = Object.entries(server.env).map(([k, v]) => `${k} = ${JSON.stringify(v)}`);
      const toml = [
        'model = "gpt-5.5"',
        'model_provider = "fake"',
        'approval_policy = "never"',
        'sandbox_mode = "danger-full-access"',
        "[model_providers.fake]",
        'name = "Fake"',
        `base_url = ${JSON.stringify(`${api}/v1`)}`,
        'wire_api = "responses"',
        'env_key = "FAKE_OPENAI_KEY"',
        "request_max_retries = 0",
        "stream_max_retries = 0",
        "[mcp_servers.tui-tester]",
        `command = ${JSON.stringify(server.command)}`,
        `args = ${JSON.stringify(server.args)}`,
        `env = { ${env.join(", ")} }`,
        "startup_timeout_sec = 60",
        "tool_timeout_sec = 120",
      ];
      writeFileSync(join(codexHome, "config.toml"), `${toml.join("\n")}\n`);
      return {
        args: ["exec", "--skip-git-repo-check", "--json", PROMPT],
        env: { CODEX_HOME: codexHome, FAKE_OPENAI_KEY: "sk-fake", RUST_LOG: "warn" },
      };
    },
  },
  opencode: {
    label: "opencode",
    api: "anthropic",
    setup(home, api, server) {
      const config = {
        autoupdate: false,
        share: "disabled",
        permission: { edit: "allow", bash: "allow", webfetch: "deny" },
        provider: { anthropic: { options: { baseURL: `${api}/v1`, apiKey: "sk-ant-fake" } } },
        mcp: {
          "tui-tester": { type: "local", command: [server.command, ...server.args], environment: server.env },
        },
      };
      writeFileSync(join(home, "work", "opencode.json"), JSON.stringify(config));
      return {
        args: ["run", "--auto", "--format", "json", "-m", "anthropic/claude-sonnet-4-5", PROMPT],
        env: {
          XDG_CONFIG_HOME: join(home, ".config"),
          XDG_DATA_HOME: join(home, ".local", "share"),
          XDG_CACHE_HOME: join(home, ".cache"),
          XDG_STATE_HOME: join(home, ".local", "state"),
          OPENCODE_DISABLE_AUTOUPDATE: "1",
          OPENCODE_DISABLE_MODELS_FETCH: "1",
          OPENCODE_DISABLE_SHARE: "1",
          OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
        },
      };
    },
  },
  copilot: {
    label: "Copilot CLI",
    api: "anthropic",
    setup(home, api, server) {
      const config = join(home, "mcp.json");
      writeFileSync(
        config,
        JSON.stringify({ mcpServers: { "tui-tester": { type: "local", ...server, tools: ["*"] } } }),
      );
      return {
        args: ["-p", PROMPT, "--allow-all-tools", "--no-auto-update", "--disable-builtin-mcps"].concat([
          "--additional-mcp-config",
          `@${config}`,
          "--output-format",
          "json",
        ]),
        env: {
          COPILOT_HOME: join(home, ".copilot"),
          COPILOT_OFFLINE: "true",
          COPILOT_AUTO_UPDATE: "false",
          COPILOT_PROVIDER_TYPE: "anthropic",
          COPILOT_PROVIDER_BASE_URL: api,
          COPILOT_PROVIDER_API_KEY: "sk-ant-fake",
          COPILOT_MODEL: "claude-sonnet-4.5",
        },
      };
    },
  },
};

/** The client's launcher in CLIENTS_DIR, or null when it is not installed there. */
export function clientBinary(name: ClientName): string | null {
  const bin = join(CLIENTS_DIR, "node_modules", ".bin", name);
  return existsSync(bin) ? bin : null;
}

/** "2.1.197" from the installed package.json, or "?" when it has none. */
export function clientVersion(name: ClientName): string {
  const pkg = {
    claude: "@anthropic-ai/claude-code",
    codex: "@openai/codex",
    opencode: "opencode-ai",
    copilot: "@github/copilot",
  }[name];
  try {
    return JSON.parse(readFileSync(join(CLIENTS_DIR, "node_modules", pkg, "package.json"), "utf8")).version;
  } catch {
    return "?";
  }
}

export interface ClientRun extends AsyncDisposable {
  name: ClientName;
  /** Have the model call a tui-tester tool; resolves with what the client delivered to the model. */
  call(tool: string, args?: Record<string, unknown>): Promise<Delivered>;
  /** End the conversation and wait for the client to exit; its exit code. */
  finish(): Promise<number>;
  api: FakeApi;
}

export interface RunOptions {
  /** Extra environment of the tui-tester server (TUI_TESTER_OUTPUT=structured, ...). */
  serverEnv?: Record<string, string>;
  /** Extra environment of the client itself (ENABLE_TOOL_SEARCH=true for Claude Code, ...). */
  clientEnv?: Record<string, string>;
  /** The whole client run is killed after this long (default 300 s). */
  timeoutMs?: number;
}

/** Client processes still running, for a caller that is stopped early (bench:clients on Ctrl-C). */
const running = new Set<{ kill(signal?: number | NodeJS.Signals): void }>();

/** Kill every client this process started and that is still running. */
export function killClients(): void {
  for (const child of running) child.kill("SIGKILL");
}

/** How long a finished client gets to exit before it is killed. */
const EXIT_GRACE_MS = 30_000;

export async function startClient(name: ClientName, options: RunOptions = {}): Promise<ClientRun> {
  const bin = clientBinary(name);
  if (!bin) throw new Error(`${name} is not installed in ${CLIENTS_DIR}; install the clients with: ${INSTALL}`);
  const spec = CLIENTS[name];
  const script = new ToolScript();
  const api = spec.api === "anthropic" ? startFakeAnthropic(script) : startFakeOpenAI(script);
  const home = mkdtempSync(join(tmpdir(), `tui-tester-${name}-`));
  mkdirSync(join(home, "work"));
  const server: McpServer = {
    command: process.execPath,
    args: [SERVER_ENTRY],
    env: { TUI_TESTER_LOG: "silent", ...options.serverEnv },
  };
  const setup = spec.setup(home, api.url, server);
  const stderrPath = join(home, "client.stderr");
  const child = Bun.spawn([bin, ...setup.args], {
    cwd: join(home, "work"),
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: home,
      TERM: "dumb",
      ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
      // Everything but 127.0.0.1 goes to a port nobody listens on.
      HTTPS_PROXY: "http://127.0.0.1:9",
      HTTP_PROXY: "http://127.0.0.1:9",
      NO_PROXY: "127.0.0.1,localhost",
      ...setup.env,
      ...options.clientEnv,
    },
    stdin: "ignore",
    stdout: Bun.file(join(home, "client.stdout")),
    stderr: Bun.file(stderrPath),
  });
  running.add(child);
  const stderrTail = () => {
    try {
      return readFileSync(stderrPath, "utf8").slice(-1500);
    } catch {
      return "";
    }
  };
  const timeoutMs = options.timeoutMs ?? 300_000;
  const killer = setTimeout(() => {
    script.fail(new Error(`${spec.label} ran longer than ${timeoutMs} ms; killed`));
    child.kill("SIGKILL");
  }, timeoutMs);
  const exited = child.exited.then((code) => {
    running.delete(child);
    clearTimeout(killer);
    script.fail(new Error(`${spec.label} exited (code ${code}) before the script ended. stderr:\n${stderrTail()}`));
    return code;
  });
  /** End the script and wait (bounded) for the client to exit, asking it to stop first if `ask`. */
  const ended = async (ask: boolean) => {
    script.finish();
    const grace = setTimeout(() => child.kill("SIGKILL"), EXIT_GRACE_MS);
    if (ask) child.kill("SIGTERM");
    const code = await exited;
    clearTimeout(grace);
    return code;
  };
  const dispose = async () => {
    await ended(true);
    await api.stop();
    if (process.env.TUI_TESTER_CLIENTS_LOG) {
      mkdirSync(process.env.TUI_TESTER_CLIENTS_LOG, { recursive: true });
      const log = join(process.env.TUI_TESTER_CLIENTS_LOG, `${name}-${Date.now()}.jsonl`);
      writeFileSync(log, api.requests.map((r) => JSON.stringify(r)).join("\n"));
    }
    rmSync(home, { recursive: true, force: true });
  };
  return {
    name,
    api,
    call: (tool, args = {}) => script.call(tool, args),
    finish: () => ended(false),
    [Symbol.asyncDispose]: dispose,
  };
}
