import type { ScreenDef } from '../../app/screen.js';
import { images } from './images.js';
import { scripts } from './scripts.js';
import { tagged, tags } from './tags.js';

const screens: ScreenDef[] = [images, scripts, tags, tagged];

export default screens;
