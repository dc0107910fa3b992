// The text rule reaches every string a request schema accepts, whatever the property is called (a body field named
// `title` or `description` is data, not the JSON Schema annotation of the same name).
import assert from 'node:assert/strict';
import Type from 'typebox';
import { TEXT_RULE, withTextRules } from './textRules.js';

describe('withTextRules', () => {
  it('marks string properties named like JSON Schema keywords (title, description, format, pattern, required...)', () => {
    const names = ['title', 'description', 'format', 'pattern', 'required', 'default', 'enum', 'const', 'examples'];
    const schema = Type.Object(Object.fromEntries(names.map((name) => [name, Type.String()])));
    const properties = (withTextRules(schema) as { properties: Record<string, Record<string, unknown>> }).properties;
    for (const name of names) assert.equal(properties[name]![TEXT_RULE], 'line', name);
  });

  it('keeps the annotations themselves as written', () => {
    const schema = Type.String({ title: 'Name', description: 'The name', pattern: '^a' });
    assert.deepEqual(withTextRules(schema), {
      type: 'string',
      title: 'Name',
      description: 'The name',
      pattern: '^a',
      [TEXT_RULE]: 'line',
    });
  });
});
