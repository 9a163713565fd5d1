import { defineScreen, type ScreenDef } from '../../app/screen.js';
import { SEARCH_SCREEN } from './ids.js';
import { SearchScreen } from './SearchScreen.js';

const screens: ScreenDef[] = [
  // `:search WORDS` and `:find WORDS`; a `:` word that names no area opens it too.
  defineScreen({
    id: SEARCH_SCREEN,
    title: 'Search',
    aliases: ['find'],
    home: false,
    description: 'Find any item by label, id, address, tag, bucket or object name',
    component: SearchScreen,
    filterable: true,
  }),
];

export default screens;
