/** Open a URL in the default browser, where there is a display to show it on. Never throws. */
import { log } from "../util/log.ts";

export interface BrowserLaunch {
  opened: boolean;
  /** Why not, when not. */
  reason?: string;
}

export function browserCommand(
  url: string,
  platform: NodeJS.Platform,
  env: Record<string, string | undefined>,
): string[] | string {
  if (platform === "darwin") return ["open", url];
  // rundll32 takes the URL as one argument; `cmd /c start` would parse & in the query string.
  if (platform === "win32") return ["rundll32", "url.dll,FileProtocolHandler", url];
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return "no display (DISPLAY and WAYLAND_DISPLAY are unset)";
  const opener = Bun.which("xdg-open", { PATH: env.PATH ?? "" });
  return opener ? [opener, url] : "xdg-open is not installed";
}

export function openBrowser(
  url: string,
  platform: NodeJS.Platform = process.platform,
  env: Record<string, string | undefined> = process.env,
): BrowserLaunch {
  const command = browserCommand(url, platform, env);
  if (typeof command === "string") return { opened: false, reason: command };
  try {
    const proc = Bun.spawn(command, { stdio: ["ignore", "ignore", "ignore"], env: env as Record<string, string> });
    proc.unref();
    return { opened: true };
  } catch (error) {
    log("could not open a browser:", String(error));
    return { opened: false, reason: `${command[0]} failed: ${error instanceof Error ? error.message : String(error)}` };
  }
}
