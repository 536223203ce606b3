/** Vite's `?raw` imports: a file's text (test/routes/app.test.ts reads wrangler.toml this way). */
declare module '*?raw' {
  const text: string;
  export default text;
}
