import type { ScreenDef } from '../../app/screen.js';
import { TabsScreen } from './TabsScreen.js';

/** `:tabs` — the tabs and what each shows. */
const tabs: ScreenDef[] = [
  {
    id: 'tabs',
    title: 'Tabs',
    description: 'The tabs, each with its own screens and account; Enter shows one',
    component: TabsScreen,
    push: true,
    home: false,
  },
];

export default tabs;
