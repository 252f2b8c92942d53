/**
 * The webview checks host messages against wireShapes.ts (plain data) instead of the zod schemas:
 * it must accept every message the schemas accept — or the chat would show good cards as plain
 * text — and refuse a field of the wrong type as the schemas do. Samples are built from the zod
 * schemas themselves: every member of Card, HostEvent and HostUiMessage with all its optional
 * fields present (lists with two elements) and with none, then each field given the wrong type.
 */
import assert from 'node:assert/strict';
import type * as z from 'zod';
import { Card, HostEvent, HostUiMessage } from '../../../src/protocol';
import { shapeProblem, type WireShape } from '../../../src/protocol/wireShape';
import { CARD_SHAPES, EVENT_SHAPES, UI_SHAPES } from '../../../src/protocol/wireShapes';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Def = any;

/** A value the schema accepts; `full`: with every optional field present. */
function sample(s: z.ZodType, full: boolean): unknown {
  const d: Def = (s as any)._zod.def;
  switch (d.type) {
    case 'optional': return full ? sample(d.innerType, full) : undefined;
    case 'nullable': return sample(d.innerType, full);
    case 'string': return 'abc';
    case 'number': return 1;
    case 'boolean': return true;
    case 'enum': return Object.values(d.entries)[0];
    case 'literal': return d.values[0];
    case 'object': return Object.fromEntries(Object.entries(d.shape).map(([k, v]) => [k, sample(v as z.ZodType, full)]).filter(([, v]) => v !== undefined));
    case 'array': return full || (d.checks ?? []).length ? [sample(d.element, full), sample(d.element, full)] : [];
    case 'record': return full ? { abc: sample(d.valueType, full) } : {};
    case 'unknown': case 'any': return {};
    case 'union': return sample(d.options[0], full);
    case 'tuple': return d.items.map((i: z.ZodType) => sample(i, full));
    default: throw new Error(`no sample for zod type ${d.type}`);
  }
}

const unions: Array<[string, z.ZodType, string, Record<string, WireShape>]> = [
  ['Card', Card, 'kind', CARD_SHAPES],
  ['HostEvent', HostEvent, 'type', EVENT_SHAPES],
  ['HostUiMessage', HostUiMessage, 'type', UI_SHAPES],
];

describe('wire shapes (the webview\'s checks) against the zod schemas', () => {
  for (const [name, union, tag, shapes] of unions) {
    const members: z.ZodType[] = (union as any)._zod.def.options;

    it(`${name}: accepts every member the schema accepts, with all optional fields and with none`, () => {
      for (const m of members) {
        for (const full of [true, false]) {
          const v = sample(m, full) as Record<string, unknown>;
          { const r = union.safeParse(v); assert.equal(r.success, true, `zod accepts the ${name} sample ${JSON.stringify(v)}: ${JSON.stringify(r.error?.issues)}`); }
          assert.equal(shapeProblem(v, shapes[String(v[tag])]!), undefined, `${name} ${String(v[tag])} (${full ? 'all fields' : 'required fields only'})`);
        }
      }
    });

    it(`${name}: refuses a field of the wrong type, as the schema does`, () => {
      for (const m of members) {
        const v = sample(m, true) as Record<string, unknown>;
        for (const field of Object.keys(v)) {
          // A card inside an event is decoded on its own (one bad card becomes one plain-text card).
          if (field === tag || (shapes[String(v[tag])] as Record<string, WireShape>)[field] === 'u') continue;
          const wrong = { ...v, [field]: typeof v[field] === 'number' ? 'seven' : 7 };
          const zodOk = union.safeParse(wrong).success;
          const shapeOk = shapeProblem(wrong, shapes[String(v[tag])]!) === undefined;
          assert.equal(shapeOk, zodOk, `${name} ${String(v[tag])}.${field} = ${JSON.stringify(wrong[field])}: zod ${zodOk ? 'accepts' : 'refuses'} it`);
        }
      }
    });
  }
});
