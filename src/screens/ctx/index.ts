import { defineScreen, type ScreenDef } from '../../app/screen.js';
import { AllScreen } from './AllScreen.js';
import { CtxScreen } from './CtxScreen.js';

const screens: ScreenDef[] = [
  defineScreen({
    id: 'ctx',
    title: 'Accounts',
    aliases: ['context', 'profiles'],
    home: false,
    description: 'The saved profiles and the embedded demo; Enter switches',
    component: CtxScreen,
  }),
  defineScreen({
    id: 'all',
    title: 'Every account',
    home: false,
    description: 'Instances, load balancers, firewalls or managed issues of every saved profile in one table',
    component: AllScreen,
    filterable: true,
  }),
];

export default screens;
