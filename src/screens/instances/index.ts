import type { ScreenDef } from '../../app/screen.js';

const screens: ScreenDef[] = [];

export default screens;
