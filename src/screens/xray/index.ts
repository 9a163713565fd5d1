import type { ScreenDef } from '../../app/screen.js';
import { XrayScreen } from './XrayScreen.js';

/** `x` on an item: the tree of what it touches. */
const xray: ScreenDef[] = [
  {
    id: 'xray',
    title: 'Xray',
    params: ['type'],
    component: XrayScreen,
    filterable: true,
    home: false,
  },
];

export default xray;
