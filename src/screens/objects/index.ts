import type { ScreenDef } from '../../app/screen.js';
import { account } from './account.js';
import { buckets, clusterBuckets } from './buckets.js';
import { clusters } from './clusters.js';
import { keys } from './keys.js';
import { ObjectBrowser } from './ObjectBrowser.js';

const objectBrowser: ScreenDef = {
  id: 'object-browser',
  title: 'Objects',
  params: ['cluster', 'bucket', 'prefix'],
  component: ObjectBrowser,
};

const screens: ScreenDef[] = [buckets, objectBrowser, keys, clusters, clusterBuckets, account];

export default screens;
