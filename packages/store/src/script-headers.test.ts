import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RECORD_FIELDS } from './execution-record.ts';
import { ScriptReply } from './script-replies.ts';
import { assembleScript, includesOf, readLuaFile, resolveIncludes, scriptFiles } from './scripts.ts';

// The scripts' headers are their interface: what each reads and writes of the record, and what it
// answers. These checks keep them in step with the code that calls them.
const LUA_DIR = new URL('./lua/', import.meta.url);
const allFiles = readdirSync(LUA_DIR, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.lua'))
  .map((file) => file.replaceAll('\\', '/'))
  .sort();
const sourceOf = (file: string) => readLuaFile(file) ?? '';
const registered = Object.values(scriptFiles()).sort();
const included = new Set(allFiles.flatMap((file) => includesOf(sourceOf(file))));
const preludes = allFiles.filter((file) => !registered.includes(file));
// The scripts on an account's own Choreos, presets, schedules, tokens, callbacks and webhooks hold no execution record;
// each answers only the store module that calls it.
const ACCOUNT_STATE_SCRIPTS = [
  'accounts/put-account-choreo.lua',
  'advance-schedules.lua',
  'buffer-schedule-tick.lua',
  'claim-due-schedules.lua',
  'claim-webhook-events.lua',
  'delete-token.lua',
  'delete-webhook.lua',
  'lock-token.lua',
  'mirror-webhook-events.lua',
  'open-webhook-deliveries.lua',
  'put-preset.lua',
  'put-schedule.lua',
  'put-webhook.lua',
  'record-callback.lua',
  'record-schedule-run.lua',
  'record-webhook-attempts.lua',
  'redeliver-webhook.lua',
  'release-runs.lua',
  'reseal-field.lua',
  'reserve-executing.lua',
  'reserve-runs.lua',
  'set-schedule-paused.lua',
  'set-token-validity.lua',
  'store-token.lua',
];
const recordFields = new Set<string>(Object.values(RECORD_FIELDS));
const headerOf = (source: string) => (source.startsWith('--[[') ? source.slice(0, source.indexOf(']]')) : '');
// What names a record's hash in a script or in a prelude that works on one it is given.
const ON_RECORD = /redis\.call\('(HMGET|HGET|HSET|HDEL|HSTRLEN|HINCRBY|HEXISTS)', (?:KEYS\[1\]|execution|record|ctx\.record\(\w+\)), ([^)]*)\)/g;

