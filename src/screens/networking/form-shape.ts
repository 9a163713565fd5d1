import { ApiError } from '../../api/errors.js';
import { defineResource, validate, type FieldError, type FieldSpec, type Mode, type ResourceSchema } from '../../model/schema.js';

/**
 * Forms shaped unlike their request body (a firewall's first rule as plain
 * fields, address pairs instead of a JSON array). Their fields reuse the
 * model's specs, so each is checked as the user types; on submit the model's
 * own validation runs on the body the form builds, and every error path is
 * moved back onto the form field it came from. One rule, one place.
 */

/** Maps an error path of the request body to the form field it belongs to; undefined leaves it form-level. */
export type FieldOf = (path: string) => string | undefined;

/** A FieldOf from [body path prefix, form field] pairs; the first prefix that matches wins. */
export function prefixFields(table: [string, string][]): FieldOf {
  return (path) => table.find(([prefix]) => path === prefix || path.startsWith(`${prefix}.`))?.[1];
}

export function moveErrors(errors: FieldError[], fieldOf: FieldOf): FieldError[] {
  return errors.map((e) => {
    const field = e.field === undefined ? undefined : fieldOf(e.field);
    return field ? { field, reason: e.reason } : e;
  });
}

/** The same failure with its field errors moved onto the form's fields, so the form shows them beside the right inputs. */
export function onFormFields(err: unknown, fieldOf: FieldOf): unknown {
  if (!(err instanceof ApiError) || err.errors.length === 0) return err;
  const moved = new ApiError(err.kind, err.message, err.status, moveErrors(err.errors, fieldOf));
  moved.retryAfterMs = err.retryAfterMs;
  return moved;
}

/** Checks a body the client built (a whole ruleset) with a model schema before sending; throws the errors like the service would. */
export function assertBody(schema: ResourceSchema, body: Record<string, unknown>, mode: Mode, fieldOf: FieldOf, what: string): void {
  const { errors } = validate(schema, body, { mode });
  if (errors.length) throw new ApiError('shape', `${what}: ${errors.map((e) => e.reason).join('; ')}`, 0, moveErrors(errors, fieldOf));
}

export interface FormShape {
  name: string;
  /** The form's fields, each a spec taken from the model. */
  fields: Record<string, FieldSpec>;
  /** The model schema the request body must satisfy. */
  target: ResourceSchema;
  /** The request body from the form's values; `current` is the record the form started from. */
  toBody: (values: Record<string, unknown>, current?: Record<string, unknown>) => Record<string, unknown>;
  fieldOf: FieldOf;
}

/** A schema for FormSpec.schema: the form's fields, and as its rule the target's whole validation of the built body. */
export function shapedSchema(shape: FormShape): ResourceSchema {
  return defineResource(shape.name, shape.fields, [
    (values, ctx) => moveErrors(validate(shape.target, shape.toBody(values, ctx.current), { mode: 'create', current: ctx.current }).errors, shape.fieldOf),
  ]);
}
