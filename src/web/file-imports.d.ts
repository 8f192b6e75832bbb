// Files imported with `type: "file"` are their path on disk (inside the executable when compiled).
declare module "*.css" {
  const path: string;
  export default path;
}
declare module "@xterm/xterm/lib/xterm.js" {
  const path: string;
  export default path;
}
declare module "*/viewer.js" {
  const path: string;
  export default path;
}
declare module "*/playback.js" {
  const path: string;
  export default path;
}
declare module "asciinema-player/dist/bundle/asciinema-player.min.js" {
  const path: string;
  export default path;
}
