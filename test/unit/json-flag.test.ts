import { describe, expect, it } from 'vitest';
import { explicitJsonFlag, jsonFlagValue } from '../../src/json-flag.js';
import { runInProcess } from '../helpers/test-context.js';

describe('--json [fields] before commander parses', () => {
  it('keeps a command name, an id or a flag after a bare --json out of the field list', () => {
    expect(explicitJsonFlag(['--json', 'show', 'Push_Up'])).toEqual(['--json=', 'show', 'Push_Up']);
    expect(explicitJsonFlag(['show', '--json', 'Push_Up'])).toEqual(['show', '--json=', 'Push_Up']);
    expect(explicitJsonFlag(['query', '--json', '--all'])).toEqual(['query', '--json=', '--all']);
    expect(explicitJsonFlag(['ids', '--json'])).toEqual(['ids', '--json=']);
  });

  it('takes a comma list or a field name as the field list', () => {
    expect(explicitJsonFlag(['--json', 'id,name', 'ids'])).toEqual(['--json=id,name', 'ids']);
    expect(explicitJsonFlag(['ids', '--json', 'id'])).toEqual(['ids', '--json=id']);
    expect(explicitJsonFlag(['ids', '--json', 'id,nmae'])).toEqual(['ids', '--json=id,nmae']); // checked later: a usage error
    expect(explicitJsonFlag(['ids', '--json=name'])).toEqual(['ids', '--json=name']);
  });

  it('leaves everything after -- alone', () => {
    expect(explicitJsonFlag(['show', '--', '--json', 'id'])).toEqual(['show', '--', '--json', 'id']);
  });

  it('reads an empty value as a bare --json', () => {
    expect(jsonFlagValue('')).toBe(true);
    expect(jsonFlagValue('id,name')).toBe('id,name');
    expect(jsonFlagValue(undefined)).toBeUndefined();
  });

  it('runs `--json show <id>` and `--json id,name` end to end in the sandbox', async () => {
    const show = await runInProcess(['--sandbox', '--json', 'show', 'Push_Up']);
    expect(show.code).toBe(0);
    expect(JSON.parse(show.stdout)).toMatchObject({ id: 'Push_Up' });
    const some = await runInProcess(['--sandbox', 'ids', '--max', '2', '--json', 'id,name']);
    expect(some.code).toBe(0);
    for (const item of JSON.parse(some.stdout).exercises) expect(Object.keys(item)).toEqual(['id', 'name']);
    const bad = await runInProcess(['--sandbox', 'ids', '--max', '2', '--json', 'id,nmae']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('nmae');
  });
});
