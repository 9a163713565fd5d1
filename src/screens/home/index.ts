import { defineScreen } from '../../app/screen.js';
import { homeAreas, loadCounts } from './count.js';
import { HomeScreen } from './HomeScreen.js';

export default [
  defineScreen({
    id: 'home',
    title: 'Home',
    home: false,
    description: 'Every area with its count',
    component: HomeScreen,
    prefetch: (app) => loadCounts(homeAreas(app.screens, app.client, app.data), app.data, false),
  }),
];
