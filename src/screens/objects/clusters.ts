import { defineScreen } from '../../app/screen.js';
import { CLUSTERS_PATH, getCluster, type Cluster } from '../../api/object-storage.js';

export const clusters = defineScreen<Cluster>({
  id: 'clusters',
  title: 'Clusters',
  aliases: ['obj-clusters'],
  description: 'Object storage clusters; Enter lists the buckets in one',
  list: {
    path: CLUSTERS_PATH,
    rowKey: (c) => c.id,
    label: (c) => c.id,
    columns: [
      { key: 'id', title: 'ID', width: 14, identifier: true },
      { key: 'region', title: 'Region', width: 12 },
      { key: 'status', title: 'Status', width: 11, color: (c) => (c.status === 'available' ? 'green' : 'red') },
      { key: 'domain', title: 'S3 endpoint', flex: 1 },
      { key: 'static_site_domain', title: 'Website domain', flex: 1 },
    ],
    detail: {
      sections: [
        { title: 'Cluster', fields: ['id', 'region', 'status'] },
        { title: 'Endpoints', fields: ['domain', 'static_site_domain'] },
      ],
      fetch: (c, ctx) => getCluster(ctx.client, c.id),
    },
    drill: (c) => ({ screen: 'cluster-buckets', params: { cluster: c.id } }),
  },
});
