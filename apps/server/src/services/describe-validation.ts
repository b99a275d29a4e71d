/**
 * Validation issues in the API's words: what a refused body is told, over HTTP (the error
 * handler) and MQTT (reading-upload.ts) alike.
 */

export type ZodIssueLike = {
  keyword?: string;
  instancePath: string;
  message: string;
  params?: Record<string, unknown>;
};

/** Zod's own wording ("Invalid input: …", "Too big: …"); our schema messages never start so. */
const ZOD_DEFAULT = /^(Invalid|Too (big|small)|Unrecognized)\b/;
const TYPE_NAMES: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
};

function sizeLimit(
  field: string,
  params: Record<string, unknown>,
  bound: 'at most' | 'at least',
): string {
  const n = params[bound === 'at most' ? 'maximum' : 'minimum'];
  if (params.origin === 'string') return `${field} must be ${bound} ${String(n)} characters`;
  if (params.origin === 'array') return `${field} must have ${bound} ${String(n)} items`;
  return `${field} must be ${bound} ${String(n)}`;
}

/** One clear sentence for the first problem, naming the field: "name is required", "Unknown field: role". */
export function describeValidation(issues: ZodIssueLike[], context: string | undefined): string {
  const first = issues[0]!;
  const params = first.params ?? {};
  const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const msg = first.message;
  if (first.keyword === 'unrecognized_keys' || /^Unrecognized key/i.test(msg)) {
    const keys = Array.isArray(params.keys) ? (params.keys as unknown[]).map(String) : [];
    const where = field ? ` in ${field}` : '';
    if (keys.length === 0) return `Unknown field${where}`;
    return `Unknown field${keys.length > 1 ? 's' : ''}${where}: ${keys.join(', ')}`;
  }
  if (!field) {
    if (context === 'body' && first.keyword === 'invalid_type')
      return 'Request body must be a JSON object';
    return ZOD_DEFAULT.test(msg) ? `The request ${context ?? 'input'} is not valid` : msg;
  }
  // Our schema messages name the field ("name is required", "Pet name is required"), or leave
  // it to be put before them ("must be …", "is required").
  if (!ZOD_DEFAULT.test(msg)) return /^(must\b|is required$)/.test(msg) ? `${field} ${msg}` : msg;
  switch (first.keyword) {
    case 'invalid_type':
      if (/received undefined/i.test(msg)) return `${field} is required`;
      return `${field} must be ${TYPE_NAMES[String(params.expected)] ?? `of type ${String(params.expected)}`}`;
    case 'too_big':
      return sizeLimit(field, params, 'at most');
    case 'too_small':
      return sizeLimit(field, params, 'at least');
    case 'invalid_format':
      return params.format === 'email'
        ? `${field} must be a valid e-mail address`
        : `${field} is not in a valid format`;
    case 'invalid_value':
      return Array.isArray(params.values)
        ? `${field} must be one of: ${(params.values as unknown[]).map(String).join(', ')}`
        : `${field} is not an allowed value`;
    default:
      return `${field} is not valid`;
  }
}
