import { Region, InstanceType } from '../../model/regions.js';
import { filterableFields, present } from '../../model/schema.js';
import { filterFields } from '../filter.js';
import { defineArea, listPage, mustGet } from '../route.js';

/** Regions (seed: no scope listed) and instance types, which create and clone need. */
export default defineArea('regions', (r) => {
  r.get('/regions', 'public', (ctx) => listPage(ctx, 'region', { present: (row) => present(Region, row) }));
  r.get('/regions/{regionId}', 'public', (ctx) => present(Region, mustGet(ctx, 'region', ctx.params.regionId!, 'Region not found')));

  r.get('/vm/types', 'public', (ctx) =>
    listPage(ctx, 'type', { filterable: filterFields(filterableFields(InstanceType)), present: (row) => present(InstanceType, row) }),
  );
  r.get('/vm/types/{typeId}', 'public', (ctx) => present(InstanceType, mustGet(ctx, 'type', ctx.params.typeId!, 'Type not found')));
});
