import { describe, expect, it } from 'vitest';
import { explicitJsonFlag, jsonFlagValue } from '../../src/commands/shared/flags.js';
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

describe('--json followed by a word that is a slip of a field', () => {
  it('takes a slip of a field (any case, a swap, a letter missing) as the field list, to be refused with a suggestion', () => {
    expect(explicitJsonFlag(['show', 'Push_Up', '--json', 'nme'])).toEqual(['show', 'Push_Up', '--json=nme']);
    expect(explicitJsonFlag(['show', 'Push_Up', '--json', 'nmae'])).toEqual(['show', 'Push_Up', '--json=nmae']);
    expect(explicitJsonFlag(['show', 'Push_Up', '--json', 'displayname'])).toEqual(['show', 'Push_Up', '--json=displayname']);
    expect(explicitJsonFlag(['show', 'Push_Up', '--json', 'instructons'])).toEqual(['show', 'Push_Up', '--json=instructons']);
  });

  it('leaves a command name or an exercise id after --json alone, whatever its length', () => {
    const commands = ['show', 'ids', 'query', 'image', 'video', 'download', 'mirror', 'serve', 'cache', 'quota', 'config', 'auth', 'completion', 'help'];
    for (const word of [...commands, 'Plank', 'Push_Up', 'Lunge', 'Dips', 'Squat']) expect(explicitJsonFlag(['--json', word])).toEqual(['--json=', word]);
  });

  it('`show Push_Up --json nme` exits 2 naming the field meant; `--json name` prints the name', async () => {
    const slip = await runInProcess(['--sandbox', 'show', 'Push_Up', '--json', 'nme']);
    expect(slip.code).toBe(2);
    expect(slip.stderr).toContain('Unknown field for --json: "nme". Did you mean name?');
    expect(slip.stdout).toBe('');
    const right = await runInProcess(['--sandbox', 'show', 'Push_Up', '--json', 'name']);
    expect(right.code).toBe(0);
    expect(JSON.parse(right.stdout)).toEqual({ name: 'Push-Up' });
  });

  it('the same rule in a listing command: `query --muscle chest --json nme` is the field error, not a bare word', async () => {
    const r = await runInProcess(['--sandbox', 'query', '--muscle', 'chest', '--json', 'nme']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Did you mean name?');
    expect(r.stderr).not.toContain('takes filters as flags');
  });
});
