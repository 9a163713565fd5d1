import type { ScreenDef } from '../../app/screen.js';
import { balancers } from './balancers.js';
import { configs } from './configs.js';
import { nodes } from './nodes.js';
import { stats } from './stats.js';

const screens: ScreenDef[] = [balancers, configs, nodes, stats];

export default screens;
