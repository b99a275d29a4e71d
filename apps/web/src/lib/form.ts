import { zodResolver } from '@hookform/resolvers/zod';
import type { FieldError, FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { isBlank } from './utils';

/**
 * What a form says about one field: one text for any problem, or one for blank and one for
 * the rest (which may depend on the schema's issue code, the error's type: 'too_big', …).
 */
export type FieldWording =
  string | { required?: string; invalid?: string | ((error: FieldError) => string) };

type FormOptions<V> = {
  /** Fields that must not be blank; whitespace alone counts as blank (DESIGN §6). */
  required?: readonly (keyof V & string)[];
  /** The form's own words for a field's problem; without them the schema's message shows. */
  wording?: { [K in keyof V]?: FieldWording };
};

/**
 * The one way a form checks its values: the shared zod schema (the server's own rules, so
 * the form lets through nothing the server would refuse, and the submit handler gets the
 * schema's output: trimmed, normalised) through react-hook-form's zod resolver. A blank
 * required field is an error of type 'required', whatever the schema said about it, so a
 * form can tell 'fill in all fields' from a value that is wrong. Errors keep the field's
 * ref: react-hook-form focuses the first invalid field on submit.
 */
export function formResolver<S extends z.ZodType<unknown, FieldValues>>(
  schema: S,
  { required = [], wording = {} }: FormOptions<z.input<S>> = {},
): Resolver<z.input<S>, unknown, z.output<S>> {
  const resolve = zodResolver(schema) as unknown as Resolver<z.input<S>, unknown, z.output<S>>;
  return async (values, context, options) => {
    const result = await resolve(values, context, options);
    const errors: Record<string, FieldError> = { ...(result.errors as Record<string, FieldError>) };
    for (const name of required) {
      const value: unknown = (values as Record<string, unknown>)[name];
      if (typeof value === 'string' ? isBlank(value) : value === undefined || value === null) {
        errors[name] = {
          type: 'required',
          message: errors[name]?.message ?? '',
          ref: errors[name]?.ref ?? options.fields[name]?.ref,
        };
      }
    }
    if (Object.keys(errors).length === 0) return result;
    for (const [name, error] of Object.entries(errors)) {
      const say = (wording as Record<string, FieldWording | undefined>)[name];
      const invalid = typeof say === 'object' ? say.invalid : undefined;
      const message =
        typeof say === 'string'
          ? say
          : error.type === 'required'
            ? say?.required
            : typeof invalid === 'function'
              ? invalid(error)
              : invalid;
      if (message !== undefined) errors[name] = { ...error, message };
    }
    return { values: {}, errors: errors as FieldErrors<z.input<S>> };
  };
}

/** Whether a failed submit left a required field blank. */
export const hasBlankField = (errors: FieldErrors): boolean =>
  Object.values(errors).some((error) => error?.type === 'required');

/**
 * The attributes that tie a control to its message: aria-invalid while there is one, and
 * aria-describedby naming it (before any hint the control always has).
 */
export function errorAria(
  error: string | undefined,
  errorId: string,
  hintId?: string,
): { 'aria-invalid': true | undefined; 'aria-describedby': string | undefined } {
  return {
    'aria-invalid': error ? true : undefined,
    'aria-describedby':
      [error ? errorId : undefined, hintId].filter(Boolean).join(' ') || undefined,
  };
}
