/**
 * Validates a /v1 request body whose shape the domain codecs do not cover (user creation, deposits,
 * balances, metadata) with a zod schema; the first problem becomes a 400 naming the field.
 */
import type { z } from 'zod';
import type { RequestContext } from '../http/router.ts';
import { invalidArgument } from '../http/errors.ts';

export async function parseBody<T extends z.ZodType>(context: RequestContext, schema: T): Promise<z.output<T>> {
  const result = schema.safeParse(await context.body());
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw invalidArgument('invalid request body');
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  throw invalidArgument(`${where}${issue.message}`);
}
