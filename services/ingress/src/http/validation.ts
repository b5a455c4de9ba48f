import { ApiHttpException } from '@hearth/host';
import type { z } from 'zod';

/** Parses a request part with zod; a failure is a 422 naming each field. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  if (value === undefined || value === null || typeof value !== 'object') {
    throw new ApiHttpException(400, 'BAD_REQUEST', 'expected a JSON object body');
  }
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const fields = r.error.issues.map((i) => ({ field: i.path.join('.') || '(body)', message: i.message }));
  throw new ApiHttpException(422, 'INVALID_FIELDS', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });
}
