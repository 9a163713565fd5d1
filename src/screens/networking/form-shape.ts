import { ApiError } from '../../api/errors.js';
import { defineResource, validate, type FieldError, type FieldSpec, type Mode, type ResourceSchema } from '../../model/schema.js';

/**
 * Forms shaped unlike their request body (a firewall's first rule as plain
 * fields, address pairs instead of a JSON array). Their fields reuse the
 * model's specs, so each is checked as the user types; on submit the model's
 * own validation runs on the body the form builds, and every error path is
 * moved back onto the form field it came from. One rule, one place.
 */

/**
 * Maps an error path of the request body to the form's terms: a field, or a
 * path under one (nodes.2.label); undefined leaves it form-level.
 */
export type FieldOf = (path: string) => string | undefined;

/** A FieldOf from [body path prefix, form field] pairs: the first prefix that matches wins, what follows it is kept. */
export function prefixFields(table: [string, string][]): FieldOf {
  return (path) => {
    const hit = table.find(([prefix]) => path === prefix || path.startsWith(`${prefix}.`));
    return hit && hit[1] + path.slice(hit[0].length);
  };
}

/** Each error onto its form field, its reason then naming the form's path rather than the body's ("nodes.2.label is required…"). */
export function moveErrors(errors: FieldError[], fieldOf: FieldOf): FieldError[] {
  return errors.map((e) => {
    const field = e.field === undefined ? undefined : fieldOf(e.field);
    if (!field) return e;
    return { field, reason: e.reason.startsWith(`${e.field} `) ? `${field}${e.reason.slice(e.field!.length)}` : e.reason };
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
  /** Where an error of the built body belongs; the values say which field made which part of it. */
  fieldOf: (path: string, values: Record<string, unknown>) => string | undefined;
}

/**
 * A schema for FormSpec.schema: the form's fields, and as its rule the
 * target's whole validation of the built body. Forms show rules as the user
 * types, so a part merely not filled in yet is left to the form's own
 * required marks and the service.
 */
export function shapedSchema(shape: FormShape): ResourceSchema {
  return defineResource(shape.name, shape.fields, [
    (values, ctx) => {
      const { errors } = validate(shape.target, shape.toBody(values, ctx.current), { mode: 'create', current: ctx.current });
      const problems = errors.filter((e) => e.reason !== `${e.field} is required`);
      return moveErrors(problems, (path) => shape.fieldOf(path, values));
    },
  ]);
}
