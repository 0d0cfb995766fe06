/**
 * Each loader in src/vendor/ gives what its callers use of the package (the export names and
 * shapes differ between ES and CommonJS packages, and a loader's return type alone does not
 * prove the value matches), and a loader called twice gives the same module.
 */
import { describe, expect, it } from 'vitest';
import {
  loadCachePolicy,
  loadChalk,
  loadCliTable3,
  loadConf,
  loadInquirerSearch,
  loadPromClient,
  loadRead,
  loadStringWidth,
  loadUndici,
} from '../../src/vendor/load.js';

describe('vendor loaders', () => {
  it('give the functions and classes their callers use', async () => {
    expect(typeof (await loadUndici()).Agent).toBe('function');
    expect(typeof (await loadChalk()).Chalk).toBe('function');
    expect(typeof (await loadConf()).default).toBe('function');
    expect(typeof (await loadRead()).read).toBe('function');
    expect(typeof (await loadInquirerSearch()).default).toBe('function');
  });

  it('give working values, not namespace objects', async () => {
    const Table = await loadCliTable3();
    const table = new Table({ style: { head: [], border: [] } });
    table.push(['a', 'b']);
    expect(table.toString()).toContain('a');
    const stringWidth = (await loadStringWidth()).default;
    expect(stringWidth('漢字')).toBe(4);
    const Policy = await loadCachePolicy();
    const policy = new Policy({ url: '/x', method: 'GET', headers: {} }, { status: 200, headers: { 'cache-control': 'max-age=60' } });
    expect(policy.storable()).toBe(true);
    const { Counter, Registry } = await loadPromClient();
    const registry = new Registry();
    new Counter({ name: 'loaded_total', help: 'Loaded.', registers: [registry] }).inc();
    expect(await registry.metrics()).toContain('loaded_total 1');
  });
});
