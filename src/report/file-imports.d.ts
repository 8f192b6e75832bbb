// Files imported with `type: "file"` are their path on disk (inside the executable when compiled).
declare module "asciinema-player/dist/bundle/asciinema-player.min.js" {
  const path: string;
  export default path;
}
declare module "asciinema-player/dist/bundle/asciinema-player.css" {
  const path: string;
  export default path;
}
declare module "*/report-page.js" {
  const path: string;
  export default path;
}
