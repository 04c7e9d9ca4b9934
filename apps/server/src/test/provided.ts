// Values the global setup hands to every test file (vitest's provide/inject).
declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, otherwise empty PGlite data directory; copy it, never open it directly. */
    pgTemplateDir: string;
  }
}

export {};
