import { execSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { unstable_readConfig } from 'wrangler';
import { afterAll, describe, expect, it } from 'vitest';
import { copyDocsAssets, DOCS_VENDOR_DIR, DOCS_VENDOR_FILES } from '../../scripts/docs-assets.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE = path.join(ROOT, 'node_modules', 'swagger-ui-dist');

describe('the /docs assets are built by wrangler itself (wrangler.toml [build])', () => {
  it('wrangler reads a build command that fills the assets directory the /docs page loads from', () => {
    const config = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml') });
    // Plain `wrangler dev`, `wrangler deploy` and `deploy --dry-run` run this before bundling.
    expect(config.build.command).toBe('node scripts/docs-assets.mjs');
    expect(path.resolve(ROOT, config.assets!.directory!, 'docs', 'vendor')).toBe(DOCS_VENDOR_DIR);
  });

  it('the build command, run as wrangler runs it (a shell in the config directory), leaves the pinned files', () => {
    const { build } = unstable_readConfig({ config: path.join(ROOT, 'wrangler.toml') });
    const out = execSync(build.command!, { cwd: build.cwd ?? ROOT, encoding: 'utf8' });
    const version = JSON.parse(readFileSync(path.join(SOURCE, 'package.json'), 'utf8')).version;
    expect(out).toContain(`swagger-ui-dist ${version} in public/docs/vendor/`);
    for (const file of DOCS_VENDOR_FILES)
      expect(readFileSync(path.join(DOCS_VENDOR_DIR, file)).equals(readFileSync(path.join(SOURCE, file)))).toBe(true);
  });

  describe('copyDocsAssets', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'docs-assets-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('copies every file into an empty directory, then writes nothing when run again', () => {
      expect(copyDocsAssets(dir).written).toEqual([...DOCS_VENDOR_FILES]);
      const mtimes = DOCS_VENDOR_FILES.map((f) => statSync(path.join(dir, f)).mtimeMs);
      // wrangler dev reruns the command on every change under src/: an unchanged copy is not touched.
      expect(copyDocsAssets(dir).written).toEqual([]);
      expect(DOCS_VENDOR_FILES.map((f) => statSync(path.join(dir, f)).mtimeMs)).toEqual(mtimes);
    });

    it('rewrites a file that differs (an upgrade) and restores one that is missing, and only those', () => {
      writeFileSync(path.join(dir, 'swagger-ui.css'), '/* an older version */');
      unlinkSync(path.join(dir, 'NOTICE'));
      expect(copyDocsAssets(dir).written).toEqual(['swagger-ui.css', 'NOTICE']);
      for (const file of DOCS_VENDOR_FILES)
        expect(readFileSync(path.join(dir, file)).equals(readFileSync(path.join(SOURCE, file)))).toBe(true);
    });
  });
});
