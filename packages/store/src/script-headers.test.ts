import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RECORD_FIELDS } from './execution-record.ts';
import { ScriptReply } from './script-replies.ts';

// The scripts' headers are their interface: what each reads and writes of the record, and what it
// answers. These checks keep them in step with the code that calls them.
const LUA_DIR = new URL('./lua/', import.meta.url);
// The scripts on an account's presets, tokens and callbacks hold no execution record; each answers
// only the store module that calls it.
const ACCOUNT_STATE_SCRIPTS = [
  'delete-token.lua',
  'lock-token.lua',
  'put-preset.lua',
  'record-callback.lua',
  'reseal-field.lua',
  'set-token-validity.lua',
  'store-token.lua',
];
// Functions set before the scripts that use them (scripts.ts), not scripts of their own.
const PRELUDES = ['end-record.lua', 'list-row.lua', 'release-lease.lua', 'step-history.lua', 'terminate-descendants.lua'];
const luaFiles = readdirSync(LUA_DIR).filter((file) => file.endsWith('.lua') && !PRELUDES.includes(file));
// releaseLease works on the record it is given: a script that gives it KEYS[1] makes its calls.
const releaseLeaseCalls = readFileSync(new URL('release-lease.lua', LUA_DIR), 'utf8')
  .replaceAll("redis.call('HMGET', execution,", "redis.call('HMGET', KEYS[1],")
  .replaceAll("redis.call('HSET', execution,", "redis.call('HSET', KEYS[1],");
const scripts = luaFiles
  .filter((file) => !ACCOUNT_STATE_SCRIPTS.includes(file))
  .map((file) => ({ file, source: readFileSync(new URL(file, LUA_DIR), 'utf8') }));
const recordFields = new Set<string>(Object.values(RECORD_FIELDS));

describe('Lua scripts', () => {
  it('are named after the transitions they make', () => {
    expect(scripts.map(({ file }) => file).sort()).toEqual([
      'accept-execution.lua',
      'checkpoint-execution.lua',
      'deliver-callback.lua',
      'end-execution.lua',
      'hand-back-execution.lua',
      'record-progress.lua',
      'request-termination.lua',
      'suspend-execution.lua',
      'take-execution.lua',
    ]);
    expect(luaFiles.filter((file) => ACCOUNT_STATE_SCRIPTS.includes(file)).sort()).toEqual(ACCOUNT_STATE_SCRIPTS);
  });

  for (const { file, source } of scripts) {
    const header = source.slice(0, source.indexOf(']]'));

    it(`${file}: its header documents its KEYS, ARGV, record fields and replies`, () => {
      expect(header).toMatch(/^--\[\[/);
      for (const section of ['KEYS[1]', 'ARGV[1]', 'Record fields (RECORD_FIELDS in execution-record.ts)', 'Returns']) {
        expect(header, section).toContain(section);
      }
    });

    it(`${file}: names each reply code as ScriptReply does`, () => {
      const named = [...header.matchAll(/\b([A-Z][A-Za-z]+) \((-?\d+)\)/g)].map(([, name, code]) => [name, Number(code)]);
      for (const [name, code] of named) expect(ScriptReply[name as keyof typeof ScriptReply], `${name} in ${file}`).toBe(code);
    });

    it(`${file}: reads and writes only fields of the record map`, () => {
      const ownBody = source.slice(source.indexOf(']]'));
      const body = ownBody.includes('releaseLease(KEYS[1],') ? ownBody + releaseLeaseCalls : ownBody;
      const onRecord = [...body.matchAll(/redis\.call\('(HMGET|HGET|HSET|HDEL|HSTRLEN|HINCRBY)', KEYS\[1\], ([^)]*)\)/g)];
      expect(onRecord.length).toBeGreaterThan(0);
      for (const [call, command, args = ''] of onRecord) {
        // HSET's arguments are field, value, field, value…; the others' name fields only.
        const names = args.split(', ').filter((_, index) => command !== 'HSET' || index % 2 === 0);
        for (const name of names.filter((arg) => arg.startsWith("'"))) expect(recordFields.has(name.slice(1, -1)), `${name} in ${call}`).toBe(true);
      }
    });
  }
});
