/** SVG -> PNG with resvg (WebAssembly build, so one code path on every target), fonts from the bundle only. */
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import { FONT_FILES, RESVG_WASM } from "./assets.ts";
import { FONT_FAMILY } from "./svg.ts";

let ready: Promise<Uint8Array[]> | undefined;

/** Compile the wasm module and read the fonts once per process. */
function init(): Promise<Uint8Array[]> {
  ready ??= (async () => {
    await initWasm(await Bun.file(RESVG_WASM).arrayBuffer());
    return Promise.all(FONT_FILES.map(async (file) => new Uint8Array(await Bun.file(file).arrayBuffer())));
  })();
  ready.catch(() => (ready = undefined));
  return ready;
}

export async function svgToPng(svg: string, scale = 1): Promise<{ png: Uint8Array; width: number; height: number }> {
  const fontBuffers = await init();
  const resvg = new Resvg(svg, {
    // No system fonts: the same pixels on every machine.
    font: { fontBuffers, defaultFontFamily: FONT_FAMILY, monospaceFamily: FONT_FAMILY },
    fitTo: { mode: "zoom", value: scale },
    shapeRendering: 1,
  });
  try {
    const image = resvg.render();
    try {
      return { png: image.asPng(), width: image.width, height: image.height };
    } finally {
      image.free();
    }
  } finally {
    resvg.free();
  }
}
