// Evaluated before `mupdf` (import order in mupdf-pages.mjs): MuPDF's WebAssembly loader takes its
// Emscripten module object from this global and fills it with the exported `_wasm_*` functions, the
// same ones mupdf.js itself calls. mupdf-pages.mjs uses the structured-text getters directly when they
// are there (a line-level walk that allocates nothing per character) and mupdf.js's JSON otherwise.
globalThis.$libmupdf_wasm_Module ??= {};
export const wasm = globalThis.$libmupdf_wasm_Module;
