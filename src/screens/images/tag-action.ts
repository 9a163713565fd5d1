import type { ActionSpec, ScreenCtx } from '../../app/screen.js';
import { Tag } from '../../model/tags.js';

interface Tagged {
  label: string;
  tags: string[];
}

/**
 * "Add a tag…": one tag added to the item's own, the others kept. Bulk: with
 * marks, the tag is typed once and added to every marked item.
 */
export function addTagAction<R extends Tagged>(save: (ctx: ScreenCtx, row: R, tags: string[]) => Promise<unknown>, scope?: string): ActionSpec<R> {
  return {
    id: 'add-tag',
    label: 'Add a tag…',
    key: 'T',
    bulk: true,
    scope,
    form: {
      schema: Tag,
      fields: ['label'],
      overrides: { label: { title: 'Tag', help: 'Added beside the tags it has (once: a tag it has already stays as it is)' } },
      submit: (body, ctx, row) => {
        const tag = String(body.label);
        return row!.tags.includes(tag) ? Promise.resolve(row) : save(ctx, row!, [...row!.tags, tag]);
      },
      done: (_result, row) => `Tagged ${row!.label}`,
      invalidates: () => ['/tags'],
    },
  };
}
