// Zod compiles object parsers with `new Function` unless told not to, and probes for it first:
// under the api's Content-Security-Policy (script-src 'self', no 'unsafe-eval', issue 49.4) the
// probe is refused and reported as a violation, though caught. The web parses little; it does
// without. zod keeps its settings on `globalThis.__zod_globalConfig` and adopts an object already
// there when it loads (zod/v4/core/core.js), so this sets `jitless` before any schema is built
// without importing zod: the first screen's chunk stays free of it (primer-fragmento.test.ts).
const raiz = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
raiz.__zod_globalConfig = { ...raiz.__zod_globalConfig, jitless: true };

// A module, so its names stay its own.
export {};
