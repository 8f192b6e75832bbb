/**
 * A planned test (the `tui-tester test` shape test-from-history.ts builds) as a bun test file on the
 * library: launch, press, type, waitForText and the matchers, one line per step, as a person would
 * write it. Goldens are the same files in the same place (__snapshots__/<file name>/), so the end
 * snapshot save_test writes is the one toMatchScreenSnapshot compares in CI.
 */
import { basename } from "node:path";
import { TuiError } from "../errors.ts";
import { TEST_ENV_DEFAULTS } from "./test-from-history.ts";

/** Per test, as the CLI's default per-test limit. */
const TEST_TIMEOUT_MS = 30_000;
const RESERVED = new Set(
  "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof let new null return super switch this throw true try typeof var void while with yield await expect test join launch process".split(
    " ",
  ),
);

type Step = Record<string, unknown>;

/** A secret step's text as save_test writes it: only a placeholder naming the variable. */
const SECRET_ONLY = /^\$\{env:(TUI_SECRET_\w+)\}$/;

export function tsTestText(test: Record<string, unknown>, path: string): string {
  const session = test.session as Step;
  const steps = test.steps as Step[];
  const unsupported = [...new Set(steps.map((s) => String(s.type)).filter((t) => !Object.hasOwn(LIBRARY_FORMS, t)))];
  if (unsupported.length > 0)
    throw new TuiError(
      "INVALID_ARGUMENT",
      `The session used ${unsupported.join(" and ")}, which the library has no method for, so it cannot be a bun test.`,
      'Save it as "*.tui.json" or "*.tui.yaml" instead (tui-tester test runs those).',
    );
  const name = terminalName(String(session.command));
  const usesEnvSecret = steps.some((s) => s.secret === true && SECRET_ONLY.test(String(s.text)));
  const body = steps.flatMap((step) => stepLines(step, name));
  const imports = [
    'import { expect, test } from "bun:test";',
    ...(session.cwd !== undefined ? ['import { join } from "node:path";'] : []),
    'import { launch } from "tui-tester";',
    'import "tui-tester/expect";',
  ];
  const header = [
    `// Written by tui-tester save_test. Run: bun test ${basename(path)} (CI=true: goldens must exist; -u rewrites them)`,
    ...imports,
    "",
    ...(usesEnvSecret ? secretHelper() : []),
  ];
  return [
    ...header,
    `test(${JSON.stringify(String(test.name))}, async () => {`,
    `  await using ${name} = await launch(${JSON.stringify(session.command)}, ${literal(launchOptions(session), 1)});`,
    ...body.map((line) => `  ${line}`),
    `}, ${TEST_TIMEOUT_MS.toLocaleString("en").replace(/,/g, "_")});`,
    "",
  ].join("\n");
}

/** The variable for the terminal: the program's name when it is a plain identifier ("htop"), else "app". */
function terminalName(command: string): string {
  const base = basename(command).replace(/\.[a-z0-9]+$/i, "");
  return /^[a-z][a-z0-9]*$/.test(base) && !RESERVED.has(base) ? base : "app";
}

function launchOptions(session: Step): Step {
  const options: Step = {};
  if (Array.isArray(session.args)) options.args = session.args;
  // a JSON test's cwd is relative to its file; bun test's is wherever bun was started
  options.cwd = new Raw(
    session.cwd === undefined ? "import.meta.dir" : `join(import.meta.dir, ${JSON.stringify(session.cwd)})`,
  );
  // the runner's defaults, written out: a bun test gets no runner to add them
  options.env = { ...TEST_ENV_DEFAULTS, ...(session.env as Step | undefined) };
  for (const key of ["cols", "rows", "term", "clock"]) if (session[key] !== undefined) options[key] = session[key];
  options.isolate = session.isolate ?? true;
  if (session.passEnv !== undefined) options.passEnv = session.passEnv;
  return options;
}

function stepLines(step: Step, t: string): string[] {
  const { type, label, optional: _optional, ...args } = step;
  const comment = typeof label === "string" ? [`// ${label.replace(/\n/g, " ")}`] : [];
  return [...comment, stepCall(String(type), args, t)];
}

type Form = (args: Step, t: string, options: (extra: Step) => string) => string;

