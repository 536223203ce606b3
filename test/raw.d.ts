/** Vite's `?raw` imports: a file's text (test/routes/app.test.ts reads wrangler.toml this way). */
declare module '*?raw' {
  const text: string;
  export default text;
}

/** Vite's `?inline` imports of an asset: a base64 data URL of its bytes (a fixture in Windows-1252). */
declare module '*?inline' {
  const dataUrl: string;
  export default dataUrl;
}