describe('Lua scripts', () => {
  it('are named after the transitions they make, or the account state they keep', () => {
    expect(registered.filter((file) => !ACCOUNT_STATE_SCRIPTS.includes(file))).toEqual([
      'accept-execution.lua',
      'accept-executions.lua',
      'checkpoint-execution.lua',
      'deliver-callback.lua',
      'end-execution.lua',
      'hand-back-execution.lua',
      'record-progress.lua',
      'request-termination.lua',
      'suspend-execution.lua',
      'take-execution.lua',
    ]);
    expect(registered.filter((file) => ACCOUNT_STATE_SCRIPTS.includes(file))).toEqual(ACCOUNT_STATE_SCRIPTS);
  });

  it('leave no file unused: every file of lua/ is a script or included by one', () => {
    expect(preludes.filter((file) => !included.has(file))).toEqual([]);
  });

  for (const file of registered) {
    const source = sourceOf(file);
    const header = headerOf(source);

    it(`${file}: its header documents its KEYS, ARGV and replies`, () => {
      expect(header).toMatch(/^--\[\[/);
      for (const section of ['KEYS[1]', 'ARGV[1]', 'Returns']) expect(header, section).toContain(section);
    });

    it(`${file}: its includes resolve, and the KEYS it takes are those its header documents`, () => {
      const script = assembleScript(file, readLuaFile);
      expect(script.files.at(-1)).toBe(file);
      expect(script.keys).toBeGreaterThan(0);
    });

    it(`${file}: documents by name each field of its named arguments (ARGV[1] as JSON) that it reads`, () => {
      const read = new Set([...source.slice(header.length).matchAll(/\bargs\.(\w+)/g)].map(([, name]) => name as string));
      const documented = new Set([...header.matchAll(/^ {4}(\w+) /gm)].map(([, name]) => name as string));
      expect([...read].filter((name) => !documented.has(name))).toEqual([]);
      if (read.size > 0) expect(source.slice(header.length)).toContain('local args = cjson.decode(ARGV[1])');
    });

    it(`${file}: names each reply code as ScriptReply does`, () => {
      const named = [...header.matchAll(/\b([A-Z][A-Za-z]+) \((-?\d+)\)/g)].map(([, name, code]) => [name, Number(code)]);
      for (const [name, code] of named) expect(ScriptReply[name as keyof typeof ScriptReply], `${name} in ${file}`).toBe(code);
    });

    if (!ACCOUNT_STATE_SCRIPTS.includes(file)) {
      it(`${file}: documents the record fields it reads and writes, and uses only fields of the record map`, () => {
        expect(header).toContain('Record fields (RECORD_FIELDS in execution-record.ts)');
        const { files } = assembleScript(file, readLuaFile);
        const onRecord = files.flatMap((part) => [
          ...sourceOf(part)
            .slice(headerOf(sourceOf(part)).length)
            .matchAll(ON_RECORD),
        ]);
        expect(onRecord.length).toBeGreaterThan(0);
        for (const [call, command, args = ''] of onRecord) {
          // HSET's arguments are field, value, field, value…; the others' name fields only.
          const names = args.split(', ').filter((_, index) => command !== 'HSET' || index % 2 === 0);
          for (const name of names.filter((arg) => arg.startsWith("'"))) expect(recordFields.has(name.slice(1, -1)), `${name} in ${call}`).toBe(true);
        }
      });
    }
  }

  for (const file of preludes) {
    it(`${file}: its header says what it is shared for, and its includes resolve`, () => {
      expect(headerOf(sourceOf(file))).toMatch(/^--\[\[\n\s+Shared by /);
      expect(resolveIncludes(file, readLuaFile).files.at(-1)).toBe(file);
    });
  }

  for (const file of allFiles) {
    it(`${file}: names its functions, locals and context fields in snake_case`, () => {
      const body = sourceOf(file).slice(headerOf(sourceOf(file)).length);
      const declared = [
        ...body.matchAll(/\blocal function ([A-Za-z_]\w*)/g),
        ...body.matchAll(/\blocal ([A-Za-z_][\w, ]*?)\s*=/g),
        ...body.matchAll(/^\s+([A-Za-z_]\w*) = /gm),
      ].flatMap(([, names = '']) => names.split(/,\s*/));
      expect(declared.filter((name) => /[a-z][A-Z]/.test(name))).toEqual([]);
    });
  }
});

describe('Lua includes', () => {
  const files: Record<string, string> = {
    'a.lua': '--[[\n  KEYS[1] one\n  KEYS[2] two\n]]\n--- @include "b.lua"\n--- @include "c.lua"\nA\n',
    'b.lua': '--- @include "c.lua"\nB\n',
    'c.lua': 'C\n',
    'loop.lua': '--[[\n  KEYS[1] one\n]]\n--- @include "d.lua"\n',
    'd.lua': '--- @include "e.lua"\n',
    'e.lua': '--- @include "d.lua"\n',
    'missing.lua': '--[[\n  KEYS[1] one\n]]\n--- @include "b.lua"\n--- @include "nowhere.lua"\n',
    'gap.lua': '--[[\n  KEYS[1] one\n  KEYS[3] three\n]]\n',
  };
  const read = (file: string) => files[file];

  it('sets each included file once, depth first, before the first file that includes it', () => {
    const script = assembleScript('a.lua', read);
    expect(script.files).toEqual(['c.lua', 'b.lua', 'a.lua']);
    expect(script.lua).toBe(`${files['c.lua']}${files['b.lua']}${files['a.lua']}`);
    expect(script.keys).toBe(2);
  });

  it('names a missing include and who includes it', () => {
    expect(() => assembleScript('missing.lua', read)).toThrow('missing.lua includes nowhere.lua, which does not exist');
  });

  it('names the files of a cycle', () => {
    expect(() => assembleScript('loop.lua', read)).toThrow('Lua include cycle: loop.lua → d.lua → e.lua → d.lua');
  });

  it('refuses a header whose KEYS are not numbered 1 to n', () => {
    expect(() => assembleScript('gap.lua', read)).toThrow('gap.lua: its header must document KEYS[1] to KEYS[n]');
  });
});
