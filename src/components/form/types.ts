import type { JobKind, JobSubject } from '../../model/jobs.js';
import type { ApiClient } from '../../api/client.js';
import type { Mode, ResourceSchema } from '../../model/schema.js';
import type { ActionResult, ScreenCtx } from '../../app/screen.js';
import type { Params } from '../../store/nav.js';
import type { Addition } from '../../model/costs.js';

export interface Choice {
  value: string;
  label?: string;
  /** The label where it depends on the form's other fields (a plan's price in the chosen region). */
  labelIn?: (values: Readonly<Record<string, unknown>>) => string;
  /** Why this choice cannot be taken now (an image still being created): marked in its label, refused on submit beside its field. */
  refuse?: string;
}

/** What a choice loader may depend on: the screen's nav params and the row the form is about (boot: that instance's configs). */
export interface ChoiceScope {
  params: Params;
  row?: unknown;
}

/** Per-field adjustments a screen makes to what the schema says. */
export interface FieldOverride {
  title?: string;
  help?: string;
  /** Not shown; its default (if any) is still sent. */
  hidden?: boolean;
  default?: unknown;
  /**
   * Turns the field into a choice (an array field: pick several); a function
   * loads them from the API (regions, types), given the scope when they depend on it.
   */
  choices?: Choice[] | ((client: ApiClient, scope: ChoiceScope) => Promise<Choice[]>);
  /** Marked and enforced as required even where the schema does not say so. */
  required?: boolean;
  /** A multi-line text or JSON field this many lines tall (scripts, PEM certificates, node lists): Enter adds a line, Tab moves on. */
  lines?: number;
}

/**
 * A create or update form built from a schema of src/model: the same
 * FieldSpec rules the service enforces are checked as the user types.
 */
export interface FormSpec<R = any> {
  title?: string;
  schema: ResourceSchema;
  /** create (default for create and actions) or update (default for edit). */
  mode?: Mode;
  /** Field names in order; dotted names reach into object fields (e.g. "ssh.port"). */
  fields: string[];
  overrides?: Record<string, FieldOverride>;
  /** As the list's edit form: why this row cannot be edited (a public image, another author's public script; `user` is the signed-in username when known); the key says so instead of opening. */
  refuse?: (row: R, user?: string) => string | undefined;
  /** Starting values; an edit form starts from the row when this is absent. */
  initial?: (row: R | undefined, params: Params) => Record<string, unknown>;
  /** Asks before sending when it returns a question (a restore that overwrites); the dialog defaults to Cancel. */
  confirm?: (body: Record<string, unknown>, row?: R) => string | undefined;
  /** What sending this body adds to the bill: the confirm (asked whenever it adds) says how much. */
  adds?: (body: Record<string, unknown>, row?: R) => Addition | undefined;
  /** Sends the body; its result goes to `done`. */
  submit: (body: Record<string, unknown>, ctx: ScreenCtx, row?: R) => Promise<unknown>;
  /** The message after success, or a secret to show once; default "Created" / "Saved". */
  done?: (result: unknown, row?: R) => ActionResult;
  /** A long action whose item is known from the answer or the body (a new instance, a restore's target): followed as a job once sent. */
  job?: Omit<JobKind, 'doing' | 'then'> & {
    doing?: string;
    subject: (result: unknown, body: Record<string, unknown>, row?: R) => JobSubject;
    /** The event the work goes on under, when what was sent says there is one (a creation that boots). */
    then?: (result: unknown, body: Record<string, unknown>) => string | undefined;
  };
  scope?: string;
  invalidates?: (row: R | undefined, params: Params) => string[];
}
