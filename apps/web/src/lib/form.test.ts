import { describe, expect, it } from 'vitest';
import type { ResolverOptions } from 'react-hook-form';
import { z } from 'zod';
import { errorAria, formResolver, hasBlankField } from './form';

const schema = z.object({
  name: z.string().trim().min(1, { error: 'name is required' }),
  age: z.coerce.number().int().min(0).max(40),
});
type Values = z.input<typeof schema>;

const nameInput = document.createElement('input');
const options = {
  fields: { name: { ref: nameInput, name: 'name' } },
  shouldUseNativeValidation: false,
} as unknown as ResolverOptions<Values>;

describe('formResolver', () => {
  it("answers the schema's output when every field is right", async () => {
    const resolve = formResolver(schema, { required: ['name'] });
    expect(await resolve({ name: '  Rex ', age: '4' }, undefined, options)).toEqual({
      values: { name: 'Rex', age: 4 },
      errors: {},
    });
  });

  it("marks a blank required field 'required' (spaces count), with its ref for focus", async () => {
    const resolve = formResolver(schema, { required: ['name'] });
    const { errors } = await resolve({ name: '   ', age: '4' }, undefined, options);
    expect(errors.name).toMatchObject({ type: 'required', message: 'name is required' });
    expect(errors.name?.ref).toBe(nameInput);
    expect(hasBlankField(errors)).toBe(true);
  });

  it("says each problem in the form's words: blank, wrong, or by the schema's issue code", async () => {
    const resolve = formResolver(schema, {
      required: ['name'],
      wording: {
        name: { required: 'Please enter a name.' },
        age: { invalid: ({ type }) => (type === 'too_big' ? 'Too old.' : 'Not a whole number.') },
      },
    });
    const blank = await resolve({ name: '', age: '41' }, undefined, options);
    expect(blank.errors.name?.message).toBe('Please enter a name.');
    expect(blank.errors.age).toMatchObject({ type: 'too_big', message: 'Too old.' });
    const wrong = await resolve({ name: 'Rex', age: '2.5' }, undefined, options);
    expect(wrong.errors.name).toBeUndefined();
    expect(wrong.errors.age?.message).toBe('Not a whole number.');
    expect(hasBlankField(wrong.errors)).toBe(false);
    expect(wrong.values).toEqual({});
  });
});

describe('errorAria', () => {
  it('points at the message only while there is one, before any hint', () => {
    expect(errorAria('Wrong', 'e1', 'h1')).toEqual({
      'aria-invalid': true,
      'aria-describedby': 'e1 h1',
    });
    expect(errorAria(undefined, 'e1', 'h1')).toEqual({
      'aria-invalid': undefined,
      'aria-describedby': 'h1',
    });
    expect(errorAria(undefined, 'e1')).toEqual({
      'aria-invalid': undefined,
      'aria-describedby': undefined,
    });
  });
});
