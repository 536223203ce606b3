// Types of docs-assets.mjs (plain JavaScript so that wrangler's [build] command needs node only).
export declare const DOCS_VENDOR_DIR: string;
export declare const DOCS_VENDOR_FILES: readonly string[];
export declare function copyDocsAssets(dir?: string): { version: string; written: string[] };
