/** Which command opens the viewer URL, per platform; no browser is started here. */
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { browserCommand } from "../../src/web/open-browser.ts";

const url = "http://127.0.0.1:1234/?token=abc&x=1#tui-1";

test("linux needs a display and xdg-open", () => {
  expect(browserCommand(url, "linux", { PATH: process.env.PATH })).toEqual(expect.stringContaining("no display"));
  // an xdg-open of our own on PATH, so the case is tested whether or not this machine has one
  const bin = mkdtempSync(join(tmpdir(), "xdg-open-"));
  const xdgOpen = join(bin, "xdg-open");
  writeFileSync(xdgOpen, "#!/bin/sh\n", { mode: 0o755 });
  try {
    expect(browserCommand(url, "linux", { DISPLAY: ":0", PATH: bin })).toEqual([xdgOpen, url]);
  } finally {
    rmSync(bin, { recursive: true, force: true });
  }
  expect(browserCommand(url, "linux", { WAYLAND_DISPLAY: "wayland-0", PATH: "/nonexistent" })).toBe(
    "xdg-open is not installed",
  );
});

test("macOS uses open; Windows passes the URL as one argument, untouched by cmd's & parsing", () => {
  expect(browserCommand(url, "darwin", {})).toEqual(["open", url]);
  expect(browserCommand(url, "win32", {})).toEqual(["rundll32", "url.dll,FileProtocolHandler", url]);
});
