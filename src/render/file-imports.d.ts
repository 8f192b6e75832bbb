// Files imported with `type: "file"` are their path on disk (inside the executable when compiled).
declare module "@resvg/resvg-wasm/index_bg.wasm" {
  const path: string;
  export default path;
}
declare module "*.ttf" {
  const path: string;
  export default path;
}
