/**
 * The screen registry: every area's screens, in the order the home view lists them.
 *
 * Adding an area (see README.md here for the whole recipe):
 *   1. typed endpoint functions in src/api/<area>.ts (like src/api/regions.ts);
 *   2. screen defs in src/screens/<area>/index.ts, default-exporting an array
 *      of ScreenDef (like ./regions/index.ts): a declarative `list` for
 *      resource lists, or a `component` for anything else;
 *   3. one import line below and its spread in `screens`;
 *   4. tests in test/screens/<area>/ (like test/screens/regions/).
 */
import type { ScreenDef } from '../app/screen.js';
import alerts from './alerts/index.js';
import audit from './audit/index.js';
import costs from './costs/index.js';
import ctx from './ctx/index.js';
import events from './events/index.js';
import history from './history/index.js';
import home from './home/index.js';
import images from './images/index.js';
import instances from './instances/index.js';
import jobs from './jobs/index.js';
import managed from './managed/index.js';
import messages from './messages/index.js';
import networking from './networking/index.js';
import nodebalancers from './nodebalancers/index.js';
import objects from './objects/index.js';
import profile from './profile/index.js';
import regions from './regions/index.js';
import requests from './requests/index.js';
import search from './search/index.js';
import tabs from './tabs/index.js';
import xray from './xray/index.js';

export const screens: ScreenDef[] = [
  ...home,
  ...instances,
  ...nodebalancers,
  ...networking,
  ...objects,
  ...images,
  ...managed,
  ...events,
  ...profile,
  ...regions,
  ...requests,
  ...messages,
  ...jobs,
  ...alerts,
  ...history,
  ...search,
  ...audit,
  ...costs,
  ...ctx,
  ...xray,
  ...tabs,
];
