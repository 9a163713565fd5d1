import { INSTANCES_PATH, bootInstance, configsPath, deleteConfig, getConfig, instancePath, rebootInstance } from '../../api/instances.js';
import { defineScreen } from '../../app/screen.js';
import { createConfigForm, editConfigForm } from './config-form.js';
import { devicesText, loadConfigs, type ConfigRow } from './config-rows.js';
import { CONFIGS_SCREEN, INSTANCE_GRANT } from './sub-lists.js';

/** Booting changes the instance's status, which the instance list and overview show. */
const bootTouches = () => [INSTANCES_PATH];

/** An instance's boot configs (GET /vm/instances/{id}/configs), devices shown by disk label. */
export const configs = defineScreen<ConfigRow>({
  id: CONFIGS_SCREEN,
  title: 'Configs',
  params: ['id'],
  list: {
    path: (p) => configsPath(p.id!),
    load: loadConfigs,
    writeScope: 'vms:read_write',
    grant: INSTANCE_GRANT,
    columns: [
      { key: 'label', title: 'Label', flex: 2 },
      { key: 'kernel', title: 'Kernel', width: 16 },
      { key: 'virt_mode', title: 'Virt', width: 8 },
      { key: 'run_level', title: 'Run lvl', width: 7 },
      { key: 'root_device', title: 'Root', width: 9 },
      { key: 'devices', title: 'Devices', flex: 3, format: devicesText },
    ],
    detail: {
      fetch: (c, ctx) => getConfig(ctx.client, ctx.params.id!, c.id),
      sections: [
        { title: 'Config', fields: ['id', 'label', 'comments', 'kernel', 'virt_mode', 'run_level', 'root_device', 'memory_limit'] },
        { title: 'Devices', fields: ['devices'] },
        { title: 'Helpers', fields: ['helpers'] },
      ],
    },
    create: createConfigForm,
    edit: editConfigForm,
    delete: {
      confirm: (c) => `Delete boot config ${c.label}? Its disks stay; the instance cannot boot it any more.`,
      submit: (c, ctx) => deleteConfig(ctx.client, ctx.params.id!, c.id),
      invalidates: (_c, p) => [instancePath(p.id!)],
    },
    actions: [
      {
        id: 'boot',
        label: 'Boot with this config',
        key: 'b',
        run: async (c, ctx) => {
          await bootInstance(ctx.client, ctx.params.id!, { config_id: c.id });
          return `Booting with ${c.label}`;
        },
        invalidates: bootTouches,
      },
      {
        id: 'reboot',
        label: 'Reboot into this config',
        key: 'r',
        confirm: (c) => `Reboot the instance into ${c.label}? It goes down for a few seconds.`,
        run: async (c, ctx) => {
          await rebootInstance(ctx.client, ctx.params.id!, { config_id: c.id });
          return `Rebooting into ${c.label}`;
        },
        invalidates: bootTouches,
      },
    ],
    empty: 'No boot configs. Press c to create one from the disks.',
  },
});
