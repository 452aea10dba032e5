import { z } from 'zod';

// Zod's own messages in Spanish, for every schema of the contract, on the server and in the browser.
z.config(z.locales.es());