/** Each step type's library form, a call on the Terminal `t`; a session with any other step is saved as JSON. */
const LIBRARY_FORMS: Record<string, Form> = {
  wait_for_text: (args, t) => `await ${t}.waitForText(${pattern(args)}${waitOptions(args)});`,
  wait_for_idle: (args, t) => `await ${t}.waitForIdle(${literal(pick(args, ["idleMs", "timeoutMs", "mode"]))});`,
  send_keys: (args, t, options) => `await ${t}.press(${literal(args.keys)}${options({})});`,
  send_text: (args, t, options) => `await ${t}.type(${textArg(args)}${options(args.secret ? { secret: true } : {})});`,
  type_text: (args, t, options) => `await ${t}.type(${textArg(args)}${options(pick(args, ["cps"]))});`,
  paste: (args, t, options) => `await ${t}.paste(${textArg(args)}${options({})});`,
  mouse: (args, t, options) => {
    const { waitFor: _w, ...mouse } = args;
    return `await ${t}.mouse(${literal(mouse)}${options({})});`;
  },
  resize: (args, t, options) => `await ${t}.resize(${args.cols}, ${args.rows}${options({})});`,
  assert_text: (args, t) => {
    const not = args.negate ? ".not" : "";
    return `await expect(${t})${not}.toShowText(${pattern(args)}, { timeoutMs: 0 });`;
  },
  expect_snapshot: (args, t) => {
    const mask = (args.mask as Step[] | undefined)?.map(maskLiteral);
    const rest = pick(args, ["region", "format"]);
    const opts =
      mask?.length || Object.keys(rest).length
        ? `, ${literal({ ...rest, ...(mask?.length ? { mask: new Raw(`[${mask.join(", ")}]`) } : {}) })}`
        : "";
    return `await expect(${t}).toMatchScreenSnapshot(${JSON.stringify(args.name)}${opts});`;
  },
};

function stepCall(type: string, args: Step, t: string): string {
  const options = (extra: Step) => {
    const all = { ...extra, ...(args.waitFor ? { waitFor: waitForOption(args.waitFor as Step) } : {}) };
    return Object.keys(all).length ? `, ${literal(all)}` : "";
  };
  const form = Object.hasOwn(LIBRARY_FORMS, type) ? LIBRARY_FORMS[type] : undefined;
  if (form === undefined)
    throw new TuiError(
      "INVALID_ARGUMENT",
      `The step type "${type}" has no library form.`,
      'Save the session as "*.tui.json" instead.',
    );
  return form(args, t, options);
}

/** A secret is read from the environment variable save_test named; a missing one fails the test at once. */
function textArg(args: Step): string {
  const variable = args.secret === true ? SECRET_ONLY.exec(String(args.text))?.[1] : undefined;
  return variable ? `secret(${JSON.stringify(variable)})` : JSON.stringify(args.text);
}

function secretHelper(): string[] {
  return [
    "/** A secret typed in the saved session: set it in the environment (never in this file). */",
    "function secret(name: string): string {",
    "  const value = process.env[name];",
    "  if (value === undefined) throw new Error(`Set ${name}: the session typed a secret there (save_test keeps none).`);",
    "  return value;",
    "}",
    "",
  ];
}

function pattern(args: Step): string {
  if (args.regex === true) return String(new RegExp(String(args.pattern), String(args.regexFlags ?? "")));
  return JSON.stringify(args.pattern);
}

function waitOptions(args: Step): string {
  const options = pick(args, ["timeoutMs", "after"]);
  if (args.matchScreen === false) options.raw = true;
  return Object.keys(options).length ? `, ${literal(options)}` : "";
}

function waitForOption(spec: Step): unknown {
  const options = pick(spec, ["timeoutMs", "after"]);
  if (spec.matchScreen === false) options.raw = true;
  const p = new Raw(pattern(spec));
  return Object.keys(options).length ? { pattern: p, ...options } : p;
}

function maskLiteral(mask: Step): string {
  if (mask.region) return literal(mask.region);
  return String(new RegExp(String(mask.regex), String(mask.flags ?? "")));
}

function pick(args: Step, keys: string[]): Step {
  const out: Step = {};
  for (const key of keys) if (args[key] !== undefined) out[key] = args[key];
  return out;
}

/** Source text passed through as is (a RegExp literal). */
class Raw {
  constructor(readonly text: string) {}
}

/** A value as TypeScript source: unquoted keys where they can be, one line when short, else one entry a line. */
function literal(value: unknown, depth = 0): string {
  if (value instanceof Raw) return value.text;
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const pad = "  ".repeat(depth + 1);
  const end = "  ".repeat(depth);
  const items = Array.isArray(value)
    ? value.map((v) => literal(v, depth + 1))
    : Object.entries(value).map(
        ([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${literal(v, depth + 1)}`,
      );
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{ ", " }"];
  if (items.length === 0) return Array.isArray(value) ? "[]" : "{}";
  const line = `${open}${items.join(", ")}${close}`;
  if (line.length <= 90 && !line.includes("\n")) return line;
  return `${open.trim()}\n${items.map((i) => `${pad}${i},`).join("\n")}\n${end}${close.trim()}`;
}
