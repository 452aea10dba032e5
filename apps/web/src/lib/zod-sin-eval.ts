import { z } from 'zod';

// Zod compiles object parsers with `new Function` unless told not to, and probes for it first:
// under the api's Content-Security-Policy (script-src 'self', no 'unsafe-eval', issue 49.4) the
// probe is refused and reported as a violation, though caught. The web parses little; it does
// without. Imported first by main.tsx, before any schema is built.
z.config({ jitless: true });
