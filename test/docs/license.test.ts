/** The licence package.json names is the one shipped. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);

describe('LICENSE', () => {
  it('is the MIT licence package.json declares, with a copyright line', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { license?: string };
    expect(pkg.license).toBe('MIT');
    const text = readFileSync(new URL('LICENSE', root), 'utf8');
    expect(text).toMatch(/^MIT License/);
    expect(text).toMatch(/^Copyright \(c\) \d{4}/m);
    expect(text).toContain('THE SOFTWARE IS PROVIDED "AS IS"');
  });
});
