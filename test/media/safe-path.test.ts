import { mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertRealInside, isInside, MAX_COMPONENT_BYTES, pathInside, safeComponent } from '../../src/media/safe-path.js';
import { tempDir } from '../helpers/temp.js';

describe('safeComponent', () => {
  it('keeps ordinary ids and names as they are', () => {
    expect(safeComponent('3_4_Sit-Up')).toBe('3_4_Sit-Up');
    expect(safeComponent('start')).toBe('start');
    expect(safeComponent('Übung äöü')).toBe('Übung äöü');
  });

  it.each([
    ['../x'],
    ['..'],
    ['.'],
    [''],
    ['/etc/passwd'],
    ['C:\\Windows\\system32'],
    ['a\u0000b'],
    ['line\nbreak'],
    ['.hidden'],
    ['trailing.'],
    ['CON'],
    ['nul.txt'],
    ['...'],
    ['a/../../b'],
  ])('turns %j into one harmless, non-empty component', (raw) => {
    const out = safeComponent(raw);
    expect(out.length).toBeGreaterThan(0);
    expect(out).not.toMatch(/[/\\\u0000-\u001f]/);
    expect(out.startsWith('.')).toBe(false);
    expect(out).not.toBe('..');
    expect(out).not.toMatch(/^(con|nul)(\.|$)/i);
    expect(Buffer.byteLength(out)).toBeLessThanOrEqual(MAX_COMPONENT_BYTES);
  });

  it('keeps distinct inputs distinct when it has to change them', () => {
    expect(safeComponent('a/b')).not.toBe(safeComponent('a_b'));
    expect(safeComponent('a/b')).not.toBe(safeComponent('a\\b'));
    expect(safeComponent('..')).not.toBe(safeComponent('.'));
  });

  it('is deterministic, so a rerun finds the same file', () => {
    expect(safeComponent('../x')).toBe(safeComponent('../x'));
  });

  it('caps very long names by bytes without splitting characters, distinct tails stay distinct', () => {
    const a = `${'ü'.repeat(300)}a`;
    const b = `${'ü'.repeat(300)}b`;
    const outA = safeComponent(a);
    expect(Buffer.byteLength(outA)).toBeLessThanOrEqual(MAX_COMPONENT_BYTES);
    expect(outA).not.toContain('\uFFFD');
    expect(outA).not.toBe(safeComponent(b));
  });
});

describe('pathInside / isInside', () => {
  const dir = resolve('/tmp/out');
  it('accepts sanitised components', () => {
    expect(pathInside(dir, safeComponent('../x'), 'a.png')).toMatch(/^\/tmp\/out\//);
  });
  it('refuses components that escape or point at the directory itself', () => {
    expect(() => pathInside(dir, '..', 'x')).toThrow(/outside/);
    expect(() => pathInside(dir, '/etc/passwd')).toThrow(/outside/);
    expect(() => pathInside(dir, '.')).toThrow(/outside/);
  });
  it('does not take a sibling with a common prefix for inside', () => {
    expect(isInside('/tmp/out', '/tmp/outside/x')).toBe(false);
    expect(isInside('/tmp/out', '/tmp/out/x')).toBe(true);
  });
  it('catches a symbolic link planted to lead outside', async () => {
    const root = tempDir('safe-path-');
    const out = join(root, 'out');
    mkdirSync(out);
    mkdirSync(join(root, 'elsewhere'));
    symlinkSync(join(root, 'elsewhere'), join(out, 'link'));
    await expect(assertRealInside(out, join(out, 'link'))).rejects.toThrow(/outside/);
    mkdirSync(join(out, 'real'));
    await expect(assertRealInside(out, join(out, 'real'))).resolves.toBeUndefined();
  });
});
