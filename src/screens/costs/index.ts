import type { ScreenDef } from '../../app/screen.js';
import { CostsScreen } from './CostsScreen.js';
import { COSTS_SCREEN } from './costs-list.js';

/** `:costs` — what the account costs, from the API's own prices. */
const screens: ScreenDef[] = [
  {
    id: COSTS_SCREEN,
    title: 'Costs',
    aliases: ['cost', 'bill', 'billing'],
    description: "What the account costs, by type, region or tag, from the API's prices",
    component: CostsScreen,
    filterable: true,
  },
];

export default screens;
