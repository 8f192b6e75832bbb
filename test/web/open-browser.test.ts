/** Which command opens the viewer URL, per platform; no browser is started here. */
import { expect, test } from "bun:test";
import { browserCommand } from "../../src/web/open-browser.ts";

const url = "http://127.0.0.1:1234/?token=abc&x=1#tui-1";

test("linux needs a display and xdg-open", () => {
  expect(browserCommand(url, "linux", { PATH: process.env.PATH })).toEqual(expect.stringContaining("no display"));
  const withDisplay = browserCommand(url, "linux", { DISPLAY: ":0", PATH: process.env.PATH });
  const xdgOpen = Bun.which("xdg-open");
  if (xdgOpen) expect(withDisplay).toEqual([xdgOpen, url]);
  expect(browserCommand(url, "linux", { WAYLAND_DISPLAY: "wayland-0", PATH: "/nonexistent" })).toBe("xdg-open is not installed");
});

test("macOS uses open; Windows passes the URL as one argument, untouched by cmd's & parsing", () => {
  expect(browserCommand(url, "darwin", {})).toEqual(["open", url]);
  expect(browserCommand(url, "win32", {})).toEqual(["rundll32", "url.dll,FileProtocolHandler", url]);
});
