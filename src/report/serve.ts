/**
 * `tui-tester show-report [DIR]`: the report served on 127.0.0.1 (a random port unless --port), so
 * links to recordings work and a browser on the same machine can open it. Read-only, files under
 * DIR only.
 */
import { existsSync, statSync } from "node:fs";
import { join, normalize, resolve, sep } from "node:path";
import type { Server } from "bun";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".cast": "application/x-asciicast",
  ".json": "application/json",
  ".xml": "application/xml",
  ".gif": "image/gif",
  ".png": "image/png",
  ".svg": "image/svg+xml",
};

export function serveReport(reportDir: string, port = 0): { url: string; server: Server<undefined> } {
  const dir = resolve(reportDir);
  if (!existsSync(join(dir, "index.html"))) {
    throw new Error(
      `${join(dir, "index.html")} does not exist. Run tui-tester test --reporter ` +
        `html${reportDir === "tui-tester-report" ? "" : ` --report-dir ${reportDir}`} first.`,
    );
  }
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port,
    fetch(request) {
      if (request.method !== "GET" && request.method !== "HEAD")
        return new Response("Method not allowed", { status: 405 });
      let pathname: string;
      try {
        pathname = decodeURIComponent(new URL(request.url).pathname);
      } catch {
        return new Response("Bad path", { status: 400 });
      }
      const file = normalize(join(dir, pathname === "/" ? "index.html" : pathname));
      if (file !== dir && !file.startsWith(dir + sep)) return new Response("Forbidden", { status: 403 });
      if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return new Response("Not found", { status: 404 });
      const ext = file.slice(file.lastIndexOf("."));
      return new Response(Bun.file(file), {
        headers: {
          "Content-Type": TYPES[ext] ?? "application/octet-stream",
          "Cache-Control": "no-store",
          "X-Content-Type-Options": "nosniff",
        },
      });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/`, server };
}
