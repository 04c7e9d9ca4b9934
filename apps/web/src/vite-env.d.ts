/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** Origin (or path prefix) of the API; empty means same origin. */
  readonly VITE_API_BASE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
